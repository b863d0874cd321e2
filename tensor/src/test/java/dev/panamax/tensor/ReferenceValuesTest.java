package dev.panamax.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The oracle itself against values worked out by hand (or by NumPy/PyTorch's definitions). */
class ReferenceValuesTest extends ScopedTest {
    private static Backends.Selection reference() {
        return Backends.using("reference");
    }

    @Test
    void activations() {
        try (var _ = reference()) {
            Tensor x = Tensor.of(new float[] {-2, -0.5f, 0, 0.5f, 2});
            assertArrayEquals(new float[] {0, 0, 0, 0.5f, 2}, x.relu().toFloatArray());
            // PyTorch gelu(approximate='tanh'): -0.04540230, -0.15428598, 0, 0.34571401, 1.95459769
            assertArrayEquals(new float[] {-0.04540230f, -0.15428598f, 0, 0.34571401f, 1.95459769f}, x.gelu().toFloatArray(), 1e-7f);
            assertArrayEquals(new float[] {0.11920292f, 0.37754067f, 0.5f, 0.62245933f, 0.88079708f}, x.sigmoid().toFloatArray(), 1e-7f);
            assertArrayEquals(new float[] {-0.96402758f, -0.46211716f, 0, 0.46211716f, 0.96402758f}, x.tanh().toFloatArray(), 1e-7f);
        }
    }

    @Test
    void reductionsAndNaN() {
        try (var _ = reference()) {
            Tensor x = Tensor.of(new float[] {1, 5, 5, 2, Float.NaN, 3}, 2, 3);
            assertArrayEquals(new long[] {1, 1}, x.argmax(1).toLongArray(), "first maximum, NaN counts as the maximum");
            float[] max = x.max(1, false).toFloatArray();
            assertEquals(5, max[0]);
            assertEquals(Float.NaN, max[1], "max propagates NaN as NumPy's does");
            assertArrayEquals(new float[] {11, Float.NaN}, x.sum(1, false).toFloatArray());
            assertArrayEquals(new long[] {5, 10}, Tensor.of(new long[] {1, 2, 4, 8}, 2, 2).sum(0, false).toLongArray());
        }
    }

    @Test
    void integerArithmeticIsExactAndDivisionIsTrueDivision() {
        try (var _ = reference()) {
            Tensor a = Tensor.of(new long[] {7, -7, 7, -7});
            Tensor b = Tensor.of(new long[] {2, 2, -2, -2});
            assertArrayEquals(new float[] {3.5f, -3.5f, -3.5f, 3.5f}, a.div(b).toFloatArray(), "integers divide as PyTorch's /: f32");
            assertArrayEquals(new long[] {1, 0, 1, 0}, a.gt(b).toLongArray());
            assertArrayEquals(new long[] {Long.MAX_VALUE}, Tensor.of(new long[] {Long.MAX_VALUE - 1}).add(Tensor.of(new long[] {1})).toLongArray(),
                    "i64 stays exact beyond 2^53");
            assertArrayEquals(new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY,
                    Float.NEGATIVE_INFINITY}, a.div(Tensor.of(new long[] {0})).toFloatArray(), "by zero: infinities, as in f32");
        }
    }

    @Test
    void halfPrecisionRoundsToNearestEven() {
        try (var _ = reference()) {
            // 2049 lies halfway between the halves 2048 and 2050: ties to the even mantissa, 2048
            Tensor x = Tensor.of(new float[] {2049, 2051, 1e-8f, 70000});
            assertArrayEquals(new float[] {2048, 2052, 0, Float.POSITIVE_INFINITY}, x.cast(DType.F16).toFloatArray());
            Tensor h = Tensor.ofHalf(new short[] {0x3C00, (short) 0xC000}); // 1.0, -2.0
            assertArrayEquals(new float[] {2, -4}, h.mul(2).toFloatArray());
            assertEquals(DType.F16, h.mul(2).dtype());
        }
    }

    @Test
    void matmulAndSoftmax() {
        try (var _ = reference()) {
            Tensor a = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
            Tensor b = Tensor.of(new float[] {7, 8, 9, 10, 11, 12}, 3, 2);
            assertArrayEquals(new float[] {58, 64, 139, 154}, a.matmul(b).toFloatArray());
            Tensor s = Tensor.of(new float[] {1, 2, 3}).softmax(0);
            assertArrayEquals(new float[] {0.09003057f, 0.24472847f, 0.66524096f}, s.toFloatArray(), 1e-7f);
            // log(1 + e + e^2) - 3 for label 2, and - 1 for label 0: mean of 0.40760596 and 2.40760596
            Tensor logits = Tensor.of(new float[] {1, 2, 3, 1, 2, 3}, 2, 3);
            assertEquals(1.40760596, Tensor.crossEntropy(logits, Tensor.of(new long[] {2, 0})).item(), 1e-6);
            Tensor ln = Tensor.of(new float[] {1, 2, 3}).layerNorm(null, null, 0);
            assertArrayEquals(new float[] {-1.22474487f, 0, 1.22474487f}, ln.toFloatArray(), 1e-6f);
        }
    }
}

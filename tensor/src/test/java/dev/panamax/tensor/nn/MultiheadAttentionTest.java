package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Shape;
import dev.panamax.tensor.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MultiheadAttention: PyTorch's parameter names, shapes and initialization, and what its heads compute. */
class MultiheadAttentionTest extends ScopedTest {

    @Test
    void parametersCarryPytorchsNamesAndShapes() {
        var attention = new MultiheadAttention(8, 2, new SplittableRandom(1));
        var named = attention.namedParameters();
        assertEquals(List.of("in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"), List.copyOf(named.keySet()));
        assertEquals(Shape.of(24, 8), named.get("in_proj_weight").shape());
        assertEquals(Shape.of(24), named.get("in_proj_bias").shape());
        assertEquals(Shape.of(8, 8), named.get("out_proj.weight").shape());
        assertEquals(Shape.of(8), named.get("out_proj.bias").shape());
        double xavier = Math.sqrt(6.0 / (8 + 24));
        for (float w : named.get("in_proj_weight").toFloatArray()) assertTrue(Math.abs(w) <= xavier, "xavier-uniform bound " + xavier);
        for (float b : named.get("in_proj_bias").toFloatArray()) assertEquals(0, b);
        for (float b : named.get("out_proj.bias").toFloatArray()) assertEquals(0, b);
        var model = new Sequential(attention);
        assertEquals(List.of("0.in_proj_weight", "0.in_proj_bias", "0.out_proj.weight", "0.out_proj.bias"),
                List.copyOf(model.namedParameters().keySet()));
        var noBias = new MultiheadAttention(8, 2, false, new SplittableRandom(1));
        assertEquals(List.of("in_proj_weight", "out_proj.weight"), List.copyOf(noBias.namedParameters().keySet()));
        attention.close();
        noBias.close();
    }

    @Test
    void eachHeadAttendsWithItsOwnSliceOfTheProjections() {
        // 2 heads of 1 feature: with identity projections and zero biases, head h attends with feature h alone
        var attention = new MultiheadAttention(2, 2, new SplittableRandom(2));
        try (var _ = Autograd.noGrad()) {
            var p = attention.namedParameters();
            p.get("in_proj_weight").copyFrom(Tensor.of(new float[] {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}, 6, 2));
            p.get("out_proj.weight").copyFrom(Tensor.of(new float[] {1, 0, 0, 1}, 2, 2));
        }
        Tensor x = Tensor.of(new float[] {1, 2, 0, 4}, 1, 2, 2);
        double[] expected = new double[4];
        for (int h = 0; h < 2; h++) {
            double[] f = {x.toFloatArray()[h], x.toFloatArray()[2 + h]};     // feature h of positions 0 and 1
            for (int i = 0; i < 2; i++) {
                double w0 = Math.exp(f[i] * f[0]), w1 = Math.exp(f[i] * f[1]);  // scale 1 / sqrt(1)
                expected[2 * i + h] = (w0 * f[0] + w1 * f[1]) / (w0 + w1);
            }
        }
        assertArrayEquals(expected, attention.forward(x).toDoubleArray(), 1e-5);
        // causal: position 0 sees only itself
        double[] causal = attention.forward(x, x, x, null, true).toDoubleArray();
        assertArrayEquals(new double[] {1, 2}, new double[] {causal[0], causal[1]}, 1e-6);
        // PyTorch's MHA bool mask marks what may NOT be attended: hiding key 1 from query 0 equals causal here
        Tensor mask = Tensor.of(new int[] {0, 1, 0, 0}, 2, 2);
        assertArrayEquals(causal, attention.forward(x, x, x, mask, false).toDoubleArray(), 1e-6);
        attention.close();
    }

    @Test
    void selfAttentionEqualsSeparateQueryKeyAndValueAndUnbatchedInputs() {
        var attention = new MultiheadAttention(8, 4, new SplittableRandom(3));
        try (var _ = Autograd.noGrad()) {
            attention.namedParameters().get("in_proj_bias").copyFrom(Tensor.uniform(new SplittableRandom(4), -1, 1, 24));
        }
        Tensor x = Tensor.uniform(new SplittableRandom(5), -1, 1, 2, 5, 8);
        Tensor same = attention.forward(x);
        Tensor separate = attention.forward(x, x.mul(1), x.mul(1));
        assertArrayEquals(same.toFloatArray(), separate.toFloatArray(), 1e-5f);
        assertEquals(Shape.of(2, 5, 8), same.shape());
        Tensor first = attention.forward(x.select(0, 0));
        assertEquals(Shape.of(5, 8), first.shape());
        assertArrayEquals(same.select(0, 0).toFloatArray(), first.toFloatArray(), 1e-5f);
        Tensor key = Tensor.uniform(new SplittableRandom(6), -1, 1, 2, 3, 8);
        assertEquals(Shape.of(2, 5, 8), attention.forward(x, key, key).shape());
        attention.close();
    }

    @Test
    void aStateDictRoundTripsByName(@TempDir Path dir) throws Exception {
        var a = new MultiheadAttention(4, 2, new SplittableRandom(7));
        var b = new MultiheadAttention(4, 2, new SplittableRandom(8));
        Parameters.save(a, dir.resolve("mha.npz"));
        Parameters.load(b, dir.resolve("mha.npz"));
        Tensor x = Tensor.uniform(new SplittableRandom(9), -1, 1, 1, 3, 4);
        assertArrayEquals(a.forward(x).toFloatArray(), b.forward(x).toFloatArray());
        a.close();
        b.close();
    }

    @Test
    void badSizesAndMasksAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new MultiheadAttention(6, 4, new SplittableRandom(1)));
        assertEquals("MultiheadAttention(embedDim=6, heads=4): expected positive sizes, embedDim divisible by heads", e.getMessage());
        var attention = new MultiheadAttention(4, 2, new SplittableRandom(1));
        Tensor x = Tensor.zeros(2, 3, 4);
        e = assertThrows(IllegalArgumentException.class, () -> attention.forward(x, x, x, Tensor.zeros(3, 4), false));
        assertEquals("MultiheadAttention: attnMask (3, 4) f32; expected (L, S) = (3, 3) or (N * heads, L, S) = (4, 3, 3)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> attention.forward(Tensor.zeros(2, 3, 5)));
        assertTrue(e.getMessage().startsWith("MultiheadAttention: query (2, 3, 5) f32"), e.getMessage());
        attention.close();
    }
}

package dev.panamax.tensor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every bad call names the op, the operands' shapes and dtypes, and what was expected. */
class ErrorsTest extends ScopedTest {

    private static void refused(String expectedMessage, Executable call) {
        TensorException e = assertThrows(TensorException.class, call);
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void shapeMismatches() {
        Tensor a = Tensor.zeros(2, 3);
        refused("mul: shapes do not broadcast; expected equal sizes or 1 in each dimension aligned from the right [a: (2, 3) f32, b: (2,) f32]",
                () -> a.mul(Tensor.zeros(2)));
        refused("matmul: inner dimensions differ (3 and 4); expected a (..., m, k) and b (..., k, n) [a: (2, 3) f32, b: (4, 5) f32]",
                () -> a.matmul(Tensor.zeros(4, 5)));
        refused("matmul: batch dimensions do not broadcast [a: (2, 2, 3) f32, b: (3, 3, 1) f32]",
                () -> Tensor.zeros(2, 2, 3).matmul(Tensor.zeros(3, 3, 1)));
        refused("reshape: shape [4, 2] holds 8 elements; expected 6 [a: (2, 3) f32]", () -> a.reshape(4, 2));
        refused("expand: cannot broadcast to (3, 3); expected each dimension equal or 1, aligned from the right [a: (2, 3) f32]",
                () -> a.expand(3, 3));
        refused("concat: shapes differ outside axis 0; expected equal ranks and sizes [a: (2, 3) f32, b: (2, 4) f32]",
                () -> Tensor.concat(List.of(a, Tensor.zeros(2, 4)), 0));
        refused("squeeze: axis 1 has size 3; expected 1 [a: (2, 3) f32]", () -> a.squeeze(1));
        refused("layerNorm: weight and bias must have shape (3,), the last dimension [a: (2, 3) f32, b: (2,) f32, c: null]",
                () -> a.layerNorm(Tensor.ones(2), null, 1e-5));
    }

    @Test
    void axesOutOfRange() {
        Tensor a = Tensor.zeros(2, 3);
        refused("sum: axis 2 out of range; expected -2 <= axis < 2 [a: (2, 3) f32]", () -> a.sum(2, false));
        refused("argmax: axis -3 out of range; expected -2 <= axis < 2 [a: (2, 3) f32]", () -> a.argmax(-3));
        refused("transpose: axis 5 out of range; expected -2 <= axis < 2 [a: (2, 3) f32]", () -> a.transpose(0, 5));
        refused("sum: axis -1 given twice in [1, -1] [a: (2, 3) f32]", () -> a.sum(new int[] {1, -1}, false));
        refused("max: axis 0 is empty; expected at least one element [a: (0, 3) f32]", () -> Tensor.zeros(0, 3).max(0, false));
    }

    @Test
    void dtypeMismatches() {
        Tensor f = Tensor.zeros(3);
        Tensor i = Tensor.zeros(DType.I64, 3);
        assertEquals(DType.F32, f.add(i).dtype()); // promoted, as PyTorch's result_type
        refused("pow: integer operands only; expected a floating operand (pow computes in f32 or f16) [a: (3,) i64, b: (3,) i64]",
                () -> i.pow(i));
        refused("exp: expected a floating dtype (f32 or f16) [a: (3,) i64]", i::exp);
        refused("matmul: expected a floating dtype (f32 or f16) [a: (3,) i64, b: (3,) i64]", () -> i.matmul(i));
        refused("requiresGrad: only floating tensors can require gradients [a: (3,) i64]", () -> i.requiresGrad(true));
        refused("crossEntropy: expected floating logits (n, classes) and integer labels (n,) [a: (3, 2) f32, b: (3,) f32]",
                () -> Tensor.crossEntropy(Tensor.zeros(3, 2), Tensor.zeros(3)));
    }

    @Test
    void indicesOutOfBounds() {
        Tensor table = Tensor.zeros(4, 2);
        refused("indexSelect: index 4 at position 1 out of bounds; expected 0 <= index < 4 [a: (4, 2) f32, b: (2,) i64]",
                () -> table.indexSelect(0, Tensor.of(new long[] {0, 4})));
        refused("crossEntropy: index -1 at position 2 out of bounds; expected 0 <= index < 2 [a: (3, 2) f32, b: (3,) i64]",
                () -> Tensor.crossEntropy(Tensor.zeros(3, 2), Tensor.of(new long[] {0, 1, -1})));
        refused("select: index 3 out of bounds for axis 1 of size 2 [a: (4, 2) f32]", () -> table.select(1, 3));
        refused("indexSelect: expected a 1-D index of i32 or i64 [a: (4, 2) f32, b: (2,) f32]", () -> table.indexSelect(0, Tensor.zeros(2)));
    }

    @Test
    void misuse() {
        Tensor w = Tensor.zeros(3).requiresGrad(true);
        refused("addInPlace: in-place update of a tensor that requires gradients; expected it inside Autograd.noGrad() [a: (3,) f32]",
                () -> w.addInPlace(Tensor.ones(3)));
        refused("backward: the tensor does not require gradients (no input requires them, or it was computed under Autograd.noGrad()) [a: (3,) f32]",
                () -> Tensor.zeros(3).backward());
        refused("backward: expected a one-element tensor (a loss), or pass the gradient explicitly [a: (3,) f32]", () -> w.mul(2).backward());
        refused("fill: in-place update of a broadcast view (several elements share memory) [a: (4, 3) f32]",
                () -> Tensor.zeros(3).expand(4, 3).fill(1));
        Tensor gone = Tensor.zeros(2);
        gone.close();
        refused("neg: an operand's storage was already freed (closed, or its TensorScope ended) [a: (2,) f32]", gone::neg);
        refused("item: expected exactly one element [a: (3,) f32]", () -> Tensor.zeros(3).item());
        refused("of: an array of 3 elements for shape (2, 2); expected 4 elements", () -> Tensor.of(new float[3], 2, 2));
        w.close();
    }

    @Test
    void savedTensorsChangedInPlaceBeforeBackward() {
        Tensor w = Tensor.of(new float[] {1, 2}).requiresGrad(true);
        Tensor x = Tensor.of(new float[] {3, 4});
        Tensor loss = w.mul(x).sum();
        try (var _ = Autograd.noGrad()) {
            x.mulInPlace(10);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, loss::backward);
        assertEquals("backward of 'mul': a tensor it saved, (2,) f32, was modified in place after 'mul' used it (version 0, now 1); "
                + "update it after backward, or update a copy", e.getMessage());
        Tensor fine = w.add(x).sum();
        x.addInPlace(1); // add reads no values in backward: updating x is harmless
        fine.backward();
        assertArrayEquals(new float[] {1, 1}, w.grad().toFloatArray());
        w.close();
    }

    @Test
    void secondBackwardThroughReleasedGraph() {
        Tensor w = Tensor.ones(2).requiresGrad(true);
        Tensor loss = w.mul(w).sum();
        loss.backward();
        IllegalStateException e = assertThrows(IllegalStateException.class, loss::backward);
        assertTrue(e.getMessage().startsWith("backward through the graph a second time: the saved tensors of 'sum' were released"),
                e.getMessage());
        w.close();
    }
}

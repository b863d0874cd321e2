package dev.panamax.tensor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TensorBasicsTest extends ScopedTest {

    @Test
    void addBroadcastsByNumpyRules() {
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        Tensor b = Tensor.of(new float[] {10, 20, 30});
        assertArrayEquals(new float[] {11, 22, 33, 14, 25, 36}, a.add(b).toFloatArray());
        Tensor column = Tensor.of(new float[] {100, 200}, 2, 1);
        assertArrayEquals(new float[] {101, 102, 103, 204, 205, 206}, a.add(column).toFloatArray());
        assertEquals(Shape.of(2, 3), a.add(column).shape());
    }

    @Test
    void badShapesNameTheOpShapesAndDtypes() {
        Tensor a = Tensor.zeros(2, 3);
        Tensor b = Tensor.zeros(4);
        TensorException e = assertThrows(TensorException.class, () -> a.add(b));
        assertTrue(e.getMessage().startsWith("add: shapes do not broadcast"), e.getMessage());
        assertTrue(e.getMessage().contains("a: (2, 3) f32, b: (4,) f32"), e.getMessage());
        TensorException m = assertThrows(TensorException.class, () -> a.matmul(Tensor.zeros(2, 3)));
        assertTrue(m.getMessage().contains("matmul: inner dimensions differ (3 and 2)"), m.getMessage());
        assertEquals(DType.F32, a.add(Tensor.zeros(DType.I64, 3)).dtype(), "mixed dtypes promote as PyTorch's result_type");
    }

    @Test
    void matmulAndBackwardGiveKnownGradients() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        Tensor w = Tensor.of(new float[] {1, -1, 2, 0.5f}, 2, 2).requiresGrad(true);
        Tensor loss = x.matmul(w).sum();
        loss.backward();
        // d sum(x w) / d w[k, j] = sum_i x[i, k]
        assertArrayEquals(new float[] {4, 4, 6, 6}, w.grad().toFloatArray());
        w.close();
    }

    @Test
    void viewsShareStorage() {
        Tensor a = Tensor.arange(DType.F32, 0, 6, 1).reshape(2, 3);
        Tensor t = a.t();
        assertEquals(a.storage(), t.storage());
        assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, t.toFloatArray());
        assertArrayEquals(new float[] {0, 3, 1, 4, 2, 5}, t.reshape(6).toFloatArray());
        assertArrayEquals(new float[] {1, 4}, a.slice(1, 1, 2).toFloatArray());
    }
}

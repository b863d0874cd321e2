package dev.panamax.tensor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Movement ops are strides over the same memory, copying only where NumPy would. */
class ViewsTest extends ScopedTest {

    private static Tensor grid() {
        return Tensor.arange(DType.F32, 0, 24, 1).reshape(2, 3, 4);
    }

    @Test
    void stridesOfViews() {
        Tensor g = grid();
        assertArrayEquals(new long[] {12, 4, 1}, g.strides());
        Tensor p = g.permute(2, 0, 1);
        assertArrayEquals(new long[] {1, 12, 4}, p.strides());
        assertEquals(Shape.of(4, 2, 3), p.shape());
        Tensor s = g.slice(2, 1, 4, 2);
        assertArrayEquals(new long[] {12, 4, 2}, s.strides());
        assertEquals(1, s.offset());
        assertArrayEquals(new float[] {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}, s.toFloatArray());
        Tensor e = Tensor.arange(DType.F32, 0, 3, 1).reshape(3, 1).expand(2, 3, 4);
        assertArrayEquals(new long[] {0, 1, 0}, e.strides());
        assertArrayEquals(new float[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, e.toFloatArray());
        assertArrayEquals(new float[] {4, 5, 6, 7}, g.select(0, 0).select(0, 1).toFloatArray());
        assertArrayEquals(new float[] {16, 17, 18, 19}, g.select(0, -1).select(0, -2).toFloatArray());
    }

    @Test
    void reshapeViewsWhenStridesAllowAndCopiesOtherwise() {
        Tensor g = grid();
        assertSame(g.storage(), g.reshape(6, 4).storage());
        Tensor p = g.permute(1, 0, 2);                     // (3, 2, 4): last dim still dense
        Tensor merged = p.reshape(3, 8);                    // (2, 4) do not merge: strides 12 and 1
        assertNotSame(g.storage(), merged.storage());
        Tensor split = p.reshape(3, 2, 2, 2);                // splitting the dense last dim is a view
        assertSame(g.storage(), split.storage());
        assertArrayEquals(p.toFloatArray(), split.toFloatArray());
        assertArrayEquals(p.toFloatArray(), merged.toFloatArray());
        Tensor t = g.transpose(0, 2);                         // (4, 3, 2)
        assertArrayEquals(t.contiguous().toFloatArray(), t.reshape(-1).toFloatArray());
        Tensor unit = g.unsqueeze(1).unsqueeze(-1);            // (2, 1, 3, 4, 1)
        assertSame(g.storage(), unit.permute(1, 0, 2, 4, 3).reshape(2, 12).storage());
    }

    @Test
    void numpyBroadcastingShapes() {
        assertEquals(Shape.of(8, 7, 6, 5), Shape.broadcast(Shape.of(8, 1, 6, 1), Shape.of(7, 1, 5)));
        assertEquals(Shape.of(5, 4), Shape.broadcast(Shape.of(5, 4), Shape.of(1)));
        assertEquals(Shape.of(15, 3, 5), Shape.broadcast(Shape.of(15, 3, 5), Shape.of(15, 1, 5)));
        assertEquals(null, Shape.broadcast(Shape.of(3), Shape.of(4)));
        assertEquals(null, Shape.broadcast(Shape.of(2, 1), Shape.of(8, 4, 3)));
        assertEquals("(2, 3)", Shape.of(2, 3).toString());
        assertEquals("(5,)", Shape.of(5).toString());
        assertEquals("()", Shape.scalar().toString());
    }

    @Test
    void creation() {
        assertArrayEquals(new long[] {0, 1, 2, 3}, Tensor.arange(4).toLongArray());
        assertArrayEquals(new float[] {1, 0.5f, 0, -0.5f}, Tensor.arange(DType.F32, 1, -1, -0.5).toFloatArray());
        assertArrayEquals(new float[] {7, 7}, Tensor.full(7, 2).toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3, 4}, Tensor.of(new float[][] {{1, 2}, {3, 4}}).toFloatArray());
        Tensor u1 = Tensor.uniform(new java.util.SplittableRandom(5), 2, 3, 1000);
        Tensor u2 = Tensor.uniform(new java.util.SplittableRandom(5), 2, 3, 1000);
        assertArrayEquals(u1.toFloatArray(), u2.toFloatArray(), "seeded");
        assertEquals(2.5, u1.mean().item(), 0.05);
        assertEquals(1.0, Tensor.normal(new java.util.SplittableRandom(6), 0, 1, 4000).pow(2).mean().item(), 0.1);
        assertEquals("Tensor((2, 2) f32 on " + Backends.current().name() + ", [[1.0, 2.0], [3.0, 4.0]])",
                Tensor.of(new float[] {1, 2, 3, 4}, 2, 2).toString());
    }

    @Test
    void concatStackIndexSelect() {
        Tensor a = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        Tensor b = Tensor.of(new float[] {5, 6}, 1, 2);
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, Tensor.concat(List.of(a, b), 0).toFloatArray());
        assertArrayEquals(new float[] {1, 2, 1, 3, 4, 3}, Tensor.concat(List.of(a, a.slice(1, 0, 1)), 1).toFloatArray());
        assertEquals(Shape.of(2, 2, 2), Tensor.stack(List.of(a, a), 1).shape());
        assertArrayEquals(new float[] {1, 2, 1, 2, 3, 4, 3, 4}, Tensor.stack(List.of(a, a), 1).toFloatArray());
        assertArrayEquals(new float[] {3, 4, 1, 2, 3, 4}, a.indexSelect(0, Tensor.of(new int[] {1, 0, 1})).toFloatArray());
        assertArrayEquals(new float[] {2, 4}, a.indexSelect(1, Tensor.of(new long[] {1})).toFloatArray());
    }

    @Test
    void castsRoundAndTruncate() {
        Tensor f = Tensor.of(new float[] {-2.7f, -0.5f, 0.5f, 2.7f, 65520f});
        assertArrayEquals(new int[] {-2, 0, 0, 2, 65520}, f.cast(DType.I32).toIntArray());
        assertArrayEquals(new float[] {-2.69921875f, -0.5f, 0.5f, 2.69921875f, Float.POSITIVE_INFINITY}, f.cast(DType.F16).toFloatArray());
        assertArrayEquals(new long[] {1, -3}, Tensor.of(new int[] {1, -3}).cast(DType.I64).toLongArray());
    }
}

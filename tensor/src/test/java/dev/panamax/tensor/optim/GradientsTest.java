package dev.panamax.tensor.optim;

import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.nn.Parameters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Clipping by the global norm, as PyTorch's {@code clip_grad_norm_}, against norms worked by hand. */
class GradientsTest extends ScopedTest {

    @Test
    void gradientsOverTheLimitScaleToIt() {
        Tensor a = Parameters.full(0, 2), b = Parameters.full(0, 1), unused = Parameters.full(0, 4);
        a.mul(Tensor.of(new float[] {3, 0})).sum().add(b.mul(Tensor.of(new float[] {4})).sum()).backward();
        // gradients [3, 0] and [4]: the norm is sqrt(9 + 16) = 5
        Tensor norm = Gradients.clipByGlobalNorm(List.of(a, b, unused), 1.0);
        assertEquals(0, norm.rank());
        assertEquals(5, norm.item(), 1e-6);
        double factor = 1.0 / (5 + 1e-6);
        assertArrayEquals(new float[] {(float) (3 * factor), 0}, a.grad().toFloatArray(), 1e-7f);
        assertArrayEquals(new float[] {(float) (4 * factor)}, b.grad().toFloatArray(), 1e-7f);
        assertEquals(null, unused.grad());
        // now of norm 1 (less 1e-6): within the limit of 2, unchanged
        assertEquals(1, Gradients.clipByGlobalNorm(List.of(a, b), 2.0).item(), 1e-5);
        assertArrayEquals(new float[] {(float) (4 * factor)}, b.grad().toFloatArray(), 1e-7f);
        for (Tensor p : List.of(a, b, unused)) p.close();
    }

    @Test
    void noGradientsGiveANormOfZeroAndBadLimitsAreRefused() {
        Tensor a = Parameters.full(1, 2);
        assertEquals(0, Gradients.clipByGlobalNorm(List.of(a), 1).item());
        var e = assertThrows(IllegalArgumentException.class, () -> Gradients.clipByGlobalNorm(List.of(a), 0));
        assertEquals("clipByGlobalNorm: maxNorm=0.0; expected maxNorm > 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Gradients.clipByGlobalNorm(List.of(a), Double.NaN));
        assertEquals("clipByGlobalNorm: maxNorm=NaN; expected maxNorm > 0", e.getMessage());
        a.close();
    }
}

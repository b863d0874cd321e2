package dev.panamax.tensor.optim;

import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.nn.Parameters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** An optimizer steps each parameter once: a parameter given twice is refused, naming both positions. */
class DuplicateParametersTest extends ScopedTest {

    @Test
    void theSameTensorTwiceIsRefused() {
        Tensor w = Parameters.full(1, 2, 3);
        Tensor b = Parameters.full(0, 3);
        for (var make : List.<java.util.function.Function<List<Tensor>, Optimizer>>of(p -> new SGD(p, 0.1), p -> new Adam(p, 0.1),
                p -> Adam.w(p, 0.1, 0.01))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> make.apply(List.of(w, b, w)));
            assertEquals("optimizer parameter index=2 (2, 3) f32 is the same tensor as parameter index=0; expected each parameter "
                    + "once (it would be updated twice per step)", e.getMessage());
        }
        w.close();
        b.close();
    }

    @Test
    void twoLeavesOverOneStorageAreRefused() {
        Tensor w = Parameters.full(1, 4);
        Tensor alias = w.detach().requiresGrad(true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SGD(List.of(w, alias), 0.1));
        assertEquals("optimizer parameter index=1 (4,) f32 shares its storage with parameter index=0; expected each parameter once "
                + "(it would be updated twice per step)", e.getMessage());
        w.close();
    }

    @Test
    void eachParameterIsSteppedOnce() {
        Tensor w = Parameters.full(1, 2);
        var sgd = new SGD(List.of(w), 0.5);
        w.mul(w).sum().backward(); // gradient 2w = 2
        sgd.step();
        assertArrayEquals(new float[] {0, 0}, w.toFloatArray());
        sgd.zeroGrad();
        sgd.close();
        w.close();
    }
}

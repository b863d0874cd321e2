package dev.panamax.tensor.optim;

import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.nn.Parameters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Parameter groups, as PyTorch's {@code param_groups}: each applies its own lr and weight decay. */
class ParamGroupTest extends ScopedTest {

    @Test
    void eachGroupStepsWithItsOwnLrAndWeightDecay() {
        Tensor a = Parameters.full(1, 2), b = Parameters.full(1, 2);
        var sgd = SGD.withGroups(List.of(ParamGroup.of(List.of(a), 0.5), ParamGroup.of(List.of(b), 0.1, 1.0)), 0.2, 0, 0);
        a.mul(b).sum().backward();              // d/da = b = 1, d/db = a = 1
        sgd.step();
        assertArrayEquals(new float[] {0.5f, 0.5f}, a.toFloatArray(), 1e-7f);   // 1 - 0.5 * 1
        assertArrayEquals(new float[] {0.8f, 0.8f}, b.toFloatArray(), 1e-7f);   // 1 - 0.1 * (1 + 1.0 * 1)
        sgd.zeroGrad();
        sgd.close();
        a.close();
        b.close();
    }

    @Test
    void groupsTakeTheOptimizersDefaultsAndLrIsSettable() {
        Tensor a = Parameters.full(1, 3), b = Parameters.full(1, 3);
        var adam = Adam.withGroups(List.of(ParamGroup.of(List.of(a)), ParamGroup.of(List.of(b), 0.01)), 0.1, 0.9, 0.999, 1e-8, 0.05, true);
        assertEquals(0.1, adam.paramGroups().get(0).lr());
        assertEquals(0.05, adam.paramGroups().get(0).weightDecay());
        assertEquals(0.01, adam.paramGroups().get(1).lr());
        assertEquals(0.05, adam.paramGroups().get(1).weightDecay());
        adam.paramGroups().get(1).setWeightDecay(0);
        a.sum().add(b.sum()).backward();
        adam.step();
        // Adam's first step moves each parameter by lr (its normalized gradient is 1), AdamW first decays by lr * wd
        assertArrayEquals(new float[] {0.895f, 0.895f, 0.895f}, a.toFloatArray(), 1e-6f);   // 1 * (1 - 0.1 * 0.05) - 0.1
        assertArrayEquals(new float[] {0.99f, 0.99f, 0.99f}, b.toFloatArray(), 1e-6f);
        adam.setLr(0);
        adam.step();
        assertArrayEquals(new float[] {0.895f, 0.895f, 0.895f}, a.toFloatArray(), 1e-6f);
        adam.zeroGrad();
        adam.close();
        a.close();
        b.close();
    }

    @Test
    void aParameterInTwoGroupsOrAGroupGivenTwiceIsRefused() {
        Tensor a = Parameters.full(1, 2), b = Parameters.full(1, 3);
        var e = assertThrows(IllegalArgumentException.class,
                () -> SGD.withGroups(List.of(ParamGroup.of(List.of(a, b)), ParamGroup.of(List.of(b))), 0.1, 0, 0));
        assertEquals("optimizer parameter index=2 (group 1) (3,) f32 is the same tensor as parameter index=1 (group 0); expected each "
                + "parameter once (it would be updated twice per step)", e.getMessage());
        var group = ParamGroup.of(List.of(a));
        e = assertThrows(IllegalArgumentException.class, () -> SGD.withGroups(List.of(group, group), 0.1, 0, 0));
        assertEquals("optimizer parameter index=1 (group 1) (2,) f32 is the same tensor as parameter index=0 (group 0); expected each "
                + "parameter once (it would be updated twice per step)", e.getMessage());
        var sgd = SGD.withGroups(List.of(group), 0.1, 0, 0);
        e = assertThrows(IllegalArgumentException.class, () -> new SGD(List.of(b), 0.1).paramGroups().get(0).setLr(-1));
        assertEquals("setLr: lr=-1.0; expected a finite lr >= 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SGD.withGroups(List.of(group), 0.1, 0, 0));
        assertEquals("param group index=0 already belongs to an optimizer; expected a group per optimizer", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SGD.withGroups(List.of(), 0.1, 0, 0));
        assertEquals("optimizer: no param groups; expected at least one", e.getMessage());
        sgd.close();
        a.close();
        b.close();
    }
}

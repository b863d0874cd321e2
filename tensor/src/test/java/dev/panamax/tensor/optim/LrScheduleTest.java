package dev.panamax.tensor.optim;

import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.nn.Parameters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Schedules' learning rates at given steps against their closed forms, and applied to each group of an optimizer. */
class LrScheduleTest extends ScopedTest {

    @Test
    void warmupThenCosineFollowsItsClosedForm() {
        var schedule = new LrSchedule.WarmupCosine(10, 110, 0.1);
        assertEquals(0, schedule.lr(1.0, 0));
        assertEquals(0.5, schedule.lr(1.0, 5), 1e-12);
        assertEquals(0.9, schedule.lr(1.0, 9), 1e-12);
        assertEquals(1.0, schedule.lr(1.0, 10), 1e-12);                                   // the peak: cos 0
        assertEquals(0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * 0.25)), schedule.lr(1.0, 35), 1e-12);
        assertEquals(0.55, schedule.lr(1.0, 60), 1e-12);                                  // halfway: cos(pi/2) = 0
        assertEquals(0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * 0.99)), schedule.lr(1.0, 109), 1e-12);
        assertEquals(0.1, schedule.lr(1.0, 110), 1e-12);
        assertEquals(0.1, schedule.lr(1.0, 1_000_000), 1e-12);
        assertEquals(2e-3 * 0.5 * (1 + Math.cos(Math.PI * 0.5)), new LrSchedule.WarmupCosine(0, 4, 0).lr(2e-3, 2), 1e-15);
    }

    @Test
    void stepDecayFollowsPytorchsStepLr() {
        var schedule = new LrSchedule.StepDecay(30, 0.1);
        assertEquals(0.05, schedule.lr(0.05, 0), 1e-15);
        assertEquals(0.05, schedule.lr(0.05, 29), 1e-15);
        assertEquals(0.005, schedule.lr(0.05, 30), 1e-15);
        assertEquals(0.0005, schedule.lr(0.05, 89), 1e-15);
        assertEquals(0.00005, schedule.lr(0.05, 90), 1e-15);
    }

    @Test
    void applyingAScheduleSetsEveryGroupFromItsInitialLr() {
        Tensor a = Parameters.full(1, 2), b = Parameters.full(1, 3);
        var sgd = SGD.withGroups(List.of(ParamGroup.of(List.of(a), 0.5), ParamGroup.of(List.of(b))), 0.1, 0, 0);
        var schedule = new LrSchedule.StepDecay(2, 0.5);
        schedule.apply(sgd, 4);
        assertEquals(0.125, sgd.paramGroups().get(0).lr(), 1e-15);
        assertEquals(0.025, sgd.paramGroups().get(1).lr(), 1e-15);
        assertEquals(0.5, sgd.paramGroups().get(0).initialLr());
        schedule.apply(sgd, 0);
        assertEquals(0.5, sgd.paramGroups().get(0).lr(), 1e-15);
        new LrSchedule.WarmupCosine(3, 5, 0).apply(sgd, 0);
        assertEquals(0, sgd.paramGroups().get(1).lr());  // lr 0 is a valid setting: the step changes nothing
        b.mul(b).sum().backward();
        sgd.step();
        assertEquals(List.of(1f, 1f, 1f), boxed(b.toFloatArray()));
        sgd.zeroGrad();
        sgd.close();
        a.close();
        b.close();
    }

    @Test
    void badSettingsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new LrSchedule.WarmupCosine(10, 10, 0));
        assertEquals("WarmupCosine(warmupSteps=10, totalSteps=10, minLr=0.0): expected 0 <= warmupSteps < totalSteps and a finite minLr >= 0",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LrSchedule.StepDecay(0, 0.1));
        assertEquals("StepDecay(stepSize=0, gamma=0.1): expected stepSize > 0 and a finite gamma > 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LrSchedule.StepDecay(5, 0.1).lr(1, -1));
        assertEquals("StepDecay[stepSize=5, gamma=0.1]: step=-1; expected step >= 0", e.getMessage());
    }

    private static List<Float> boxed(float[] values) {
        Float[] out = new Float[values.length];
        for (int i = 0; i < values.length; i++) out[i] = values[i];
        return List.of(out);
    }
}

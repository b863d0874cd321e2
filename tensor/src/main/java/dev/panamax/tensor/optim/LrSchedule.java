package dev.panamax.tensor.optim;

/**
 * A learning rate as a function of the step, applied per step to every group of an optimizer from
 * that group's {@link ParamGroup#initialLr() initial lr} (PyTorch's {@code base_lrs}).
 *
 * <pre>{@code
 * var schedule = new LrSchedule.WarmupCosine(100, 5000, 1e-5);
 * for (long step = 0; step < 5000; step++) {
 *     schedule.apply(adam, step);       // before the step's update
 *     ...backward...
 *     adam.step();
 * }
 * }</pre>
 */
public sealed interface LrSchedule permits LrSchedule.WarmupCosine, LrSchedule.StepDecay {

    /** The learning rate at {@code step} (counted from 0) for a group that started at {@code initialLr}. */
    double lr(double initialLr, long step);

    /** Sets every group of {@code optimizer} to its learning rate at {@code step}. */
    default void apply(Optimizer optimizer, long step) {
        if (step < 0) throw new IllegalArgumentException(this + ": step=" + step + "; expected step >= 0");
        for (ParamGroup group : optimizer.paramGroups()) group.setLr(lr(group.initialLr(), step));
    }

    /**
     * Linear warmup from 0, then a half cosine down to {@code minLr} (Hugging Face's
     * {@code get_cosine_schedule_with_warmup}, with PyTorch's {@code eta_min}):
     * {@code initialLr * step / warmupSteps} while {@code step < warmupSteps}, then
     * {@code minLr + (initialLr - minLr) * (1 + cos(pi * p)) / 2} with
     * {@code p = (step - warmupSteps) / (totalSteps - warmupSteps)}, and {@code minLr} from
     * {@code totalSteps} on.
     */
    record WarmupCosine(long warmupSteps, long totalSteps, double minLr) implements LrSchedule {
        public WarmupCosine {
            if (warmupSteps < 0 || totalSteps <= warmupSteps || !(minLr >= 0) || Double.isInfinite(minLr)) {
                throw new IllegalArgumentException("WarmupCosine(warmupSteps=" + warmupSteps + ", totalSteps=" + totalSteps + ", minLr="
                        + minLr + "): expected 0 <= warmupSteps < totalSteps and a finite minLr >= 0");
            }
        }

        @Override
        public double lr(double initialLr, long step) {
            if (step < 0) throw new IllegalArgumentException(this + ": step=" + step + "; expected step >= 0");
            if (step < warmupSteps) return initialLr * step / warmupSteps;
            if (step >= totalSteps) return minLr;
            double progress = (double) (step - warmupSteps) / (totalSteps - warmupSteps);
            return minLr + (initialLr - minLr) * 0.5 * (1 + Math.cos(Math.PI * progress));
        }
    }

    /** PyTorch's {@code StepLR}: {@code initialLr * gamma^floor(step / stepSize)}. */
    record StepDecay(long stepSize, double gamma) implements LrSchedule {
        public StepDecay {
            if (stepSize <= 0 || !(gamma > 0) || Double.isInfinite(gamma)) {
                throw new IllegalArgumentException("StepDecay(stepSize=" + stepSize + ", gamma=" + gamma
                        + "): expected stepSize > 0 and a finite gamma > 0");
            }
        }

        @Override
        public double lr(double initialLr, long step) {
            if (step < 0) throw new IllegalArgumentException(this + ": step=" + step + "; expected step >= 0");
            return initialLr * Math.pow(gamma, step / stepSize);
        }
    }
}

package dev.panamax.tensor.nn;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;

import java.util.random.RandomGenerator;

/**
 * While training, zeroes each element with probability {@code p} and scales the rest by
 * {@code 1/(1-p)}; the identity in evaluation mode.
 */
public final class Dropout implements Module {
    private final double p;
    private final RandomGenerator rng;
    private boolean training = true;

    public Dropout(double p, RandomGenerator rng) {
        if (!(p >= 0 && p < 1)) throw new IllegalArgumentException("Dropout(" + p + "): expected 0 <= p < 1");
        this.p = p;
        this.rng = rng;
    }

    @Override
    public Tensor forward(Tensor input) {
        if (!training || p == 0) return input;
        Tensor keep;
        try (var _ = Backends.using(input.backend())) {
            keep = Tensor.uniform(rng, 0, 1, input.dims()).gt(p).mul(1 / (1 - p));
        }
        return input.mul(keep.cast(input.dtype()));
    }

    @Override
    public void setTraining(boolean training) {
        this.training = training;
    }
}

package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * {@code y = x W^T + b}, with PyTorch's layout ({@code weight (out, in)}, {@code bias (out)}) and
 * initialization (uniform in {@code ±1/sqrt(in)}).
 *
 * <pre>{@code
 * var layer = new Linear(784, 10, new SplittableRandom(0));
 * Tensor y = layer.forward(x);      // x (batch, 784) -> y (batch, 10)
 * }</pre>
 */
public final class Linear implements Module {
    private final Tensor weight;
    private final Tensor bias;

    public Linear(int in, int out, RandomGenerator rng) {
        this(in, out, true, rng);
    }

    public Linear(int in, int out, boolean withBias, RandomGenerator rng) {
        if (in <= 0 || out <= 0) throw new IllegalArgumentException("Linear(" + in + ", " + out + "): expected positive sizes");
        double bound = 1 / Math.sqrt(in);
        this.weight = Parameters.uniform(rng, bound, out, in);
        this.bias = withBias ? Parameters.uniform(rng, bound, out) : null;
    }

    @Override
    public Tensor forward(Tensor input) {
        return Tensor.linear(input, weight, bias);
    }

    public Tensor weight() {
        return weight;
    }

    /** The bias, or null. */
    public Tensor bias() {
        return bias;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("weight", weight);
        if (bias != null) m.put("bias", bias);
        return m;
    }
}

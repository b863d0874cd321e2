package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A 2-D convolution with PyTorch's layout ({@code weight (out, in / groups, k, k)}, {@code bias (out)})
 * and initialization (uniform in {@code ±1/sqrt(in / groups * k * k)}).
 *
 * <pre>{@code
 * var conv = new Conv2d(3, 16, 3, 1, 1, rng);   // 3 -> 16 channels, 3x3, stride 1, padding 1
 * Tensor y = conv.forward(x);                   // x (8, 3, 32, 32) -> y (8, 16, 32, 32)
 * }</pre>
 */
public final class Conv2d implements Module {
    private final Tensor weight;
    private final Tensor bias;
    private final int stride;
    private final int padding;
    private final int dilation;
    private final int groups;

    /** Stride 1, no padding, dilation 1, one group, with bias. */
    public Conv2d(int in, int out, int kernel, RandomGenerator rng) {
        this(in, out, kernel, 1, 0, 1, 1, true, rng);
    }

    public Conv2d(int in, int out, int kernel, int stride, int padding, RandomGenerator rng) {
        this(in, out, kernel, stride, padding, 1, 1, true, rng);
    }

    public Conv2d(int in, int out, int kernel, int stride, int padding, int dilation, int groups, boolean withBias,
                  RandomGenerator rng) {
        if (in <= 0 || out <= 0 || kernel <= 0 || stride <= 0 || padding < 0 || dilation <= 0 || groups <= 0
                || in % groups != 0 || out % groups != 0) {
            throw new IllegalArgumentException("Conv2d(in=" + in + ", out=" + out + ", kernel=" + kernel + ", stride=" + stride
                    + ", padding=" + padding + ", dilation=" + dilation + ", groups=" + groups
                    + "): expected positive sizes, padding >= 0, and groups dividing in and out");
        }
        double bound = 1 / Math.sqrt((double) in / groups * kernel * kernel);
        this.weight = Parameters.uniform(rng, bound, out, in / groups, kernel, kernel);
        this.bias = withBias ? Parameters.uniform(rng, bound, out) : null;
        this.stride = stride;
        this.padding = padding;
        this.dilation = dilation;
        this.groups = groups;
    }

    @Override
    public Tensor forward(Tensor input) {
        return Tensor.conv2d(input, weight, bias, stride, padding, dilation, groups);
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

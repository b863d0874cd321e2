package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;

/** Layer normalization over the last dimension with a learned scale (ones) and shift (zeros). */
public final class LayerNorm implements Module {
    private final Tensor weight;
    private final Tensor bias;
    private final double eps;

    public LayerNorm(int features) {
        this(features, 1e-5);
    }

    public LayerNorm(int features, double eps) {
        this.weight = Parameters.full(1, features);
        this.bias = Parameters.full(0, features);
        this.eps = eps;
    }

    @Override
    public Tensor forward(Tensor input) {
        return input.layerNorm(weight, bias, eps);
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("weight", weight);
        m.put("bias", bias);
        return m;
    }
}

package dev.panamax.tensor.optim;

import dev.panamax.tensor.Tensor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an optimizer carries from one step to the next, named as in PyTorch's
 * {@code optimizer.state_dict()}: tensors per parameter under {@code state.<index>.<name>}, the
 * index being the parameter's position in the optimizer's list ({@code state.0.exp_avg},
 * {@code state.0.exp_avg_sq} for Adam, {@code state.0.momentum_buffer} for SGD), and scalar
 * values as strings ({@code step}, and the hyperparameters under {@code param_groups.0.<name>},
 * recorded for reference). {@code kind} is the optimizer's class name; the tensors are the
 * optimizer's own, not copies.
 */
public record OptimizerState(String kind, Map<String, Tensor> tensors, Map<String, String> values) {
    public OptimizerState {
        tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The name of a parameter's state tensor: {@code state.<index>.<name>}. */
    public static String tensorName(int parameter, String name) {
        return "state." + parameter + "." + name;
    }
}

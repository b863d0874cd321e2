package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.List;
import java.util.Map;

/**
 * A layer or a model: a function of one tensor with named parameters.
 *
 * <pre>{@code
 * Module model = new Sequential(new Linear(2, 64, rng), new ReLU(), new Linear(64, 3, rng));
 * Tensor logits = model.forward(x);
 * model.namedParameters().keySet();    // [0.weight, 0.bias, 2.weight, 2.bias]
 * }</pre>
 */
public interface Module {
    Tensor forward(Tensor input);

    /** Parameters by dotted name, in a stable order; empty for layers without any. */
    default Map<String, Tensor> namedParameters() {
        return Map.of();
    }

    /**
     * Buffers by dotted name: state that is saved with the model and moves with it but is not
     * trained (a batch norm's running statistics); empty for layers without any.
     */
    default Map<String, Tensor> namedBuffers() {
        return Map.of();
    }

    /** Parameters then buffers by name: what {@link Parameters#save} writes, as PyTorch's {@code state_dict}. */
    default Map<String, Tensor> stateDict() {
        Map<String, Tensor> m = new java.util.LinkedHashMap<>(namedParameters());
        m.putAll(namedBuffers());
        return m;
    }

    /** The parameters, in {@link #namedParameters()} order. */
    default List<Tensor> parameters() {
        return List.copyOf(namedParameters().values());
    }

    /** Training (dropout active) or evaluation mode; layers without a difference ignore it. */
    default void setTraining(boolean training) {}

    /**
     * Moves every parameter to {@code backend} in place ({@link Tensor#relocate}) and returns this
     * module; make the optimizer afterwards.
     *
     * <pre>{@code
     * model.to(Backends.get("opencl"));
     * var opt = new Adam(model.parameters(), 1e-3);
     * }</pre>
     */
    default Module to(dev.panamax.tensor.spi.Backend backend) {
        for (Tensor p : parameters()) p.relocate(backend);
        for (Tensor b : namedBuffers().values()) b.relocate(backend);
        return this;
    }

    /** {@link #to(dev.panamax.tensor.spi.Backend)} for the backend called {@code backend}. */
    default Module to(String backend) {
        return to(dev.panamax.tensor.Backends.get(backend));
    }

    /** Frees every parameter's storage and gradient, and every buffer's storage. */
    default void close() {
        for (Tensor p : parameters()) p.close();
        for (Tensor b : namedBuffers().values()) b.close();
    }
}

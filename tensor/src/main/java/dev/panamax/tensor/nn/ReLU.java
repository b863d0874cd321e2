package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/** {@link Tensor#relu()} as a layer. */
public final class ReLU extends Activation {
    public ReLU() {
        super(Tensor::relu);
    }
}

package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/** {@link Tensor#tanh()} as a layer. */
public final class Tanh extends Activation {
    public Tanh() {
        super(Tensor::tanh);
    }
}

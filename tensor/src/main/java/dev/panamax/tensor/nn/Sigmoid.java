package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/** {@link Tensor#sigmoid()} as a layer. */
public final class Sigmoid extends Activation {
    public Sigmoid() {
        super(Tensor::sigmoid);
    }
}

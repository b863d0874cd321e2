package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/** {@link Tensor#gelu()} as a layer. */
public final class GELU extends Activation {
    public GELU() {
        super(Tensor::gelu);
    }
}

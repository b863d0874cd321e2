package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/** {@link Tensor#silu()} ({@code x * sigmoid(x)}) as a layer, PyTorch's {@code nn.SiLU}. */
public final class SiLU extends Activation {
    public SiLU() {
        super(Tensor::silu);
    }
}

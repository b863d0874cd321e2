package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/**
 * {@link Tensor#gelu(String)} as a layer. {@code new GELU()} is the tanh approximation
 * ({@link Tensor#gelu()}); {@code new GELU("none")} is the exact form, the default of PyTorch's
 * {@code nn.GELU()}.
 */
public final class GELU extends Activation {
    /** The tanh approximation, PyTorch's {@code nn.GELU(approximate='tanh')}. */
    public GELU() {
        super(Tensor::gelu);
    }

    /** {@code "none"} (exact, erf) or {@code "tanh"}, as PyTorch's {@code nn.GELU(approximate=...)}. */
    public GELU(String approximate) {
        super(x -> x.gelu(approximate));
        if (!"none".equals(approximate) && !"tanh".equals(approximate)) {
            throw new IllegalArgumentException("GELU: approximate=" + (approximate == null ? "null" : "\"" + approximate + "\"")
                    + "; expected \"none\" (exact, erf) or \"tanh\"");
        }
    }
}

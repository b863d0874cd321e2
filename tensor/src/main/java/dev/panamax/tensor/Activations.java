package dev.panamax.tensor;

import dev.panamax.tensor.spi.UnaryOp;

/** Activations built from primitives: exact (erf) GELU and SiLU; their gradients follow from the primitives'. */
final class Activations {
    private static final double INV_SQRT_2 = 1 / Math.sqrt(2);

    private Activations() {}

    /** PyTorch's {@code gelu(x, approximate=...)}: {@code "none"} (exact, erf) or {@code "tanh"}. */
    static Tensor gelu(Tensor x, String approximate) {
        if (approximate == null) {
            throw new TensorException("gelu", "approximate is null; expected \"none\" (exact, erf) or \"tanh\"");
        }
        return switch (approximate) {
            case "tanh" -> Elementwise.unary("gelu", UnaryOp.GELU, x);
            case "none" -> exactGelu(x);
            default -> throw new TensorException("gelu", "approximate=\"" + approximate + "\"; expected \"none\" (exact, erf) or \"tanh\"");
        };
    }

    /** {@code 0.5 x (1 + erf(x / sqrt 2))}; f16 computes in f32 and rounds once. */
    private static Tensor exactGelu(Tensor x) {
        Ops.check("gelu", x);
        Ops.floating("gelu", x);
        if (x.dtype() == DType.F16) return exactGelu(x.cast(DType.F32)).cast(DType.F16);
        return x.mul(Elementwise.unary("erf", UnaryOp.ERF, x.mul(INV_SQRT_2)).add(1.0)).mul(0.5);
    }

    /** {@code x * sigmoid(x)}, PyTorch's {@code silu}. */
    static Tensor silu(Tensor x) {
        Ops.check("silu", x);
        Ops.floating("silu", x);
        return x.mul(x.sigmoid());
    }
}

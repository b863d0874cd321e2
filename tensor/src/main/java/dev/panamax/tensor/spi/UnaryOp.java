package dev.panamax.tensor.spi;

/**
 * Elementwise functions of one operand. All but {@link #COPY} take and give a floating type
 * (out's dtype equals in's); {@code COPY} converts between any two dtypes: float to integer as
 * Java's narrowing conversion (truncated toward zero, NaN to 0, out-of-range values saturated at
 * the type's bounds), integer to integer keeps the low bits (two's complement), integer to float
 * and float to f16 round to nearest even once.
 */
public enum UnaryOp {
    /** out = in, converting the dtype when they differ. */
    COPY,
    NEG,
    EXP,
    LOG,
    SQRT,
    ABS,
    /** max(x, 0); NaN stays NaN (as PyTorch's relu). */
    RELU,
    /** 1 if x > 0 else 0 (relu's derivative). */
    STEP,
    /** 1 / (1 + exp(-x)). */
    SIGMOID,
    TANH,
    /** The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), PyTorch's {@code gelu(approximate='tanh')}. */
    GELU,
    /** d/dx of {@link #GELU}. */
    GELU_GRAD,
    /** The error function, {@code 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt} (behind exact GELU). */
    ERF
}

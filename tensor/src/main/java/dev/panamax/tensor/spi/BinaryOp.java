package dev.panamax.tensor.spi;

/**
 * Elementwise functions of two operands of one dtype, giving that dtype. Comparisons give 1 or 0.
 * On integer dtypes {@code DIV} truncates toward zero; {@code POW} is floating only.
 */
public enum BinaryOp {
    ADD, SUB, MUL, DIV, POW, MAX, MIN,
    /** {@code b > 0 ? a : 0}: a gradient {@code a} passed through relu where its input {@code b} was positive (floating only). */
    RELU_BACKWARD,
    EQ, NE, LT, LE, GT, GE;

    /** Whether the result is 1/0. */
    public boolean isComparison() {
        return ordinal() >= EQ.ordinal();
    }
}

package dev.panamax.tensor.spi;

/**
 * Reductions along one axis. {@code SUM} of a floating input gives its dtype, of an integer input
 * I64 (NumPy's and PyTorch's widening); {@code MAX} and {@code MIN} give the input's dtype and
 * propagate NaN; {@code ARGMAX} gives I64, the first index of the maximum (NaN counts as the
 * maximum, as in NumPy).
 */
public enum ReduceOp {
    SUM, MAX, MIN, ARGMAX
}

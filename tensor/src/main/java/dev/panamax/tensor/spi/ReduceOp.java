package dev.panamax.tensor.spi;

/**
 * Reductions along one axis. {@code SUM}, {@code MAX} and {@code MIN} give the input's dtype;
 * {@code ARGMAX} gives I64, the first index of the maximum (NaN counts as the maximum, as in NumPy).
 */
public enum ReduceOp {
    SUM, MAX, MIN, ARGMAX
}

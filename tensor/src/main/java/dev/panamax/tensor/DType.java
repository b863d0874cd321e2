package dev.panamax.tensor;

/**
 * The element types a tensor can hold. {@code F16} is a storage type (IEEE half, converted with
 * core's fp16 kernels); arithmetic on it runs in float precision and rounds on store, and its means,
 * softmaxes and layer norms accumulate in f32. The integer types hold indices and class labels; their
 * arithmetic wraps as two's complement and their sums are I64. Mixed dtypes promote as PyTorch's
 * {@code result_type}; a float converts to an integer as Java's {@code (int)}/{@code (long)} do (NaN
 * to 0, saturating). The full table: "Dtype semantics" in the package documentation.
 *
 * <pre>{@code
 * Tensor labels = Tensor.of(new long[] {0, 2, 1});     // I64
 * Tensor half = Tensor.ones(3).cast(DType.F16);        // 2 bytes per element
 * }</pre>
 */
public enum DType {
    F32(4, true, "<f4"),
    F16(2, true, "<f2"),
    I32(4, false, "<i4"),
    I64(8, false, "<i8");

    private final int byteSize;
    private final boolean floating;
    private final String numpyDescr;

    DType(int byteSize, boolean floating, String numpyDescr) {
        this.byteSize = byteSize;
        this.floating = floating;
        this.numpyDescr = numpyDescr;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** Whether this is a floating-point type (gradients flow only through those). */
    public boolean isFloating() {
        return floating;
    }

    /** NumPy's little-endian type string for this type ({@code <f4}, {@code <i8}, ...). */
    public String numpyDescr() {
        return numpyDescr;
    }

    /** Lower-case name as printed in messages: {@code f32}, {@code i64}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

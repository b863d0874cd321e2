package dev.panamax.tensor;

/**
 * The dtype an op over operands of mixed dtypes computes in: PyTorch's {@code result_type}.
 * Operands rank in three tiers, tensors of rank 1 or more, then rank-0 tensors, then Java scalars
 * (a {@code long} counts as an integer scalar, a {@code double} as a float scalar of dtype f32).
 * Within a tier dtypes promote (f16 with f32 gives f32, i32 with i64 gives i64, an integer with a
 * floating type gives the floating type); a lower tier changes the result only when it brings a
 * floating type to an integer one.
 *
 * <pre>{@code
 * i32 tensor * 0.5        -> f32      f16 tensor * 0.5       -> f16
 * i32 tensor * 2          -> i32      i32 tensor + i64 tensor -> i64
 * f16 tensor + f32 rank-0 -> f16      i32 tensor + f16 rank-0 -> f16
 * }</pre>
 */
final class Promotion {
    private Promotion() {}

    /** The dtype both operands of {@code a op b} convert to. */
    static DType of(Tensor a, Tensor b) {
        if (a.dtype() == b.dtype()) return a.dtype();
        DType dims = null, zero = null;
        if (a.rank() > 0) dims = a.dtype();
        else zero = a.dtype();
        if (b.rank() > 0) dims = promote(dims, b.dtype());
        else zero = promote(zero, b.dtype());
        return combine(dims, zero);
    }

    /** The dtype of {@code t op scalar}, the scalar an integer ({@code long}) or a float ({@code double}). */
    static DType of(Tensor t, boolean floatScalar) {
        return combine(t.dtype(), floatScalar ? DType.F32 : DType.I64);
    }

    /** The dtype a true division computes in: the promoted one, f32 where that is an integer type. */
    static DType floating(DType t) {
        return t.isFloating() ? t : DType.F32;
    }

    /** Both dtypes of one tier together; null stands for none. */
    static DType promote(DType x, DType y) {
        if (x == null || x == y) return y;
        if (y == null) return x;
        if (x.isFloating() != y.isFloating()) return x.isFloating() ? x : y;
        return x.isFloating() ? DType.F32 : DType.I64; // the two distinct types of a kind: the wider
    }

    /** A higher tier's dtype, changed by a lower tier's only from integer to floating. */
    private static DType combine(DType higher, DType lower) {
        if (higher == null) return lower;
        if (lower == null || higher.isFloating() || !lower.isFloating()) return higher;
        return promote(higher, lower);
    }
}

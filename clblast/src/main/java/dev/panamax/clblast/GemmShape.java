package dev.panamax.clblast;

import java.util.Objects;

/**
 * The sizes of a matrix product {@code C = alpha * op(A) * op(B) + beta * C}: {@code op(A)} is
 * {@code m x k}, {@code op(B)} is {@code k x n}, C is {@code m x n}, all row-major.
 *
 * <pre>{@code
 * GemmShape s = GemmShape.of(64, 32, 128);                       // A 64x128, B 128x32
 * GemmShape t = GemmShape.of(64, 32, 128).withBTransposed();          // B stored 32x128 (a Linear layer's weight)
 * }</pre>
 *
 * @param transposeA whether A is stored transposed ({@code k x m})
 * @param transposeB whether B is stored transposed ({@code n x k})
 * @param m rows of C and of {@code op(A)}
 * @param n columns of C and of {@code op(B)}
 * @param k columns of {@code op(A)}, rows of {@code op(B)}
 */
public record GemmShape(Transpose transposeA, Transpose transposeB, long m, long n, long k) {
    /** Checks that the transposes are given and the sizes are not negative. */
    public GemmShape {
        Objects.requireNonNull(transposeA, "transposeA");
        Objects.requireNonNull(transposeB, "transposeB");
        if (m < 0 || n < 0 || k < 0) {
            throw new IllegalArgumentException("negative GEMM size: m=" + m + " n=" + n + " k=" + k
                    + "; expected sizes >= 0 (CLBlast itself refuses 0 with kInvalidDimension)");
        }
    }

    /** {@code C(m x n) = A(m x k) * B(k x n)}, neither transposed. */
    public static GemmShape of(long m, long n, long k) {
        return new GemmShape(Transpose.NO, Transpose.NO, m, n, k);
    }

    /** The same product with A read transposed (A stored {@code k x m}). */
    public GemmShape withATransposed() {
        return new GemmShape(Transpose.YES, transposeB, m, n, k);
    }

    /** The same product with B read transposed (B stored {@code n x k}). */
    public GemmShape withBTransposed() {
        return new GemmShape(transposeA, Transpose.YES, m, n, k);
    }

    /** The smallest leading dimension A can have: the columns of A as stored. */
    public long minLeadingDimensionA() {
        return transposeA == Transpose.NO ? k : m;
    }

    /** The smallest leading dimension B can have: the columns of B as stored. */
    public long minLeadingDimensionB() {
        return transposeB == Transpose.NO ? n : k;
    }

    /** The smallest leading dimension C can have: {@code n}. */
    public long minLeadingDimensionC() {
        return n;
    }

    @Override
    public String toString() {
        return "m=" + m + " n=" + n + " k=" + k + " transposeA=" + transposeA + " transposeB=" + transposeB;
    }
}

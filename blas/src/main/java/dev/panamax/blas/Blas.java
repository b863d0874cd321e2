package dev.panamax.blas;

import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import dev.panamax.core.OpenBlasCoreType;

import java.lang.foreign.MemorySegment;

/**
 * The common BLAS routines on Java arrays, with the sizes checked first and long work kept off the
 * critical tier. The generated typed layer ({@link CBLASApi}) passes arrays in place (critical_heap:
 * no copy) and checks each against the length expression {@code cblas.yaml} declares for it
 * ({@code 1 + (n - 1) * |inc|} vector elements, {@code (rows - 1) * ld + cols} matrix elements);
 * here the same sizes are checked first in BLAS terms: a too-short array or a bad stride is an
 * {@link IllegalArgumentException} naming the routine, the array and both lengths, never a read past
 * the end of a Java array.
 *
 * <p>Every routine runs as a critical call, which holds off the JVM's safepoints (GC pauses included)
 * until it returns. Level 1 and 2 on more than 2^20 elements therefore run as a series of critical
 * calls over pieces of the arrays, in place ({@code Chunked}); {@code sgemm} and {@code dgemm} on arrays
 * move a product of 2^31 operations or more (1,024^3) to the standard tier, through native
 * copies; on {@link MemorySegment}s of native memory they always run on the standard tier, with no copy.
 *
 * <pre>{@code
 * Blas.sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, m, n, k, 1f, a, k, b, n, 0f, c, n);
 * }</pre>
 */
public final class Blas {
    static {
        // before the binding loads OpenBLAS: the kernels this CPU can run (an old OpenBLAS may not know it)
        OpenBlasCoreType.chooseBeforeLoading();
    }

    private Blas() {}

    /** y = alpha * x + y. */
    public static void saxpy(int n, float alpha, float[] x, int incx, float[] y, int incy) {
        vector("saxpy", "x", n, x.length, incx);
        vector("saxpy", "y", n, y.length, incy);
        if (n > Chunked.ELEMENTS) Chunked.saxpy(n, alpha, x, incx, y, incy, Chunked.ELEMENTS);
        else CBLASApi.cblas_saxpy(n, alpha, x, incx, y, incy);
    }

    /** y = alpha * x + y. */
    public static void daxpy(int n, double alpha, double[] x, int incx, double[] y, int incy) {
        vector("daxpy", "x", n, x.length, incx);
        vector("daxpy", "y", n, y.length, incy);
        if (n > Chunked.ELEMENTS) Chunked.daxpy(n, alpha, x, incx, y, incy, Chunked.ELEMENTS);
        else CBLASApi.cblas_daxpy(n, alpha, x, incx, y, incy);
    }

    /** x · y. */
    public static float sdot(int n, float[] x, int incx, float[] y, int incy) {
        vector("sdot", "x", n, x.length, incx);
        vector("sdot", "y", n, y.length, incy);
        if (n > Chunked.ELEMENTS) return Chunked.sdot(n, x, incx, y, incy, Chunked.ELEMENTS);
        return CBLASApi.cblas_sdot(n, x, incx, y, incy);
    }

    /** x · y. */
    public static double ddot(int n, double[] x, int incx, double[] y, int incy) {
        vector("ddot", "x", n, x.length, incx);
        vector("ddot", "y", n, y.length, incy);
        if (n > Chunked.ELEMENTS) return Chunked.ddot(n, x, incx, y, incy, Chunked.ELEMENTS);
        return CBLASApi.cblas_ddot(n, x, incx, y, incy);
    }

    /** The Euclidean norm of x. */
    public static float snrm2(int n, float[] x, int incx) {
        vector("snrm2", "x", n, x.length, incx);
        if (n > Chunked.ELEMENTS) return Chunked.snrm2(n, x, incx, Chunked.ELEMENTS);
        return CBLASApi.cblas_snrm2(n, x, incx);
    }

    /** The Euclidean norm of x. */
    public static double dnrm2(int n, double[] x, int incx) {
        vector("dnrm2", "x", n, x.length, incx);
        if (n > Chunked.ELEMENTS) return Chunked.dnrm2(n, x, incx, Chunked.ELEMENTS);
        return CBLASApi.cblas_dnrm2(n, x, incx);
    }

    /** x = alpha * x. */
    public static void sscal(int n, float alpha, float[] x, int incx) {
        vector("sscal", "x", n, x.length, incx);
        if (n > Chunked.ELEMENTS) Chunked.sscal(n, alpha, x, incx, Chunked.ELEMENTS);
        else CBLASApi.cblas_sscal(n, alpha, x, incx);
    }

    /** x = alpha * x. */
    public static void dscal(int n, double alpha, double[] x, int incx) {
        vector("dscal", "x", n, x.length, incx);
        if (n > Chunked.ELEMENTS) Chunked.dscal(n, alpha, x, incx, Chunked.ELEMENTS);
        else CBLASApi.cblas_dscal(n, alpha, x, incx);
    }

    /** y = alpha * op(A) * x + beta * y, A m×n. */
    public static void sgemv(int order, int trans, int m, int n, float alpha, float[] a, int lda, float[] x, int incx,
                             float beta, float[] y, int incy) {
        boolean t = transposed("sgemv", trans);
        matrix("sgemv", "A", order, m, n, lda, a.length);
        vector("sgemv", "x", t ? m : n, x.length, incx);
        vector("sgemv", "y", t ? n : m, y.length, incy);
        if ((long) m * n > Chunked.ELEMENTS) Chunked.sgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy, Chunked.ELEMENTS);
        else CBLASApi.cblas_sgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
    }

    /** y = alpha * op(A) * x + beta * y, A m×n. */
    public static void dgemv(int order, int trans, int m, int n, double alpha, double[] a, int lda, double[] x, int incx,
                             double beta, double[] y, int incy) {
        boolean t = transposed("dgemv", trans);
        matrix("dgemv", "A", order, m, n, lda, a.length);
        vector("dgemv", "x", t ? m : n, x.length, incx);
        vector("dgemv", "y", t ? n : m, y.length, incy);
        if ((long) m * n > Chunked.ELEMENTS) Chunked.dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy, Chunked.ELEMENTS);
        else CBLASApi.cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
    }

    /**
     * C = alpha * op(A) * op(B) + beta * C; op(A) m×k, op(B) k×n, C m×n. The arrays pass in place on the
     * critical tier; a product of at least {@code -Dpanamax.blas.criticalFlops} operations (2·m·n·k,
     * 2^31 by default) runs on the standard tier through native copies instead, so that a long product
     * never holds a GC pause off.
     */
    public static void sgemm(int order, int transA, int transB, int m, int n, int k, float alpha, float[] a, int lda,
                             float[] b, int ldb, float beta, float[] c, int ldc) {
        gemm("sgemm", order, transA, transB, m, n, k, lda, ldb, ldc, a.length, b.length, c.length);
        if (StandardGemm.tooLongForCritical(m, n, k)) {
            StandardGemm.sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } else {
            CBLASApi.cblas_sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
    }

    /** C = alpha * op(A) * op(B) + beta * C, as {@link #sgemm(int, int, int, int, int, int, float, float[], int, float[], int, float, float[], int)}. */
    public static void dgemm(int order, int transA, int transB, int m, int n, int k, double alpha, double[] a, int lda,
                             double[] b, int ldb, double beta, double[] c, int ldc) {
        gemm("dgemm", order, transA, transB, m, n, k, lda, ldb, ldc, a.length, b.length, c.length);
        if (StandardGemm.tooLongForCritical(m, n, k)) {
            StandardGemm.dgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } else {
            CBLASApi.cblas_dgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        }
    }

    /**
     * C = alpha * op(A) * op(B) + beta * C on native memory (f32 elements), on the standard tier: no copy,
     * and the JVM's safepoints go on during the product. The way for large operands.
     */
    public static void sgemm(int order, int transA, int transB, int m, int n, int k, float alpha, MemorySegment a, int lda,
                             MemorySegment b, int ldb, float beta, MemorySegment c, int ldc) {
        gemm("sgemm", order, transA, transB, m, n, k, lda, ldb, ldc, elements("sgemm", "A", a, Float.BYTES),
                elements("sgemm", "B", b, Float.BYTES), elements("sgemm", "C", c, Float.BYTES));
        StandardGemm.sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    /** C = alpha * op(A) * op(B) + beta * C on native memory (f64 elements), on the standard tier, as the f32 one. */
    public static void dgemm(int order, int transA, int transB, int m, int n, int k, double alpha, MemorySegment a, int lda,
                             MemorySegment b, int ldb, double beta, MemorySegment c, int ldc) {
        gemm("dgemm", order, transA, transB, m, n, k, lda, ldb, ldc, elements("dgemm", "A", a, Double.BYTES),
                elements("dgemm", "B", b, Double.BYTES), elements("dgemm", "C", c, Double.BYTES));
        StandardGemm.dgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    /** The elements a native segment holds; a heap segment is refused (the standard tier cannot pass one). */
    private static long elements(String routine, String name, MemorySegment segment, int elementBytes) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("heap segment: routine=" + routine + " matrix=" + name
                    + " expected native memory (for heap data pass the Java array)");
        }
        return segment.byteSize() / elementBytes;
    }

    private static void gemm(String routine, int order, int transA, int transB, int m, int n, int k, int lda, int ldb,
                             int ldc, long aLength, long bLength, long cLength) {
        boolean ta = transposed(routine, transA);
        boolean tb = transposed(routine, transB);
        matrix(routine, "A", order, ta ? k : m, ta ? m : k, lda, aLength);
        matrix(routine, "B", order, tb ? n : k, tb ? k : n, ldb, bLength);
        matrix(routine, "C", order, m, n, ldc, cLength);
    }

    private static boolean transposed(String routine, int trans) {
        if (trans == CBLAS.CblasNoTrans) return false;
        if (trans == CBLAS.CblasTrans || trans == CBLAS.CblasConjTrans) return true;
        throw new IllegalArgumentException("bad transpose: routine=" + routine + " trans=" + trans
                + " expected CblasNoTrans (111), CblasTrans (112) or CblasConjTrans (113)");
    }

    /** A vector of n elements at stride inc needs 1 + (n - 1) * |inc| elements. */
    static void vector(String routine, String name, int n, int length, int inc) {
        if (n < 0) throw new IllegalArgumentException("negative size: routine=" + routine + " array=" + name + " n=" + n);
        if (inc == 0) throw new IllegalArgumentException("zero stride: routine=" + routine + " array=" + name);
        long required = n == 0 ? 0 : 1 + (long) (n - 1) * Math.abs((long) inc);
        if (length < required) {
            throw new IllegalArgumentException("array too short: routine=" + routine + " array=" + name + " length=" + length
                    + " required=" + required + " (n=" + n + " inc=" + inc + ")");
        }
    }

    /** A rows×cols matrix with leading dimension ld in row- or column-major order. */
    static void matrix(String routine, String name, int order, int rows, int cols, int ld, long length) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("negative size: routine=" + routine + " array=" + name + " rows=" + rows + " cols=" + cols);
        }
        boolean rowMajor;
        if (order == CBLAS.CblasRowMajor) rowMajor = true;
        else if (order == CBLAS.CblasColMajor) rowMajor = false;
        else throw new IllegalArgumentException("bad order: routine=" + routine + " order=" + order
                + " expected CblasRowMajor (101) or CblasColMajor (102)");
        int lines = rowMajor ? rows : cols;
        int lineLength = rowMajor ? cols : rows;
        if (ld < Math.max(1, lineLength)) {
            throw new IllegalArgumentException("leading dimension too small: routine=" + routine + " array=" + name + " ld=" + ld
                    + " required=" + Math.max(1, lineLength) + " (rows=" + rows + " cols=" + cols + (rowMajor ? " row-major)" : " column-major)"));
        }
        long required = lines == 0 || lineLength == 0 ? 0 : (long) (lines - 1) * ld + lineLength;
        if (length < required) {
            throw new IllegalArgumentException("array too short: routine=" + routine + " array=" + name + " length=" + length
                    + " required=" + required + " (rows=" + rows + " cols=" + cols + " ld=" + ld
                    + (rowMajor ? " row-major)" : " column-major)"));
        }
    }
}

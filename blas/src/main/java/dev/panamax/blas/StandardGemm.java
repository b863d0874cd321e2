package dev.panamax.blas;

import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * {@code cblas_sgemm} and {@code cblas_dgemm} linked on the standard tier, for products too long to
 * run as critical calls. cblas.yaml binds every routine {@code critical_heap}, so Java arrays pass in
 * place; but a critical call keeps the calling thread in the Java state, and no safepoint (a GC pause
 * included) can start anywhere until it returns. A 4096^3 product takes seconds. Here the call is a
 * standard downcall, during which the JVM goes on; heap operands are copied into native memory first
 * (O(n^2) against the product's O(n^3) work) and the result is copied back. The copies live in a
 * per-thread block kept between products ({@link Staging}): fresh memory for each product would pay a
 * page fault per 4 KiB touched, which costs more than the copies themselves.
 */
final class StandardGemm {
    /**
     * Products of at least this many floating-point operations (2·m·n·k) leave the critical tier, unless
     * {@code -Dpanamax.blas.criticalFlops} says otherwise: 2^31, a 1,024^3 product, about 12 ms here.
     */
    static final long CRITICAL_FLOPS = BlasSettings.CRITICAL_FLOPS.get();

    private static final NativeLibrary OPENBLAS = NativeLibrary.loadFirst(List.of("libopenblas.so.0", "openblas"));
    private static final MethodHandle SGEMM = link("cblas_sgemm", ValueLayout.JAVA_FLOAT);
    private static final MethodHandle DGEMM = link("cblas_dgemm", ValueLayout.JAVA_DOUBLE);

    private StandardGemm() {}

    private static MethodHandle link(String symbol, ValueLayout scalar) {
        ValueLayout i = ValueLayout.JAVA_INT;
        ValueLayout p = ValueLayout.ADDRESS;
        return OPENBLAS.function(symbol).params(i, i, i, i, i, i, scalar, p, i, p, i, scalar, p, i).tier(Tier.STANDARD).link();
    }

    /** Whether an m×n×k product is long enough to run on the standard tier. */
    static boolean tooLongForCritical(int m, int n, int k) {
        return 2.0 * m * n * k >= CRITICAL_FLOPS;
    }

    /** C = alpha·op(A)·op(B) + beta·C on native segments, sizes already checked. */
    static void sgemm(int order, int transA, int transB, int m, int n, int k, float alpha, MemorySegment a, int lda,
                      MemorySegment b, int ldb, float beta, MemorySegment c, int ldc) {
        try {
            SGEMM.invokeExact(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** C = alpha·op(A)·op(B) + beta·C on native segments, sizes already checked. */
    static void dgemm(int order, int transA, int transB, int m, int n, int k, double alpha, MemorySegment a, int lda,
                      MemorySegment b, int ldb, double beta, MemorySegment c, int ldc) {
        try {
            DGEMM.invokeExact(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The array product through native copies on the standard tier, sizes already checked. */
    static void sgemm(int order, int transA, int transB, int m, int n, int k, float alpha, float[] a, int lda,
                      float[] b, int ldb, float beta, float[] c, int ldc) {
        ValueLayout f = ValueLayout.JAVA_FLOAT;
        try (Staging.Lease lease = Staging.lease(Staging.bytes(f, a.length, b.length, c.length))) {
            MemorySegment na = lease.copyOf(f, a, a.length);
            MemorySegment nb = lease.copyOf(f, b, b.length);
            MemorySegment nc = lease.copyOf(f, c, c.length);
            sgemm(order, transA, transB, m, n, k, alpha, na, lda, nb, ldb, beta, nc, ldc);
            MemorySegment.copy(nc, f, 0, c, 0, c.length);
        }
    }

    /** The array product through native copies on the standard tier, sizes already checked. */
    static void dgemm(int order, int transA, int transB, int m, int n, int k, double alpha, double[] a, int lda,
                      double[] b, int ldb, double beta, double[] c, int ldc) {
        ValueLayout d = ValueLayout.JAVA_DOUBLE;
        try (Staging.Lease lease = Staging.lease(Staging.bytes(d, a.length, b.length, c.length))) {
            MemorySegment na = lease.copyOf(d, a, a.length);
            MemorySegment nb = lease.copyOf(d, b, b.length);
            MemorySegment nc = lease.copyOf(d, c, c.length);
            dgemm(order, transA, transB, m, n, k, alpha, na, lda, nb, ldb, beta, nc, ldc);
            MemorySegment.copy(nc, d, 0, c, 0, c.length);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("unexpected checked exception from cblas: " + t, t);
    }
}

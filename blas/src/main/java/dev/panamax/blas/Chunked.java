package dev.panamax.blas;

import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;

import java.lang.foreign.MemorySegment;

/**
 * Level-1 and level-2 routines on large Java arrays as a series of critical calls, each over at most
 * {@link #ELEMENTS} elements ({@code -Dpanamax.blas.chunkElements}, 2^20 by default: about a
 * millisecond of memory traffic here). A critical call holds off the JVM's safepoints until it returns;
 * these routines are memory-bound, so copying to run them on the standard tier would cost more than the
 * work, while pieces in place bound the wait and copy nothing. axpy, scal and gemv split exactly (each
 * output element is computed as in one call); dot and nrm2 combine per-piece results (in double, nrm2
 * scaled), which rounds differently from one call in the last bits.
 */
final class Chunked {
    static final int ELEMENTS = BlasSettings.CHUNK_ELEMENTS.get();

    private Chunked() {}

    /** The first array index of logical elements [from, to) of an n-element vector at stride inc (BLAS order). */
    static long start(int n, int inc, int from, int to) {
        return inc > 0 ? (long) from * inc : (long) (n - to) * -inc;
    }

    private static MemorySegment floats(float[] a, long index) {
        return MemorySegment.ofArray(a).asSlice(index * Float.BYTES);
    }

    private static MemorySegment doubles(double[] a, long index) {
        return MemorySegment.ofArray(a).asSlice(index * Double.BYTES);
    }

    /** One call over logical elements [from, to); returns a partial result, or 0 when there is none. */
    private interface Piece {
        double call(int from, int to);
    }

    /** Calls {@code piece} over [0, n) in pieces of at most {@code chunk} elements; the pieces' results, in order. */
    private static double[] pieces(int n, int chunk, Piece piece) {
        double[] results = new double[(n + chunk - 1) / chunk];
        for (int p = 0; p < results.length; p++) {
            int from = p * chunk;
            results[p] = piece.call(from, Math.min(n, from + chunk));
        }
        return results;
    }

    private static double sum(double[] values) {
        double sum = 0;
        for (double v : values) sum += v;
        return sum;
    }

    static void saxpy(int n, float alpha, float[] x, int incx, float[] y, int incy, int chunk) {
        pieces(n, chunk, (i, to) -> {
            CBLASApi.cblas_saxpy(to - i, alpha, floats(x, start(n, incx, i, to)), incx, floats(y, start(n, incy, i, to)), incy);
            return 0;
        });
    }

    static void daxpy(int n, double alpha, double[] x, int incx, double[] y, int incy, int chunk) {
        pieces(n, chunk, (i, to) -> {
            CBLASApi.cblas_daxpy(to - i, alpha, doubles(x, start(n, incx, i, to)), incx, doubles(y, start(n, incy, i, to)), incy);
            return 0;
        });
    }

    static void sscal(int n, float alpha, float[] x, int incx, int chunk) {
        pieces(n, chunk, (i, to) -> {
            CBLASApi.cblas_sscal(to - i, alpha, floats(x, start(n, incx, i, to)), incx);
            return 0;
        });
    }

    static void dscal(int n, double alpha, double[] x, int incx, int chunk) {
        pieces(n, chunk, (i, to) -> {
            CBLASApi.cblas_dscal(to - i, alpha, doubles(x, start(n, incx, i, to)), incx);
            return 0;
        });
    }

    static float sdot(int n, float[] x, int incx, float[] y, int incy, int chunk) {
        return (float) sum(pieces(n, chunk, (i, to) ->
                CBLASApi.cblas_sdot(to - i, floats(x, start(n, incx, i, to)), incx, floats(y, start(n, incy, i, to)), incy)));
    }

    static double ddot(int n, double[] x, int incx, double[] y, int incy, int chunk) {
        return sum(pieces(n, chunk, (i, to) ->
                CBLASApi.cblas_ddot(to - i, doubles(x, start(n, incx, i, to)), incx, doubles(y, start(n, incy, i, to)), incy)));
    }

    static float snrm2(int n, float[] x, int incx, int chunk) {
        return (float) combinedNorm(pieces(n, chunk, (i, to) -> CBLASApi.cblas_snrm2(to - i, floats(x, start(n, incx, i, to)), incx)));
    }

    static double dnrm2(int n, double[] x, int incx, int chunk) {
        return combinedNorm(pieces(n, chunk, (i, to) -> CBLASApi.cblas_dnrm2(to - i, doubles(x, start(n, incx, i, to)), incx)));
    }

    /** sqrt(sum of squares) of partial norms, scaled by the largest so that no square overflows. */
    static double combinedNorm(double[] norms) {
        double scale = 0;
        for (double v : norms) {
            if (Double.isNaN(v)) return Double.NaN;
            scale = Math.max(scale, v);
        }
        if (scale == 0 || Double.isInfinite(scale)) return scale;
        double sum = 0;
        for (double v : norms) sum += (v / scale) * (v / scale);
        return scale * Math.sqrt(sum);
    }

    /**
     * How gemv splits: blocks of output elements (rows of A without transpose, columns with), each block
     * a separate call on the same lda, the block's part of A, all of x and the block's part of y.
     */
    private record GemvSplit(int outputs, boolean transposed, boolean rowMajor, int perCall) {
        static GemvSplit of(int order, int trans, int m, int n, int chunk) {
            boolean t = trans != CBLAS.CblasNoTrans;
            int inner = t ? m : n;   // the elements of A behind one output
            return new GemvSplit(t ? n : m, t, order == CBLAS.CblasRowMajor, Math.max(1, chunk / Math.max(1, inner)));
        }

        /** Index in A of the first element of output block [from, ...). */
        long aStart(int from, int lda) {
            // one output further is one element further in A for columns of a row-major A (transposed) and
            // rows of a column-major A (not transposed); otherwise one leading dimension further
            boolean unitStep = rowMajor == transposed;
            return unitStep ? from : (long) from * lda;
        }

        /** Calls {@code block} for each block of outputs, with its dimensions and where its A and y start. */
        void each(int m, int n, int lda, int incy, GemvBlock block) {
            for (int o = 0; o < outputs; o += perCall) {
                int to = Math.min(outputs, o + perCall);
                block.call(transposed ? m : to - o, transposed ? to - o : n, aStart(o, lda), start(outputs, incy, o, to));
            }
        }
    }

    /** One gemv call over a block of outputs: an m×n part of A from index aStart, y from index yStart. */
    private interface GemvBlock {
        void call(int m, int n, long aStart, long yStart);
    }

    static void sgemv(int order, int trans, int m, int n, float alpha, float[] a, int lda, float[] x, int incx,
                      float beta, float[] y, int incy, int chunk) {
        MemorySegment xs = MemorySegment.ofArray(x);
        GemvSplit.of(order, trans, m, n, chunk).each(m, n, lda, incy, (rows, cols, aAt, yAt) ->
                CBLASApi.cblas_sgemv(order, trans, rows, cols, alpha, floats(a, aAt), lda, xs, incx, beta, floats(y, yAt), incy));
    }

    static void dgemv(int order, int trans, int m, int n, double alpha, double[] a, int lda, double[] x, int incx,
                      double beta, double[] y, int incy, int chunk) {
        MemorySegment xs = MemorySegment.ofArray(x);
        GemvSplit.of(order, trans, m, n, chunk).each(m, n, lda, incy, (rows, cols, aAt, yAt) ->
                CBLASApi.cblas_dgemv(order, trans, rows, cols, alpha, doubles(a, aAt), lda, xs, incx, beta, doubles(y, yAt), incy));
    }
}

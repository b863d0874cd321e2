package dev.panamax.blas;

import dev.panamax.blas.binding.CBLASApi;
import org.junit.jupiter.api.Test;

import static dev.panamax.blas.binding.CBLAS.CblasColMajor;
import static dev.panamax.blas.binding.CBLAS.CblasNoTrans;
import static dev.panamax.blas.binding.CBLAS.CblasRowMajor;
import static dev.panamax.blas.binding.CBLAS.CblasTrans;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Level-1 and level-2 routines split into pieces (small pieces here, to cross many piece boundaries)
 * give what one call gives: every stride sign, both orders, both transposes, a leading dimension
 * wider than the matrix.
 */
class ChunkedTest {
    final RandomArrays random = new RandomArrays(31_337);
    static final int[] STRIDES = {1, 2, -1, -3};
    static final int[] PIECES = {1, 3, 7, 64};

    @Test
    void axpyAndScalInPiecesEqualOneCall() {
        int n = 101;
        for (int incx : STRIDES) {
            for (int incy : STRIDES) {
                float[] x = random.floats(1 + (n - 1) * Math.abs(incx));
                float[] y = random.floats(1 + (n - 1) * Math.abs(incy));
                double[] dx = random.doubles(x.length);
                double[] dy = random.doubles(y.length);
                for (int piece : PIECES) {
                    float[] expected = y.clone();
                    CBLASApi.cblas_saxpy(n, 0.5f, x, incx, expected, incy);
                    float[] got = y.clone();
                    Chunked.saxpy(n, 0.5f, x, incx, got, incy, piece);
                    assertArrayEquals(expected, got, "saxpy incx=" + incx + " incy=" + incy + " piece=" + piece);

                    double[] dExpected = dy.clone();
                    CBLASApi.cblas_daxpy(n, -2.0, dx, incx, dExpected, incy);
                    double[] dGot = dy.clone();
                    Chunked.daxpy(n, -2.0, dx, incx, dGot, incy, piece);
                    assertArrayEquals(dExpected, dGot, "daxpy incx=" + incx + " incy=" + incy + " piece=" + piece);
                }
            }
            for (int piece : PIECES) {
                float[] x = random.floats(1 + (n - 1) * Math.abs(incx));
                float[] expected = x.clone();
                CBLASApi.cblas_sscal(n, 3f, expected, incx);
                Chunked.sscal(n, 3f, x, incx, piece);
                assertArrayEquals(expected, x, "sscal incx=" + incx + " piece=" + piece);
                double[] dx = random.doubles(1 + (n - 1) * Math.abs(incx));
                double[] dExpected = dx.clone();
                CBLASApi.cblas_dscal(n, -0.25, dExpected, incx);
                Chunked.dscal(n, -0.25, dx, incx, piece);
                assertArrayEquals(dExpected, dx, "dscal incx=" + incx + " piece=" + piece);
            }
        }
    }

    @Test
    void dotAndNormInPiecesAgreeWithOneCall() {
        int n = 203;
        for (int incx : STRIDES) {
            for (int incy : STRIDES) {
                float[] x = random.floats(1 + (n - 1) * Math.abs(incx));
                float[] y = random.floats(1 + (n - 1) * Math.abs(incy));
                double[] dx = random.doubles(x.length);
                double[] dy = random.doubles(y.length);
                for (int piece : PIECES) {
                    assertEquals(CBLASApi.cblas_sdot(n, x, incx, y, incy), Chunked.sdot(n, x, incx, y, incy, piece), 1e-4,
                            "sdot incx=" + incx + " incy=" + incy + " piece=" + piece);
                    assertEquals(CBLASApi.cblas_ddot(n, dx, incx, dy, incy), Chunked.ddot(n, dx, incx, dy, incy, piece), 1e-12);
                    assertEquals(CBLASApi.cblas_snrm2(n, x, incx), Chunked.snrm2(n, x, incx, piece), 1e-5);
                    assertEquals(CBLASApi.cblas_dnrm2(n, dx, incx), Chunked.dnrm2(n, dx, incx, piece), 1e-12);
                }
            }
        }
    }

    @Test
    void partialNormsCombineWithoutOverflow() {
        assertEquals(5.0, Chunked.combinedNorm(new double[] {3, 4}), 1e-15);
        assertEquals(0.0, Chunked.combinedNorm(new double[] {0, 0, 0}));
        assertEquals(Math.sqrt(2) * 1e300, Chunked.combinedNorm(new double[] {1e300, 1e300}), 1e287, "no overflow of the squares");
        assertEquals(Double.POSITIVE_INFINITY, Chunked.combinedNorm(new double[] {1, Double.POSITIVE_INFINITY}));
        assertTrue(Double.isNaN(Chunked.combinedNorm(new double[] {1, Double.NaN, Double.POSITIVE_INFINITY})));
    }

    @Test
    void gemvInBlocksOfOutputsEqualsOneCall() {
        int m = 37;
        int n = 23;
        for (int order : new int[] {CblasRowMajor, CblasColMajor}) {
            boolean rowMajor = order == CblasRowMajor;
            int lda = (rowMajor ? n : m) + 5;
            int lines = rowMajor ? m : n;
            float[] a = random.floats((lines - 1) * lda + (rowMajor ? n : m));
            double[] da = random.doubles(a.length);
            for (int trans : new int[] {CblasNoTrans, CblasTrans}) {
                int xLen = trans == CblasNoTrans ? n : m;
                int yLen = trans == CblasNoTrans ? m : n;
                for (int incx : new int[] {1, -2}) {
                    for (int incy : new int[] {1, -3}) {
                        float[] x = random.floats(1 + (xLen - 1) * Math.abs(incx));
                        float[] y = random.floats(1 + (yLen - 1) * Math.abs(incy));
                        double[] dx = random.doubles(x.length);
                        double[] dy = random.doubles(y.length);
                        for (int piece : new int[] {1, 50, 200, 10_000}) {
                            String where = "order=" + order + " trans=" + trans + " incx=" + incx + " incy=" + incy + " piece=" + piece;
                            float[] expected = y.clone();
                            CBLASApi.cblas_sgemv(order, trans, m, n, 1.5f, a, lda, x, incx, -0.5f, expected, incy);
                            float[] got = y.clone();
                            Chunked.sgemv(order, trans, m, n, 1.5f, a, lda, x, incx, -0.5f, got, incy, piece);
                            assertArrayEquals(expected, got, 1e-5f, where);

                            double[] dExpected = dy.clone();
                            CBLASApi.cblas_dgemv(order, trans, m, n, 0.75, da, lda, dx, incx, 2.0, dExpected, incy);
                            double[] dGot = dy.clone();
                            Chunked.dgemv(order, trans, m, n, 0.75, da, lda, dx, incx, 2.0, dGot, incy, piece);
                            assertArrayEquals(dExpected, dGot, 1e-13, where);
                        }
                    }
                }
            }
        }
    }

    @Test
    void blasSplitsOnlyAboveThePieceSize() {
        // one element past the piece size goes through the pieces and still agrees with one call
        int n = Chunked.ELEMENTS + 1;
        float[] x = random.floats(n);
        float[] y = random.floats(n);
        float[] expected = y.clone();
        CBLASApi.cblas_saxpy(n, 2f, x, 1, expected, 1);
        Blas.saxpy(n, 2f, x, 1, y, 1);
        assertArrayEquals(expected, y);
        assertEquals(CBLASApi.cblas_snrm2(n, x, 1), Blas.snrm2(n, x, 1), 1e-2);
    }
}

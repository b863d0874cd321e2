package dev.panamax.blas;

import dev.panamax.blas.binding.CBLASApi;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static dev.panamax.blas.binding.CBLAS.CblasLeft;
import static dev.panamax.blas.binding.CBLAS.CblasNoTrans;
import static dev.panamax.blas.binding.CBLAS.CblasNonUnit;
import static dev.panamax.blas.binding.CBLAS.CblasRowMajor;
import static dev.panamax.blas.binding.CBLAS.CblasUpper;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The CBLAS routines outside {@link Blas}, called through the generated typed layer on OpenBLAS and
 * compared with Java references, with strides and leading dimensions that are not the trivial ones:
 * a routine bound with a parameter out of order or of the wrong type reads wrong here.
 */
class RoutinesTest {
    private static final float EPS = 1e-4f;
    private final Random random = new Random(42);

    @Test
    void level1SumsCopiesSwapsRotatesAndFindsTheLargest() {
        float[] x = floats(10);
        float asum = 0;
        for (int i = 0; i < 5; i++) asum += Math.abs(x[i * 2]);
        assertEquals(asum, CBLASApi.cblas_sasum(5, x, 2), EPS);
        double[] dx = doubles(9);
        double dasum = 0;
        for (double v : dx) dasum += Math.abs(v);
        assertEquals(dasum, CBLASApi.cblas_dasum(9, dx, 1), 1e-12);

        float[] y = new float[13];
        CBLASApi.cblas_scopy(5, x, 2, y, 3);
        for (int i = 0; i < 13; i++) assertEquals(i % 3 == 0 ? x[i / 3 * 2] : 0f, y[i], "y[" + i + "]");
        double[] dy = new double[9];
        CBLASApi.cblas_dcopy(9, dx, 1, dy, 1);
        assertArrayEquals(dx, dy);

        float[] a = floats(4);
        float[] b = floats(4);
        float[] a0 = a.clone();
        float[] b0 = b.clone();
        CBLASApi.cblas_sswap(4, a, 1, b, 1);
        assertArrayEquals(b0, a);
        assertArrayEquals(a0, b);
        double[] da = {1, 2};
        double[] db = {3, 4};
        CBLASApi.cblas_dswap(2, da, 1, db, 1);
        assertArrayEquals(new double[] {3, 4}, da);
        assertArrayEquals(new double[] {1, 2}, db);

        float c = 0.6f;
        float s = 0.8f;
        CBLASApi.cblas_srot(4, a, 1, b, 1, c, s);
        for (int i = 0; i < 4; i++) {
            assertEquals(c * b0[i] + s * a0[i], a[i], EPS, "x[" + i + "]");
            assertEquals(c * a0[i] - s * b0[i], b[i], EPS, "y[" + i + "]");
        }
        double[] rx = {1, 0};
        double[] ry = {0, 1};
        CBLASApi.cblas_drot(2, rx, 1, ry, 1, 0, 1);
        assertArrayEquals(new double[] {0, 1}, rx, 1e-15);
        assertArrayEquals(new double[] {-1, 0}, ry, 1e-15);

        assertEquals(2, CBLASApi.cblas_isamax(5, new float[] {1, -3, 7, -7, 2}, 1), "0-based, the first of equal magnitudes");
        assertEquals(1, CBLASApi.cblas_idamax(3, new double[] {0, 9, -9, 0, 4, 0}, 2), "over a stride");
    }

    @Test
    void level2RankOneUpdateSymmetricAndTriangularProductsAndSolve() {
        int m = 3;
        int n = 4;
        int lda = 6;
        float[] x = floats(m);
        float[] y = floats(n);
        float[] a = floats(m * lda);
        float[] expected = a.clone();
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) expected[i * lda + j] += 0.5f * x[i] * y[j];
        CBLASApi.cblas_sger(CblasRowMajor, m, n, 0.5f, x, 1, y, 1, a, lda);
        assertArrayEquals(expected, a, EPS);
        double[] dger = new double[4];
        CBLASApi.cblas_dger(CblasRowMajor, 2, 2, 1, new double[] {1, 2}, 1, new double[] {3, 4}, 1, dger, 2);
        assertArrayEquals(new double[] {3, 4, 6, 8}, dger);

        int k = 4;
        float[] sym = floats(k * lda);
        float[] v = floats(k);
        float[] out = floats(k);
        float[] symv = new float[k];
        for (int i = 0; i < k; i++) {
            float sum = 0;
            for (int j = 0; j < k; j++) sum += upper(sym, lda, i, j) * v[j];
            symv[i] = 2f * sum + 0.5f * out[i];
        }
        CBLASApi.cblas_ssymv(CblasRowMajor, CblasUpper, k, 2f, sym, lda, v, 1, 0.5f, out, 1);
        assertArrayEquals(symv, out, EPS);

        float[] tri = floats(k * lda);
        for (int i = 0; i < k; i++) tri[i * lda + i] += 4;     // well away from singular
        float[] w = floats(k);
        float[] uw = new float[k];
        for (int i = 0; i < k; i++) for (int j = i; j < k; j++) uw[i] += tri[i * lda + j] * w[j];
        float[] product = w.clone();
        CBLASApi.cblas_strmv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, k, tri, lda, product, 1);
        assertArrayEquals(uw, product, EPS);
        CBLASApi.cblas_strsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, k, tri, lda, product, 1);
        assertArrayEquals(w, product, EPS, "solving U x = U w gives w back");
    }

    @Test
    void level3SymmetricRankKTriangularProductsAndSolve() {
        int m = 3;
        int n = 5;
        int lda = 4;
        int ldb = 7;
        float[] a = floats(m * lda);
        float[] b = floats(m * ldb);
        float[] c = floats(m * ldb);
        float[] expected = c.clone();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int p = 0; p < m; p++) sum += upper(a, lda, i, p) * b[p * ldb + j];
                expected[i * ldb + j] = 1.5f * sum - c[i * ldb + j];
            }
        }
        CBLASApi.cblas_ssymm(CblasRowMajor, CblasLeft, CblasUpper, m, n, 1.5f, a, lda, b, ldb, -1f, c, ldb);
        assertArrayEquals(expected, c, EPS);

        float[] rows = floats(m * ldb);
        float[] syrk = floats(m * lda);
        float[] syrkExpected = syrk.clone();
        for (int i = 0; i < m; i++) {
            for (int j = i; j < m; j++) {
                float sum = 0;
                for (int p = 0; p < n; p++) sum += rows[i * ldb + p] * rows[j * ldb + p];
                syrkExpected[i * lda + j] = 2f * sum;
            }
        }
        CBLASApi.cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, m, n, 2f, rows, ldb, 0f, syrk, lda);
        assertArrayEquals(syrkExpected, syrk, EPS, "the upper triangle updated, the rest left as it was");

        float[] tri = floats(m * lda);
        for (int i = 0; i < m; i++) tri[i * lda + i] += 4;
        float[] tb = floats(m * ldb);
        float[] trmm = new float[m * ldb];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < ldb; j++) {
                if (j >= n) {
                    trmm[i * ldb + j] = tb[i * ldb + j];
                    continue;
                }
                float sum = 0;
                for (int p = i; p < m; p++) sum += tri[i * lda + p] * tb[p * ldb + j];
                trmm[i * ldb + j] = 0.5f * sum;
            }
        }
        float[] product = tb.clone();
        CBLASApi.cblas_strmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, 0.5f, tri, lda, product, ldb);
        assertArrayEquals(trmm, product, EPS);

        double[] dtri = new double[m * lda];
        double[] db = new double[m * ldb];
        for (int i = 0; i < dtri.length; i++) dtri[i] = tri[i];
        for (int i = 0; i < db.length; i++) db[i] = product[i];
        CBLASApi.cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, 2.0, dtri, lda, db, ldb);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) assertEquals(tb[i * ldb + j], db[i * ldb + j], 1e-5, "solving U X = 2 (U B / 2) gives B back at " + i + "," + j);
        }
    }

    @Test
    void anArrayShorterThanTheRoutineWouldUseIsRefusedBeforeOpenBlasSeesIt() {
        float[] x = new float[10];
        float[] y = new float[10];
        // 6 elements at stride 2 span 11: one past the end of x
        IllegalArgumentException swap = assertThrows(IllegalArgumentException.class, () -> CBLASApi.cblas_sswap(6, x, 2, y, 1));
        assertTrue(swap.getMessage().contains("function=cblas_sswap parameter=x length=10 needed=11"), swap.getMessage());
        assertArrayEquals(new float[10], y, "nothing was swapped");
        assertThrows(IllegalArgumentException.class, () -> CBLASApi.cblas_scopy(5, x, 1, y, -3), "a negative stride spans as far: 13");
        CBLASApi.cblas_scopy(4, x, 1, y, -3);
        // a 3 x 4 row-major C with ldc 5 spans 2 * 5 + 4 = 14 elements
        float[] a = new float[3 * 2];
        float[] b = new float[2 * 4];
        IllegalArgumentException gemm = assertThrows(IllegalArgumentException.class,
                () -> CBLASApi.cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 2, 1f, a, 2, b, 4, 0f, new float[13], 5));
        assertTrue(gemm.getMessage().contains("parameter=C length=13 needed=14"), gemm.getMessage());
        CBLASApi.cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 4, 2, 1f, a, 2, b, 4, 0f, new float[14], 5);
        // transposed, A is stored 2 x 3: a 4-element A is short whichever way it is read
        IllegalArgumentException transposed = assertThrows(IllegalArgumentException.class,
                () -> CBLASApi.cblas_sgemm(CblasRowMajor, dev.panamax.blas.binding.CBLAS.CblasTrans, CblasNoTrans, 3, 4, 2, 1f,
                        new float[5], 3, b, 4, 0f, new float[12], 4));
        assertTrue(transposed.getMessage().contains("parameter=A length=5 needed=6"), transposed.getMessage());
        // a triangular solve on the right reads an N x N A
        assertThrows(IllegalArgumentException.class, () -> CBLASApi.cblas_dtrsm(CblasRowMajor, dev.panamax.blas.binding.CBLAS.CblasRight,
                CblasUpper, CblasNoTrans, CblasNonUnit, 2, 3, 1.0, new double[8], 3, new double[6], 3));
        // no elements, nothing asked of the arrays
        assertEquals(0f, CBLASApi.cblas_sasum(0, new float[0], 1));
    }

    @Test
    void openBlasReportsItsProcessors() {
        assertTrue(CBLASApi.openblas_get_num_procs() >= 1);
    }

    private static float upper(float[] a, int lda, int i, int j) {
        return i <= j ? a[i * lda + j] : a[j * lda + i];
    }

    private float[] floats(int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = random.nextFloat() * 2 - 1;
        return v;
    }

    private double[] doubles(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = random.nextDouble() * 2 - 1;
        return v;
    }
}

package dev.panamax.blas;

import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import org.junit.jupiter.api.Test;

import static dev.panamax.blas.binding.CBLAS.CblasColMajor;
import static dev.panamax.blas.binding.CBLAS.CblasNoTrans;
import static dev.panamax.blas.binding.CBLAS.CblasRowMajor;
import static dev.panamax.blas.binding.CBLAS.CblasTrans;
import static org.junit.jupiter.api.Assertions.*;

/** OpenBLAS through the generated binding, against plain Java loops (computed in double). */
class BlasTest {
    final RandomArrays random = new RandomArrays(20240611);

    @Test
    void axpyAddsAScaledVectorContiguousAndStrided() {
        float[] x = random.floats(100);
        float[] y = random.floats(100);
        float[] expected = y.clone();
        for (int i = 0; i < 100; i++) expected[i] += 2.5f * x[i];
        Blas.saxpy(100, 2.5f, x, 1, y, 1);
        assertArrayEquals(expected, y, 1e-6f);

        double[] dx = random.doubles(20);
        double[] dy = random.doubles(10);
        double[] dExpected = dy.clone();
        for (int i = 0; i < 10; i++) dExpected[i] += -0.5 * dx[2 * i];
        Blas.daxpy(10, -0.5, dx, 2, dy, 1);
        assertArrayEquals(dExpected, dy, 1e-15);
    }

    @Test
    void dotAndNorm() {
        float[] x = random.floats(1000);
        float[] y = random.floats(1000);
        double dot = 0;
        double sq = 0;
        for (int i = 0; i < 1000; i++) {
            dot += (double) x[i] * y[i];
            sq += (double) x[i] * x[i];
        }
        assertEquals(dot, Blas.sdot(1000, x, 1, y, 1), 1e-3);
        assertEquals(Math.sqrt(sq), Blas.snrm2(1000, x, 1), 1e-4);
        double[] dx = random.doubles(501);
        double ddot = 0;
        double dsq = 0;
        for (int i = 0; i < 501; i += 2) {
            ddot += dx[i] * dx[i];
            dsq += dx[i] * dx[i];
        }
        assertEquals(ddot, Blas.ddot(251, dx, 2, dx, 2), 1e-12);
        assertEquals(Math.sqrt(dsq), Blas.dnrm2(251, dx, 2), 1e-12);
    }

    @Test
    void scalScalesInPlace() {
        float[] x = random.floats(64);
        float[] expected = x.clone();
        for (int i = 0; i < 64; i += 3) expected[i] *= -3f;
        Blas.sscal(22, -3f, x, 3);
        assertArrayEquals(expected, x, 1e-6f);
        double[] dx = random.doubles(7);
        double[] dExpected = dx.clone();
        for (int i = 0; i < 7; i++) dExpected[i] *= 0.25;
        Blas.dscal(7, 0.25, dx, 1);
        assertArrayEquals(dExpected, dx, 0);
    }

    @Test
    void gemvBothWaysAndBothOrders() {
        int m = 37;
        int n = 53;
        float[] a = random.floats(m * n);   // row-major m×n, lda = n
        float[] x = random.floats(n);
        float[] y = random.floats(m);
        double[] expected = new double[m];
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += (double) a[i * n + j] * x[j];
            expected[i] = 2 * s + 0.5 * y[i];
        }
        Blas.sgemv(CblasRowMajor, CblasNoTrans, m, n, 2f, a, n, x, 1, 0.5f, y, 1);
        for (int i = 0; i < m; i++) assertEquals(expected[i], y[i], 1e-4, "row " + i);

        // the same matrix read as column-major n×m is A transposed: y2 = A^T z
        double[] da = new double[m * n];
        for (int i = 0; i < da.length; i++) da[i] = a[i];
        double[] z = random.doubles(m);
        double[] y2 = new double[n];
        Blas.dgemv(CblasColMajor, CblasNoTrans, n, m, 1.0, da, n, z, 1, 0.0, y2, 1);
        double[] y3 = new double[n];
        Blas.dgemv(CblasRowMajor, CblasTrans, m, n, 1.0, da, n, z, 1, 0.0, y3, 1);
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < m; i++) s += da[i * n + j] * z[i];
            assertEquals(s, y2[j], 1e-12);
            assertEquals(s, y3[j], 1e-12);
        }
    }

    @Test
    void sgemmOf512x512RandomMatricesAgreesWithAJavaReference() {
        int n = 512;
        float[] a = random.floats(n * n);
        float[] b = random.floats(n * n);
        float[] c = new float[n * n];
        Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1f, a, n, b, n, 0f, c, n);
        double worst = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double ref = 0;
                double magnitude = 0;
                for (int k = 0; k < n; k++) {
                    double p = (double) a[i * n + k] * b[k * n + j];
                    ref += p;
                    magnitude += Math.abs(p);
                }
                // float accumulation error is bounded by k * eps * sum |a_ik b_kj|
                double bound = n * Math.ulp(1f) * magnitude;
                double error = Math.abs(c[i * n + j] - ref);
                assertTrue(error <= bound, "C[" + i + "][" + j + "] = " + c[i * n + j] + " reference " + ref + " bound " + bound);
                worst = Math.max(worst, error / Math.max(bound, Double.MIN_VALUE));
            }
        }
        assertTrue(worst < 1, "worst error / bound = " + worst);
    }

    @Test
    void dgemmWithTransposesAndBeta() {
        int m = 23;
        int n = 17;
        int k = 31;
        double[] at = random.doubles(k * m);   // A^T stored row-major k×m
        double[] b = random.doubles(k * n);    // B row-major k×n
        double[] c = random.doubles(m * n);
        double[] expected = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++) s += at[p * m + i] * b[p * n + j];
                expected[i * n + j] = 1.5 * s - 2 * c[i * n + j];
            }
        }
        Blas.dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 1.5, at, m, b, n, -2.0, c, n);
        assertArrayEquals(expected, c, 1e-12);
    }

    @Test
    void tooShortArraysAndBadArgumentsAreRefusedBeforeOpenBlasSeesThem() {
        float[] a = new float[100];
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 512, 512, 512, 1f, a, 512, a, 512, 0f, a, 512));
        assertEquals("array too short: routine=sgemm array=A length=100 required=262144 (rows=512 cols=512 ld=512 row-major)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Blas.saxpy(10, 1f, new float[10], 2, new float[10], 1));
        assertThrows(IllegalArgumentException.class, () -> Blas.sdot(3, new float[3], 0, new float[3], 1));
        assertThrows(IllegalArgumentException.class, () -> Blas.sgemv(CblasRowMajor, 7, 2, 2, 1f, a, 2, a, 1, 0f, a, 1));
        assertThrows(IllegalArgumentException.class, () -> Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1f,
                new float[16], 3, new float[16], 4, 0f, new float[16], 4), "lda below the row length");
        assertThrows(NullPointerException.class, () -> CBLASApi.cblas_sdot(1, null, 1, new float[1], 1),
                "the typed layer refuses null arrays the declarations do not allow");
    }

    @Test
    void openBlasRuntimeFunctionsThroughTheTypedLayer() {
        assertTrue(CBLASApi.openblas_get_num_threads() >= 1);
        String config = CBLASApi.openblas_get_config();
        assertTrue(config.contains("OpenBLAS"), config);
        assertFalse(CBLASApi.openblas_get_corename().isBlank());
        assertEquals(CBLAS.OPENBLAS_THREAD, CBLASApi.openblas_get_parallel(), "Debian's libopenblas0-pthread");
    }
}

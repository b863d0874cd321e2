package dev.panamax.blas;

import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The typed CBLAS layer refuses what the reference BLAS's xerbla refuses, before the call: OpenBLAS
 * itself would print "On entry to SGEMM parameter number N had an illegal value" on stderr and return
 * as if it had run. Each refusal names the parameter, its value and the rule from cblas.yaml.
 */
class ReferenceRulesTest {
    static final int ROW = CBLAS.CblasRowMajor;
    static final int COL = CBLAS.CblasColMajor;
    static final int N = CBLAS.CblasNoTrans;
    static final int T = CBLAS.CblasTrans;

    static void refused(String message, Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void gemmLeadingDimensionsBelowTheRowsOrColumnsStored() {
        float[] a = new float[64], b = new float[64], c = new float[64];
        // row-major A is m x k (4 x 5): lda must be at least k
        refused("cblas_sgemm: lda = 3 breaks the requirement lda >= max(1, Order == 101 ? (TransA == 111 ? K : TransA == 114 ? K"
                + " : M) : (TransA == 111 ? M : TransA == 114 ? M : K)) (Order = 101, TransA = 111, K = 5, M = 4)",
                () -> CBLASApi.cblas_sgemm(ROW, N, N, 4, 3, 5, 1f, a, 3, b, 3, 0f, c, 3));
        // column-major, B transposed is n x k (3 x 5): ldb must be at least n
        refused("cblas_sgemm: ldb = 2 breaks the requirement ldb >= max(1, Order == 101 ? (TransB == 111 ? N : TransB == 114 ? N"
                + " : K) : (TransB == 111 ? K : TransB == 114 ? K : N)) (Order = 102, TransB = 112, N = 3, K = 5)",
                () -> CBLASApi.cblas_sgemm(COL, N, T, 4, 3, 5, 1f, a, 4, b, 2, 0f, c, 4));
        refused("cblas_dgemm: ldc = 0 breaks the requirement ldc >= max(1, Order == 101 ? N : M) (Order = 101, N = 0, M = 0)",
                () -> CBLASApi.cblas_dgemm(ROW, N, N, 0, 0, 0, 1, new double[1], 1, new double[1], 1, 0, new double[1], 0));
        // the same call with good leading dimensions runs
        assertDoesNotThrow(() -> CBLASApi.cblas_sgemm(ROW, N, N, 4, 3, 5, 1f, a, 5, b, 3, 0f, c, 3));
    }

    @Test
    void negativeSizesAndBadEnumsAreNamed() {
        float[] a = new float[16], x = new float[4], y = new float[4];
        refused("cblas_sgemv: m = -1 breaks the requirement m >= 0",
                () -> CBLASApi.cblas_sgemv(ROW, N, -1, 2, 1f, a, 2, x, 1, 0f, y, 1));
        refused("cblas_sgemv: trans = 7 breaks the requirement trans == 111 || trans == 112 || trans == 113 || trans == 114",
                () -> CBLASApi.cblas_sgemv(ROW, 7, 2, 2, 1f, a, 2, x, 1, 0f, y, 1));
        refused("cblas_sgemv: order = 100 breaks the requirement order == 101 || order == 102",
                () -> CBLASApi.cblas_sgemv(100, N, 2, 2, 1f, a, 2, x, 1, 0f, y, 1));
        refused("cblas_strsv: Diag = 0 breaks the requirement Diag == 131 || Diag == 132",
                () -> CBLASApi.cblas_strsv(ROW, CBLAS.CblasUpper, N, 0, 2, a, 2, x, 1));
        refused("cblas_ssyrk: K = -3 breaks the requirement K >= 0",
                () -> CBLASApi.cblas_ssyrk(ROW, CBLAS.CblasUpper, N, 2, -3, 1f, a, 2, 0f, y, 2));
    }

    @Test
    void zeroStridesInLevelTwo() {
        float[] a = new float[16], x = new float[4], y = new float[4];
        refused("cblas_sgemv: incx = 0 breaks the requirement incx != 0",
                () -> CBLASApi.cblas_sgemv(ROW, N, 2, 2, 1f, a, 2, x, 0, 0f, y, 1));
        refused("cblas_sger: incY = 0 breaks the requirement incY != 0",
                () -> CBLASApi.cblas_sger(ROW, 2, 2, 1f, x, 1, y, 0, a, 2));
        // level 1 keeps the reference's rules: no check, n <= 0 is nothing to do
        assertEquals(0f, CBLASApi.cblas_sdot(-1, x, 1, y, 1));
    }
}

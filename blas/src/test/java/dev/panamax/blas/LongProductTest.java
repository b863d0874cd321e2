package dev.panamax.blas;

import dev.panamax.blas.binding.CBLASApi;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static dev.panamax.blas.binding.CBLAS.CblasColMajor;
import static dev.panamax.blas.binding.CBLAS.CblasNoTrans;
import static dev.panamax.blas.binding.CBLAS.CblasRowMajor;
import static dev.panamax.blas.binding.CBLAS.CblasTrans;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Matrix products on the standard tier (long products of Java arrays, through native copies, and
 * products on native segments) give what the critical tier gives, and are size-checked the same way.
 */
class LongProductTest {
    final RandomArrays random = new RandomArrays(7_340_033);
    final Random rnd = random.rnd;

    @Test
    void theStandardTierThroughCopiesGivesTheCriticalTiersResult() {
        int m = 70;
        int n = 45;
        int k = 58;
        float[] at = random.floats(k * m);     // op(A) = A^T, A stored row-major k×m
        float[] b = random.floats(k * n);
        float[] c = random.floats(m * n);
        float[] viaCritical = c.clone();
        CBLASApi.cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 0.75f, at, m, b, n, -1.25f, viaCritical, n);
        StandardGemm.sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 0.75f, at, m, b, n, -1.25f, c, n);
        assertArrayEquals(viaCritical, c, 1e-5f);

        double[] da = random.doubles(m * k);   // column-major m×k, lda = m
        double[] db = random.doubles(n * k);   // op(B) = B^T, B column-major n×k, ldb = n
        double[] dc = random.doubles(m * n);
        double[] dViaCritical = dc.clone();
        CBLASApi.cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, n, k, 2.0, da, m, db, n, 0.5, dViaCritical, m);
        StandardGemm.dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, n, k, 2.0, da, m, db, n, 0.5, dc, m);
        assertArrayEquals(dViaCritical, dc, 1e-12);
    }

    @Test
    void productsFromTwoToTheThirtyOneOperationsLeaveTheCriticalTier() {
        assertFalse(StandardGemm.tooLongForCritical(512, 512, 512), "512^3: 2.7e8 operations stay critical");
        assertFalse(StandardGemm.tooLongForCritical(1024, 1024, 1023));
        assertTrue(StandardGemm.tooLongForCritical(1024, 1024, 1024), "2^31 operations");
        assertTrue(StandardGemm.tooLongForCritical(46_341, 46_341, 46_341), "no int overflow in 2·m·n·k");
    }

    @Test
    void aLongProductOfArraysIsRight() {
        // 1,100 x 1,000 x 1,024: 2.25e9 operations, above the default threshold: the standard tier
        int m = 1_100;
        int n = 1_000;
        int k = 1_024;
        assertTrue(StandardGemm.tooLongForCritical(m, n, k));
        float[] a = random.floats(m * k);
        float[] b = random.floats(k * n);
        float[] c = new float[m * n];
        Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1f, a, k, b, n, 0f, c, n);
        assertTrue(Staging.keptBytes() >= (long) (m * k + k * n + m * n) * Float.BYTES, "the thread keeps its staging block");
        for (int sample = 0; sample < 300; sample++) {
            int i = rnd.nextInt(m);
            int j = rnd.nextInt(n);
            double ref = 0;
            double magnitude = 0;
            for (int p = 0; p < k; p++) {
                double product = (double) a[i * k + p] * b[p * n + j];
                ref += product;
                magnitude += Math.abs(product);
            }
            double bound = k * Math.ulp(1f) * magnitude;
            assertEquals(ref, c[i * n + j], bound, "C[" + i + "][" + j + "]");
        }
    }

    @Test
    void stagingBeyondTheCacheOrOnAVirtualThreadIsFreedWithTheCall() throws InterruptedException {
        MemorySegment oneCall;
        try (Staging.Lease lease = Staging.lease(Staging.CACHE_BYTES + 64)) {
            oneCall = lease.copyOf(ValueLayout.JAVA_INT, new int[] {1, 2, 3}, 3);
            assertArrayEquals(new int[] {1, 2, 3}, oneCall.toArray(ValueLayout.JAVA_INT));
        }
        assertFalse(oneCall.scope().isAlive(), "freed when the call ends");

        long[] kept = {-1};
        Thread.ofVirtual().start(() -> {
            try (Staging.Lease lease = Staging.lease(4096)) {
                lease.copyOf(ValueLayout.JAVA_INT, new int[] {7}, 1);
            }
            kept[0] = Staging.keptBytes();
        }).join();
        assertEquals(0, kept[0], "a virtual thread keeps no block");
    }

    @Test
    void productsOnNativeSegmentsMatchTheArrayProducts() {
        int m = 33;
        int n = 27;
        int k = 41;
        float[] a = random.floats(m * k);
        float[] b = random.floats(k * n);
        float[] c = random.floats(m * n);
        double[] da = random.doubles(m * k);
        double[] db = random.doubles(k * n);
        double[] dc = random.doubles(m * n);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment na = arena.allocateFrom(ValueLayout.JAVA_FLOAT, a);
            MemorySegment nb = arena.allocateFrom(ValueLayout.JAVA_FLOAT, b);
            MemorySegment nc = arena.allocateFrom(ValueLayout.JAVA_FLOAT, c);
            Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.5f, na, k, nb, n, 0.25f, nc, n);
            Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.5f, a, k, b, n, 0.25f, c, n);
            assertArrayEquals(c, nc.toArray(ValueLayout.JAVA_FLOAT), 1e-5f);

            MemorySegment nda = arena.allocateFrom(ValueLayout.JAVA_DOUBLE, da);
            MemorySegment ndb = arena.allocateFrom(ValueLayout.JAVA_DOUBLE, db);
            MemorySegment ndc = arena.allocateFrom(ValueLayout.JAVA_DOUBLE, dc);
            Blas.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, nda, k, ndb, n, 1.0, ndc, n);
            Blas.dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, da, k, db, n, 1.0, dc, n);
            assertArrayEquals(dc, ndc.toArray(ValueLayout.JAVA_DOUBLE), 1e-12);
        }
    }

    @Test
    void segmentsTooSmallOrOnTheHeapAreRefusedBeforeOpenBlasSeesThem() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment square = arena.allocate(ValueLayout.JAVA_FLOAT, 16);
            MemorySegment small = arena.allocate(ValueLayout.JAVA_FLOAT, 15);
            IllegalArgumentException shortC = assertThrows(IllegalArgumentException.class,
                    () -> Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1f, square, 4, square, 4, 0f, small, 4));
            assertEquals("array too short: routine=sgemm array=C length=15 required=16 (rows=4 cols=4 ld=4 row-major)",
                    shortC.getMessage());
            MemorySegment heap = MemorySegment.ofArray(new float[16]);
            IllegalArgumentException onHeap = assertThrows(IllegalArgumentException.class,
                    () -> Blas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1f, heap, 4, square, 4, 0f, square, 4));
            assertTrue(onHeap.getMessage().startsWith("heap segment: routine=sgemm matrix=A"), onHeap.getMessage());
        }
    }
}

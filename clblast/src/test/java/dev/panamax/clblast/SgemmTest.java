package dev.panamax.clblast;

import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClEvent;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * f32 products on the OpenCL device against {@link ReferenceGemm}: shapes that are not multiples of
 * CLBlast's tiles, transposes, offsets and padded leading dimensions, beta accumulation, strided
 * batches sharing B, the event out-pointer, and the statuses CLBlast answers bad arguments with.
 * One context for the class: CLBlast compiles its kernels once per device and keeps them.
 */
class SgemmTest {
    private static OpenClDevice device;

    @BeforeAll
    static void open() throws IOException {
        assertNull(ClBlast.unavailableReason(), "./panamax installs CLBlast (libclblast-dev)");
        device = OpenClDevice.open();
    }

    @AfterAll
    static void close() {
        if (device != null) device.close();
    }

    @ParameterizedTest(name = "m={0} n={1} k={2}")
    @CsvSource({"1,1,1", "1,17,5", "7,1,9", "16,16,16", "17,19,23", "33,5,2"})
    void matchesTheTripleLoop(int m, int n, int k) {
        GemmShape shape = GemmShape.of(m, n, k);
        assertProduct(shape, 1f, 0f, 0, k, 0, n, 0, n, 11L * m + 7L * n + k);
    }

    @ParameterizedTest(name = "transposeA={0} transposeB={1}")
    @CsvSource({"NO,NO", "YES,NO", "NO,YES", "YES,YES"})
    void readsTransposedOperands(Transpose ta, Transpose tb) {
        GemmShape shape = new GemmShape(ta, tb, 5, 7, 3);
        assertProduct(shape, 1f, 0f, 0, (int) shape.minLeadingDimensionA(), 0, (int) shape.minLeadingDimensionB(),
                0, 7, 3);
    }

    @Test
    void honoursOffsetsAndPaddedLeadingDimensionsAndLeavesThePaddingAlone() {
        GemmShape shape = GemmShape.of(6, 5, 4).withBTransposed();
        assertProduct(shape, 1f, 0f, 5, 4 + 3, 2, 4 + 1, 7, 5 + 2, 4);
    }

    @Test
    void accumulatesIntoCWithBetaOne() {
        assertProduct(GemmShape.of(9, 10, 11), 0.5f, 1f, 0, 11, 0, 10, 0, 10, 5);
    }

    @Test
    void runsAStridedBatchWithOneSharedB() {
        int m = 3, n = 4, k = 5, count = 3;
        GemmShape shape = GemmShape.of(m, n, k);
        Random r = new Random(6);
        float[] a = random(r, count * m * k), b = random(r, k * n), c = random(r, count * m * n);
        float[] expected = c.clone();
        for (int i = 0; i < count; i++) {
            ReferenceGemm.gemm(shape, 2f, a, i * m * k, k, b, 0, n, 0.25f, expected, i * m * n, n);
        }
        try (ClMem da = device.buffer(a); ClMem db = device.buffer(b); ClMem dc = device.buffer(c)) {
            ClBlast.sgemmStridedBatched(device.queueHandle(), shape, 2f, DeviceMatrix.of(da.handle(), 0, k),
                    DeviceMatrix.of(db.handle(), 0, n), 0.25f, DeviceMatrix.of(dc.handle(), 0, n),
                    new GemmBatch(count, (long) m * k, 0, (long) m * n), null);
            assertClose(expected, device.readFloats(dc, c.length));
        }
    }

    @Test
    void writesAnEventTheCallerWaitsOnAndReleases() {
        float[] a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
        try (ClMem da = device.buffer(a); ClMem db = device.buffer(b); ClMem dc = device.buffer(new float[4]);
             Arena arena = Arena.ofConfined()) {
            MemorySegment eventOut = arena.allocate(ADDRESS);
            ClBlast.sgemm(device.queueHandle(), GemmShape.of(2, 2, 2), 1f, DeviceMatrix.of(da.handle(), 0, 2),
                    DeviceMatrix.of(db.handle(), 0, 2), 0f, DeviceMatrix.of(dc.handle(), 0, 2), eventOut);
            MemorySegment written = eventOut.get(ADDRESS, 0);
            assertNotEquals(MemorySegment.NULL, written, "CLBlast writes the event of the enqueued product");
            try (ClEvent event = ClEvent.owned(written)) {
                CLApi.clWaitForEvents(new ClEvent[] {event});
            }
            assertClose(new float[] {19, 22, 43, 50}, device.readFloats(dc, 4));
        }
    }

    @Test
    void aLeadingDimensionTooSmallIsKInvalidLeadDimA() {
        try (ClMem da = device.buffer(new float[12]); ClMem db = device.buffer(new float[15]);
             ClMem dc = device.buffer(new float[20])) {
            ClBlastException e = assertThrows(ClBlastException.class, () -> ClBlast.sgemm(device.queueHandle(),
                    GemmShape.of(4, 5, 3), 1f, DeviceMatrix.of(da.handle(), 0, 2), DeviceMatrix.of(db.handle(), 0, 5),
                    0f, DeviceMatrix.of(dc.handle(), 0, 5), null));
            assertEquals("kInvalidLeadDimA", e.errorName());
            assertEquals(-1016, e.code());
            assertEquals("CLBlastSgemm", e.function());
            assertTrue(e.call().isPresent());
            assertTrue(e.getMessage().startsWith("kInvalidLeadDimA (-1016) in CLBlastSgemm: "), e.getMessage());
            assertTrue(e.getMessage().contains("m=4 n=5 k=3"), e.getMessage());
            assertTrue(e.getMessage().contains("A is stored 4x3, so expected its ld >= 3"), e.getMessage());
        }
    }

    @Test
    void aBufferTooSmallForCIsKInsufficientMemoryC() {
        try (ClMem da = device.buffer(new float[12]); ClMem db = device.buffer(new float[15]);
             ClMem dc = device.buffer(new float[19])) {
            ClBlastException e = assertThrows(ClBlastException.class, () -> ClBlast.sgemm(device.queueHandle(),
                    GemmShape.of(4, 5, 3), 1f, DeviceMatrix.of(da.handle(), 0, 3), DeviceMatrix.of(db.handle(), 0, 5),
                    0f, DeviceMatrix.of(dc.handle(), 0, 5), null));
            assertEquals("kInsufficientMemoryC", e.errorName());
            assertTrue(e.getMessage().contains("C's buffer is smaller"), e.getMessage());
        }
    }

    @Test
    void aZeroBatchCountIsKInvalidBatchCount() {
        try (ClMem d = device.buffer(new float[4])) {
            DeviceMatrix x = DeviceMatrix.of(d.handle(), 0, 2);
            ClBlastException e = assertThrows(ClBlastException.class, () -> ClBlast.sgemmStridedBatched(
                    device.queueHandle(), GemmShape.of(2, 2, 2), 1f, x, x, 0f, x, new GemmBatch(0, 4, 4, 4), null));
            assertEquals("kInvalidBatchCount", e.errorName());
            assertEquals("CLBlastSgemmStridedBatched", e.function());
        }
    }

    /**
     * Runs {@code shape} on buffers with A, B and C at the given offsets and leading dimensions (the
     * rest of each buffer filled with values a wrong index would pick up) and compares all of C's
     * buffer, padding included, with the reference.
     */
    private static void assertProduct(GemmShape shape, float alpha, float beta, int offA, int lda, int offB, int ldb,
                                      int offC, int ldc, long seed) {
        Random r = new Random(seed);
        int rowsA = (int) (shape.transposeA() == Transpose.NO ? shape.m() : shape.k());
        int rowsB = (int) (shape.transposeB() == Transpose.NO ? shape.k() : shape.n());
        float[] a = random(r, offA + rowsA * lda + 3);
        float[] b = random(r, offB + rowsB * ldb + 3);
        float[] c = random(r, offC + (int) shape.m() * ldc + 3);
        float[] expected = c.clone();
        ReferenceGemm.gemm(shape, alpha, a, offA, lda, b, offB, ldb, beta, expected, offC, ldc);
        try (ClMem da = device.buffer(a); ClMem db = device.buffer(b); ClMem dc = device.buffer(c)) {
            ClBlast.sgemm(device.queueHandle(), shape, alpha, DeviceMatrix.of(da.handle(), offA, lda),
                    DeviceMatrix.of(db.handle(), offB, ldb), beta, DeviceMatrix.of(dc.handle(), offC, ldc), null);
            assertClose(expected, device.readFloats(dc, c.length));
        }
    }

    static float[] random(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = r.nextFloat() * 2 - 1;
        return v;
    }

    static void assertClose(float[] expected, float[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            float tolerance = 1e-5f * Math.max(1f, Math.abs(expected[i])) * 8;
            assertEquals(expected[i], actual[i], tolerance, "element " + i);
        }
    }
}

package dev.panamax.clblast;

import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * f16 products on the OpenCL device, where it reports {@code cl_khr_fp16} (and kNoHalfPrecision
 * where it does not: PoCL's CPU device here). The inputs are multiples
 * of 0.5 in [-2, 2] and k is small, so every product and partial sum is exact in f16 and the
 * results must equal the reference exactly, whatever order the kernel sums in.
 */
class HgemmTest {
    private static OpenClDevice device;

    @BeforeAll
    static void open() throws IOException {
        device = OpenClDevice.open();
    }

    private static void assumeHalf() {
        assumeTrue(device.hasHalf(), "the OpenCL device '" + device.name()
                + "' does not report cl_khr_fp16, so CLBlast's f16 routines cannot run on it (kNoHalfPrecision)");
    }

    @Test
    void aDeviceWithoutHalfPrecisionAnswersKNoHalfPrecision() {
        assumeFalse(device.hasHalf(), "the OpenCL device '" + device.name() + "' reports cl_khr_fp16");
        try (ClMem d = device.buffer(new short[4])) {
            DeviceMatrix x = DeviceMatrix.of(d.handle(), 0, 2);
            ClBlastException e = assertThrows(ClBlastException.class,
                    () -> ClBlast.hgemm(device.queueHandle(), GemmShape.of(2, 2, 2), 1f, x, x, 0f, x, null));
            assertEquals("kNoHalfPrecision", e.errorName());
            assertTrue(e.getMessage().contains("the device has no half precision (cl_khr_fp16)"), e.getMessage());
        }
    }

    @AfterAll
    static void close() {
        if (device != null) device.close();
    }

    @Test
    void matchesTheTripleLoopWithTransposedBAndBetaOne() {
        assumeHalf();
        GemmShape shape = GemmShape.of(7, 9, 6).withBTransposed();
        float[] a = halves(7 * 6, 1), b = halves(9 * 6, 2), c = halves(7 * 9, 3);
        float[] expected = c.clone();
        ReferenceGemm.gemm(shape, 1f, a, 0, 6, b, 0, 6, 1f, expected, 0, 9);
        try (ClMem da = device.buffer(toHalf(a)); ClMem db = device.buffer(toHalf(b)); ClMem dc = device.buffer(toHalf(c))) {
            ClBlast.hgemm(device.queueHandle(), shape, 1f, DeviceMatrix.of(da.handle(), 0, 6),
                    DeviceMatrix.of(db.handle(), 0, 6), 1f, DeviceMatrix.of(dc.handle(), 0, 9), null);
            assertExact(expected, device.readHalves(dc, c.length));
        }
    }

    @Test
    void runsAStridedBatchWithOneSharedBAtOffsets() {
        assumeHalf();
        int m = 3, n = 5, k = 4, count = 2, offA = 3, offC = 1;
        GemmShape shape = GemmShape.of(m, n, k);
        float[] a = halves(offA + count * m * k, 4), b = halves(k * n, 5), c = halves(offC + count * m * n, 6);
        float[] expected = c.clone();
        for (int i = 0; i < count; i++) {
            ReferenceGemm.gemm(shape, 0.5f, a, offA + i * m * k, k, b, 0, n, 0f, expected, offC + i * m * n, n);
        }
        try (ClMem da = device.buffer(toHalf(a)); ClMem db = device.buffer(toHalf(b)); ClMem dc = device.buffer(toHalf(c))) {
            ClBlast.hgemmStridedBatched(device.queueHandle(), shape, 0.5f, DeviceMatrix.of(da.handle(), offA, k),
                    DeviceMatrix.of(db.handle(), 0, n), 0f, DeviceMatrix.of(dc.handle(), offC, n),
                    new GemmBatch(count, (long) m * k, 0, (long) m * n), null);
            assertExact(expected, device.readHalves(dc, c.length));
        }
    }

    /** Multiples of 0.5 in [-2, 2], from a seed. */
    private static float[] halves(int n, long seed) {
        java.util.Random r = new java.util.Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (r.nextInt(9) - 4) * 0.5f;
        return v;
    }

    private static short[] toHalf(float[] v) {
        short[] h = new short[v.length];
        for (int i = 0; i < v.length; i++) h[i] = Float.floatToFloat16(v[i]);
        return h;
    }

    private static void assertExact(float[] expected, short[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], Float.float16ToFloat(actual[i]), "element " + i);
        }
    }
}

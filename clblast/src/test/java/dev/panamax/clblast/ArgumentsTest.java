package dev.panamax.clblast;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Java refuses before CLBlast is called, each naming the routine, the argument and what was
 * expected. The handles here are never passed to native code: every call fails its checks first.
 */
class ArgumentsTest {
    /** An address that stands for a handle; the calls below never reach CLBlast. */
    private static final MemorySegment SOME_HANDLE = MemorySegment.ofAddress(0x1000);
    private static final DeviceMatrix M = DeviceMatrix.of(SOME_HANDLE, 0, 2);
    private static final GemmShape SHAPE = GemmShape.of(2, 2, 2);

    @Test
    void clBlastLoadsHere() {
        assertNull(ClBlast.unavailableReason());
    }

    @Test
    void aMissingLibraryIsExplainedWithTheInstallCommand() {
        String reason = ClBlast.unavailableReason("libclblast-not-installed.so.1");
        assertTrue(reason.contains("libclblast-not-installed.so.1"), reason);
        assertTrue(reason.endsWith("install it with: sudo apt-get install -y libclblast1"), reason);
    }

    @Test
    void aNullOrNullAddressQueueIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> ClBlast.sgemm(null, SHAPE, 1f, M, M, 0f, M, null));
        assertEquals("CLBlastSgemm: queue (cl_command_queue) is null; expected a live OpenCL handle", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ClBlast.hgemm(MemorySegment.NULL, SHAPE, 1f, M, M, 0f, M, null));
        assertEquals("CLBlastHgemm: queue (cl_command_queue) is NULL; expected a live OpenCL handle", e.getMessage());
    }

    @Test
    void aNullBufferIsRefusedNamingTheOperand() {
        DeviceMatrix nullBuffer = DeviceMatrix.of(MemorySegment.NULL, 0, 2);
        var e = assertThrows(IllegalArgumentException.class,
                () -> ClBlast.sgemm(SOME_HANDLE, SHAPE, 1f, M, nullBuffer, 0f, M, null));
        assertEquals("CLBlastSgemm: b.buffer (cl_mem) is NULL; expected a live OpenCL handle", e.getMessage());
        assertThrows(NullPointerException.class, () -> DeviceMatrix.of(null, 0, 2));
    }

    @Test
    void negativeOffsetsLeadingDimensionsSizesAndStridesAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> ClBlast.sgemmStridedBatched(SOME_HANDLE, SHAPE, 1f,
                M, M, 0f, DeviceMatrix.of(SOME_HANDLE, -1, 2), new GemmBatch(1, 0, 0, 0), null));
        assertEquals("CLBlastSgemmStridedBatched: c.offset=-1; expected an offset >= 0 (elements)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ClBlast.sgemm(SOME_HANDLE, SHAPE, 1f,
                DeviceMatrix.of(SOME_HANDLE, 0, -2), M, 0f, M, null));
        assertEquals("CLBlastSgemm: a.ld=-2; expected a leading dimension >= 0 (elements)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GemmShape.of(2, -1, 2));
        assertTrue(e.getMessage().startsWith("negative GEMM size: m=2 n=-1 k=2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GemmBatch(2, 4, -4, 4));
        assertTrue(e.getMessage().startsWith("negative batch: count=2 strideA=4 strideB=-4"), e.getMessage());
    }

    @Test
    void anEventPointerTooSmallOrOnTheHeapIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment four = arena.allocate(4);
            var e = assertThrows(IllegalArgumentException.class, () -> ClBlast.sgemm(SOME_HANDLE, SHAPE, 1f, M, M, 0f, M, four));
            assertEquals("CLBlastSgemm: event out-pointer is 4 bytes; expected null or a native segment of at least 8 bytes (one cl_event)",
                    e.getMessage());
        }
        var e = assertThrows(IllegalArgumentException.class,
                () -> ClBlast.sgemm(SOME_HANDLE, SHAPE, 1f, M, M, 0f, M, MemorySegment.ofArray(new long[1])));
        assertTrue(e.getMessage().contains("is a heap segment of 8 bytes"), e.getMessage());
    }

    @Test
    void anF16ScalarThatOverflowsIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> ClBlast.hgemm(SOME_HANDLE, SHAPE, 1e5f, M, M, 0f, M, null));
        assertEquals("CLBlastHgemm: alpha=100000.0 overflows f16; expected a value of magnitude <= 65504", e.getMessage());
    }
}

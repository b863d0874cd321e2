package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClMem;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The typed layer checks the memory behind a pointer against what OpenCL will read or write through
 * it, before the call: a host segment smaller than the size it is given, or an origin or region
 * shorter than its three elements, is an IllegalArgumentException naming function and parameter,
 * and the driver never sees it (nothing is written past the end of anything).
 */
class MemoryExtentTest extends PoclTestBase {
    private static final int ROWS = 4;
    private static final int COLUMNS = 8;
    private static final long BYTES = (long) ROWS * COLUMNS * Float.BYTES;

    @Test
    void aHostSegmentSmallerThanTheSizeIsRefusedBeforeTheCall() {
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            MemorySegment whole = arena.allocate(BYTES + 16);
            whole.fill((byte) 0x5A);
            MemorySegment tooSmall = whole.asSlice(0, 16);

            IllegalArgumentException read = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBuffer(queue, buffer, CL.CL_TRUE, 0, BYTES, tooSmall, null, null));
            assertTrue(read.getMessage().contains("function=clEnqueueReadBuffer parameter=ptr byteSize=16 size=" + BYTES),
                    read.getMessage());
            for (long i = 16; i < whole.byteSize(); i++) {
                assertEquals((byte) 0x5A, whole.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " past the slice was written");
            }
            IllegalArgumentException create = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clCreateBuffer(context, CL.CL_MEM_COPY_HOST_PTR, BYTES, tooSmall));
            assertTrue(create.getMessage().contains("function=clCreateBuffer parameter=host_ptr"), create.getMessage());

            // the same calls with enough memory go through
            MemorySegment enough = whole.asSlice(0, BYTES);
            CLApi.clEnqueueFillBuffer(queue, buffer, arena.allocateFrom(ValueLayout.JAVA_FLOAT, 2.5f), Float.BYTES, 0, BYTES, null, null);
            CLApi.clEnqueueReadBuffer(queue, buffer, CL.CL_TRUE, 0, BYTES, enough, null, null);
            for (float f : enough.toArray(ValueLayout.JAVA_FLOAT)) assertEquals(2.5f, f);
        }
    }

    @Test
    void aFillPatternShorterThanItsSizeIsRefused() {
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            MemorySegment pattern = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueFillBuffer(queue, buffer, pattern, 16, 0, BYTES, null, null));
            assertTrue(e.getMessage().contains("parameter=pattern byteSize=4 pattern_size=16"), e.getMessage());
        }
    }

    @Test
    void aRectangleIsReadWithThreeElementOriginsAndRegionsAndRefusedWithShorterOnes() {
        float[] values = new float[ROWS * COLUMNS];
        for (int i = 0; i < values.length; i++) values[i] = i;
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE | CL.CL_MEM_COPY_HOST_PTR, BYTES,
                     arena.allocateFrom(ValueLayout.JAVA_FLOAT, values))) {
            // rows 1-2, columns 3-5 of the 4 x 8 matrix, into a packed 2 x 3 host block
            long rowPitch = COLUMNS * Float.BYTES;
            MemorySegment host = arena.allocate(2 * 3 * Float.BYTES);
            long[] bufferOrigin = {3 * Float.BYTES, 1, 0};
            long[] hostOrigin = {0, 0, 0};
            long[] region = {3 * Float.BYTES, 2, 1};
            CLApi.clEnqueueReadBufferRect(queue, buffer, CL.CL_TRUE, bufferOrigin, hostOrigin, region,
                    rowPitch, 0, 3 * Float.BYTES, 0, host, null, null);
            assertArrayEquals(new float[] {11, 12, 13, 19, 20, 21}, host.toArray(ValueLayout.JAVA_FLOAT));

            IllegalArgumentException shortRegion = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBufferRect(queue, buffer, CL.CL_TRUE, bufferOrigin, hostOrigin, new long[] {12, 2},
                            rowPitch, 0, 12, 0, host, null, null));
            assertTrue(shortRegion.getMessage().contains("array shorter than the 3 elements C uses: function=clEnqueueReadBufferRect"
                    + " parameter=region length=2"), shortRegion.getMessage());

            MemorySegment twoElements = arena.allocate(ValueLayout.JAVA_LONG, 2);
            IllegalArgumentException shortSegment = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBufferRect(queue, buffer, CL.CL_TRUE, twoElements,
                            arena.allocate(ValueLayout.JAVA_LONG, 3), arena.allocate(ValueLayout.JAVA_LONG, 3),
                            rowPitch, 0, 12, 0, host, null, null));
            assertTrue(shortSegment.getMessage().contains("parameter=buffer_origin byteSize=16 length=3 elementBytes=8"),
                    shortSegment.getMessage());
        }
    }
}

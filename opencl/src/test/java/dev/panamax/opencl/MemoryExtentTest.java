package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
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
    void aReadTakesItsSizeFromTheSegmentAndWritesNothingPastIt() {
        try (Arena arena = Arena.ofConfined();
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            MemorySegment whole = arena.allocate(BYTES + 16);
            whole.fill((byte) 0x5A);
            CLApi.clEnqueueFillBuffer(queue, buffer, new float[] {2.5f}, 0, BYTES, null, null);
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, whole.asSlice(0, 16), null, null);
            for (long i = 0; i < 16; i += Float.BYTES) assertEquals(2.5f, whole.get(ValueLayout.JAVA_FLOAT, i));
            for (long i = 16; i < whole.byteSize(); i++) {
                assertEquals((byte) 0x5A, whole.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " past the slice was written");
            }
            // an address from C has no size to take: refused, not read as zero bytes
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, MemorySegment.ofAddress(whole.address()), null, null));
            assertTrue(unknown.getMessage().contains("segment of unknown size") && unknown.getMessage().contains("parameter=ptr"),
                    unknown.getMessage());
            // where the size stays a parameter (host memory is optional), a segment smaller than it is refused
            IllegalArgumentException create = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clCreateBuffer(context, CL.CL_MEM_COPY_HOST_PTR, BYTES, whole.asSlice(0, 16)));
            assertTrue(create.getMessage().contains("function=clCreateBuffer parameter=host_ptr"), create.getMessage());
        }
    }

    @Test
    void javaArraysAreReadAndWrittenWithTheirOwnSizeAndOnlyBlocking() {
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            float[] values = new float[ROWS * COLUMNS];
            for (int i = 0; i < values.length; i++) values[i] = i * 0.5f;
            CLApi.clEnqueueWriteBuffer(queue, buffer, true, 0, values, null, null);
            float[] back = new float[values.length];
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back, null, null);
            assertArrayEquals(values, back);
            int[] bits = new int[2];
            CLApi.clEnqueueReadBuffer(queue, buffer, true, Float.BYTES, bits, null, null);
            assertEquals(Float.floatToRawIntBits(0.5f), bits[0]);
            // the array is staged for the call only: a read that may finish after the call returns is refused
            IllegalArgumentException async = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBuffer(queue, buffer, false, 0, back, null, null));
            assertTrue(async.getMessage().contains("blocking_read=false"), async.getMessage());
        }
    }

    @Test
    void aFillPatternIsItsOwnSize() {
        try (ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, BYTES, null)) {
            CLApi.clEnqueueFillBuffer(queue, buffer, new int[] {1, 2}, 0, BYTES, null, null);
            int[] back = new int[4];
            CLApi.clEnqueueReadBuffer(queue, buffer, true, 0, back, null, null);
            assertArrayEquals(new int[] {1, 2, 1, 2}, back);
            // 3 bytes is no pattern size OpenCL knows: its status, from the pattern's own length
            CLException e = assertThrows(CLException.class,
                    () -> CLApi.clEnqueueFillBuffer(queue, buffer, new byte[3], 0, BYTES, null, null));
            assertEquals(CL.CL_INVALID_VALUE, e.code());
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
            CLApi.clEnqueueReadBufferRect(queue, buffer, true, bufferOrigin, hostOrigin, region,
                    rowPitch, 0, 3 * Float.BYTES, 0, host, null, null);
            assertArrayEquals(new float[] {11, 12, 13, 19, 20, 21}, host.toArray(ValueLayout.JAVA_FLOAT));

            IllegalArgumentException shortRegion = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBufferRect(queue, buffer, true, bufferOrigin, hostOrigin, new long[] {12, 2},
                            rowPitch, 0, 12, 0, host, null, null));
            assertTrue(shortRegion.getMessage().contains("array shorter than the 3 elements C uses: function=clEnqueueReadBufferRect"
                    + " parameter=region length=2"), shortRegion.getMessage());

            MemorySegment twoElements = arena.allocate(ValueLayout.JAVA_LONG, 2);
            IllegalArgumentException shortSegment = assertThrows(IllegalArgumentException.class,
                    () -> CLApi.clEnqueueReadBufferRect(queue, buffer, true, twoElements,
                            arena.allocate(ValueLayout.JAVA_LONG, 3), arena.allocate(ValueLayout.JAVA_LONG, 3),
                            rowPitch, 0, 12, 0, host, null, null));
            assertTrue(shortSegment.getMessage().contains("parameter=buffer_origin byteSize=16 length=3 elementBytes=8"),
                    shortSegment.getMessage());
        }
    }
}

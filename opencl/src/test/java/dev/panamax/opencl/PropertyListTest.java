package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Zero-terminated property lists (declared {@code terminated: true}) reach OpenCL terminated whether
 * or not the Java array ends with its own 0: the typed layer passes zeros after the array.
 */
class PropertyListTest extends PoclTestBase {
    @Test
    void aContextListWithOrWithoutItsZeroReachesOpenClTerminated() {
        long platformAddress = platform.handle().address();
        for (long[] properties : new long[][] {
                {CL.CL_CONTEXT_PLATFORM, platformAddress},
                {CL.CL_CONTEXT_PLATFORM, platformAddress, 0}}) {
            try (ClContext c = CLApi.clCreateContext(properties, new ClDeviceId[] {device}, null);
                 Arena arena = Arena.ofConfined()) {
                long[] size = new long[1];
                CLApi.clGetContextInfo(c, CL.CL_CONTEXT_PROPERTIES, 0, null, size);
                MemorySegment stored = arena.allocate(size[0]);
                CLApi.clGetContextInfo(c, CL.CL_CONTEXT_PROPERTIES, size[0], stored, null);
                assertArrayEquals(new long[] {CL.CL_CONTEXT_PLATFORM, platformAddress, 0}, stored.toArray(ValueLayout.JAVA_LONG),
                        "the properties OpenCL kept for " + java.util.Arrays.toString(properties));
            }
        }
    }

    @Test
    void aQueueListWithoutItsZeroTurnsProfilingOn() {
        try (ClCommandQueue q = CLApi.clCreateCommandQueueWithProperties(context, device,
                new long[] {CL.CL_QUEUE_PROPERTIES, CL.CL_QUEUE_PROFILING_ENABLE});
             Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
            CLApi.clGetCommandQueueInfo(q, CL.CL_QUEUE_PROPERTIES, value.byteSize(), value, null);
            assertEquals(CL.CL_QUEUE_PROFILING_ENABLE, value.get(ValueLayout.JAVA_LONG, 0));
        }
    }
}

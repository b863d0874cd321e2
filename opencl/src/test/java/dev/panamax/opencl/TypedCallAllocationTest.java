package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The generated typed layer allocates nothing on the Java heap for a call with handles, a staged
 * Java array, arrays feeding one length parameter and a checked status: an enqueue and a clFinish,
 * as in the dispatch benchmark, once warm.
 */
class TypedCallAllocationTest extends PoclTestBase {
    static final String SOURCE = "__kernel void inc(__global float *a) { a[get_global_id(0)] += 1.0f; }";
    static final int WARMUP = 15_000;
    static final int CALLS = 5_000;

    @Test
    void enqueueAndFinishAllocateNothing() {
        long[] globalSize = {16};
        try (Arena arena = Arena.ofConfined();
             ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "inc");
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 16 * Float.BYTES, null)) {
            MemorySegment bufferArg = arena.allocate(ValueLayout.ADDRESS);
            bufferArg.set(ValueLayout.ADDRESS, 0, buffer.handle());
            CLApi.clSetKernelArg(kernel, 0, ValueLayout.ADDRESS.byteSize(), bufferArg);
            for (int i = 0; i < WARMUP; i++) roundTrip(kernel, globalSize);
            long before = allocatedByThisThread();
            for (int i = 0; i < CALLS; i++) roundTrip(kernel, globalSize);
            long allocated = allocatedByThisThread() - before;
            // a little slack for a stray JIT or GC bookkeeping object; one object per call would be 200 KB
            assertTrue(allocated < 16_000, "allocated " + allocated + " bytes in " + CALLS + " round trips");
        }
    }

    private static void roundTrip(ClKernel kernel, long[] globalSize) {
        CLApi.clEnqueueNDRangeKernel(queue, kernel, null, globalSize, null, null, null);
        CLApi.clFinish(queue);
    }

    /** Bytes the current thread has allocated (HotSpot's {@code com.sun.management.ThreadMXBean}), read reflectively. */
    private static long allocatedByThisThread() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("thread allocation counter unavailable", e);
        }
    }
}

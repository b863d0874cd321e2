package dev.panamax.opencl;

import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClProgram;
import dev.panamax.testsupport.ThreadAllocation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The JVM {@link TypedCallAllocationTest} starts: warm typed round trips (enqueue with a staged
 * {@code long[]}, arrays feeding one length, a checked status, then clFinish), and prints
 * {@code allocatedBytes=N} for {@code CALLS} more of them. Releases everything it made.
 */
public final class TypedCallAllocationChild {
    static final String SOURCE = "__kernel void inc(__global float *a) { a[get_global_id(0)] += 1.0f; }";
    static final int WARMUP = 15_000;
    static final int CALLS = 5_000;

    private TypedCallAllocationChild() {}

    public static void main(String[] args) {
        ClDeviceId device = OpenCl.devices(OpenCl.platforms().getFirst(), CL.CL_DEVICE_TYPE_ALL).getFirst();
        long[] globalSize = {16};
        try (ClContext context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
             ClCommandQueue queue = OpenCl.queue(context, device);
             ClProgram program = OpenCl.buildProgram(context, device, SOURCE, "");
             ClKernel kernel = CLApi.clCreateKernel(program, "inc");
             ClMem buffer = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, 16 * Float.BYTES, null);
             Arena arena = Arena.ofConfined()) {
            MemorySegment bufferArg = arena.allocate(ValueLayout.ADDRESS);
            bufferArg.set(ValueLayout.ADDRESS, 0, buffer.handle());
            CLApi.clSetKernelArg(kernel, 0, ValueLayout.ADDRESS.byteSize(), bufferArg);
            for (int i = 0; i < WARMUP; i++) roundTrip(queue, kernel, globalSize);
            long before = ThreadAllocation.bytes();
            for (int i = 0; i < CALLS; i++) roundTrip(queue, kernel, globalSize);
            long allocated = ThreadAllocation.bytes() - before;
            System.out.println("allocatedBytes=" + allocated + " calls=" + CALLS);
        }
    }

    private static void roundTrip(ClCommandQueue queue, ClKernel kernel, long[] globalSize) {
        CLApi.clEnqueueNDRangeKernel(queue, kernel, null, globalSize, null, null, null);
        CLApi.clFinish(queue);
    }
}

package dev.panamax.opencl.misuse;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLThunks;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A batch records a fill of a buffer and a kernel on it, then the kernel and the buffer are closed (and
 * a typed release drops an extra reference of the queue) before the batch is replayed: the batch kept
 * them alive, the replays run, the objects are freed when the batch closes, and the closed handles
 * refuse Java use meanwhile. (A buffer that is only a kernel's argument is the kernel's business in
 * OpenCL: the batch keeps what it records.)
 */
public final class ReplayAfterClose {
    public static void main(String[] args) {
        try (Device d = new Device(); Arena arena = Arena.ofConfined()) {
            ClMem buffer = d.buffer(64 * Float.BYTES);
            ClKernel kernel = d.kernel(buffer);
            MemorySegment global = arena.allocateFrom(ValueLayout.JAVA_LONG, 64);
            MemorySegment one = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f);
            try (Batch batch = Batch.create(BatchMode.STANDARD)) {
                CLThunks.clEnqueueFillBuffer.record(batch, d.queue, buffer, one, Float.BYTES, 0, 64 * Float.BYTES, 0, null, null);
                CLThunks.clEnqueueNDRangeKernel.record(batch, d.queue, kernel, 1, null, global, null, 0, null, null);
                CLThunks.clFinish.record(batch, d.queue);
                kernel.close();
                buffer.close();
                d.queue.retain();
                CLApi.clReleaseCommandQueue(d.queue);
                for (int i = 0; i < 10; i++) batch.run();
                try {
                    CLApi.clGetKernelInfo(kernel, CL.CL_KERNEL_NUM_ARGS, 4, arena.allocate(4), (long[]) null);
                    throw new AssertionError("a closed kernel reached the library");
                } catch (HandleReleasedException expected) {
                    // the handle is closed for Java; only the batch still uses the object
                }
            }
        }
    }
}

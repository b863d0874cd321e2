package dev.panamax.opencl.misuse;

import dev.panamax.core.memory.CallGuard;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.Outstanding;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClPlatformId;
import dev.panamax.opencl.binding.ClProgram;

import java.util.List;

/**
 * What a misuse case's {@code main} starts from: the first OpenCL device (PoCL's CPU device), a context
 * and a queue, closed at the end, after which {@link #close()} checks that nothing was left: every
 * handle the case made is released (a release deferred by a call still running included).
 */
final class Device implements AutoCloseable {
    static final String KERNEL = "__kernel void scale(__global float *x) { x[get_global_id(0)] *= 2.0f; }";

    final ClDeviceId device;
    final ClContext context;
    final ClCommandQueue queue;
    private final long checkpoint = NativeMemory.checkpoint();

    Device() {
        ClDeviceId found = null;
        for (ClPlatformId p : OpenCl.platforms()) {
            List<ClDeviceId> devices = OpenCl.devices(p, CL.CL_DEVICE_TYPE_ALL);
            if (!devices.isEmpty()) {
                found = devices.getFirst();
                break;
            }
        }
        if (found == null) throw new IllegalStateException("no OpenCL device (./panamax installs PoCL)");
        device = found;
        context = CLApi.clCreateContext((long[]) null, new ClDeviceId[] {device}, null);
        queue = OpenCl.queue(context, device);
    }

    ClMem buffer(long bytes) {
        return CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null);
    }

    ClProgram program() {
        return OpenCl.buildProgram(context, device, KERNEL, "");
    }

    /** A kernel of {@link #program()} with {@code buffer} as its argument; the program is released. */
    ClKernel kernel(ClMem buffer) {
        try (ClProgram p = program()) {
            ClKernel k = CLApi.clCreateKernel(p, "scale");
            OpenCl.setArg(k, 0, buffer);
            return k;
        }
    }

    @Override
    public void close() {
        queue.close();
        context.close();
        awaitNoneOutstanding(checkpoint);
    }

    /** Waits (up to 10 s) for deferred releases, then fails if any handle made since {@code checkpoint} is open. */
    static void awaitNoneOutstanding(long checkpoint) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (CallGuard.deferredReleases() > 0 && System.nanoTime() < deadline) Thread.onSpinWait();
        List<Outstanding> open = NativeMemory.outstandingSince(checkpoint);
        if (!open.isEmpty()) {
            throw new AssertionError("handles left open: " + open.stream().map(Outstanding::describe).toList()
                    + " deferredReleases=" + CallGuard.deferredReleases());
        }
    }
}

package dev.panamax.bench.compute;

import dev.panamax.bench.opencl.TinyKernel;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClPlatformId;
import dev.panamax.opencl.binding.ClProgram;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * What the compute backend's gated submission is worth, on the raw calls alone: {@code n} tiny
 * dispatches enqueued as they come (the last with an event, a flush, a wait on it), or the same with
 * the first one waiting for a user event that is set after the flush, so the device gets all
 * {@code n} at once. The compute backend gates a command buffer from the count where this starts to pay.
 */
final class GatedEnqueues implements AutoCloseable {
    /** The command counts measured. */
    static final int[] COUNTS = {5, 20, 40, 64, 100, 300, 1000};

    private final Arena arena = Arena.ofConfined();
    private final ClContext context;
    private final ClCommandQueue queue;
    private final ClProgram program;
    private final ClKernel kernel;
    private final ClMem buffer;
    private final MemorySegment q, k, ctx;
    private final MemorySegment globalSize, eventOut, waitList, err;

    GatedEnqueues() {
        List<ClPlatformId> platforms = OpenCl.platforms();
        if (platforms.isEmpty()) throw new IllegalStateException("no OpenCL platform: ./panamax installs the ICD loader and PoCL");
        ClDeviceId device = OpenCl.devices(platforms.getFirst(), CL.CL_DEVICE_TYPE_ALL).getFirst();
        context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
        ClCommandQueue cq = null;
        ClProgram p = null;
        ClKernel kk = null;
        ClMem b = null;
        try {
            cq = OpenCl.queue(context, device);
            p = OpenCl.buildProgram(context, device, TinyKernel.SOURCE, "");
            kk = CLApi.clCreateKernel(p, TinyKernel.NAME);
            long bytes = (long) TinyKernel.ELEMENTS * Float.BYTES;
            b = CLApi.clCreateBuffer(context, CL.CL_MEM_READ_WRITE | CL.CL_MEM_COPY_HOST_PTR, bytes, arena.allocate(bytes)); // zeroed
            OpenCl.setArg(kk, 0, b);
            OpenCl.setArg(kk, 1, TinyKernel.ADDEND);
            CLApi.clSetKernelArg(kk, 2, Integer.BYTES, arena.allocateFrom(ValueLayout.JAVA_INT, TinyKernel.ELEMENTS));
        } catch (Throwable t) {
            try (ClContext _ = context; ClCommandQueue _ = cq; ClProgram _ = p; ClKernel _ = kk; ClMem _ = b) {
                throw t;
            }
        }
        queue = cq;
        program = p;
        kernel = kk;
        buffer = b;
        q = queue.handle();
        k = kernel.handle();
        ctx = context.handle();
        globalSize = arena.allocateFrom(ValueLayout.JAVA_LONG, TinyKernel.GLOBAL_SIZE);
        eventOut = arena.allocate(ValueLayout.ADDRESS);
        waitList = arena.allocate(ValueLayout.ADDRESS);
        err = arena.allocate(ValueLayout.JAVA_INT);
    }

    /** {@code n} tiny dispatches, gated or not, enqueued and waited for; µs for all of them. */
    double run(int n, boolean gated) {
        long t = System.nanoTime();
        MemorySegment gate = null;
        if (gated) {
            gate = CL.clCreateUserEvent(ctx, err);
            check(err.get(ValueLayout.JAVA_INT, 0), "clCreateUserEvent");
            waitList.set(ValueLayout.ADDRESS, 0, gate);
        }
        try {
            for (int i = 0; i < n; i++) {
                boolean first = gated && i == 0;
                check(CL.clEnqueueNDRangeKernel(q, k, 1, MemorySegment.NULL, globalSize, MemorySegment.NULL, first ? 1 : 0,
                        first ? waitList : MemorySegment.NULL, i == n - 1 ? eventOut : MemorySegment.NULL), "clEnqueueNDRangeKernel");
            }
            check(CL.clFlush(q), "clFlush");
        } finally {
            if (gate != null) {
                check(CL.clSetUserEventStatus(gate, CL.CL_COMPLETE), "clSetUserEventStatus");
                CL.clReleaseEvent(gate);
            }
        }
        MemorySegment event = eventOut.get(ValueLayout.ADDRESS, 0);
        waitList.set(ValueLayout.ADDRESS, 0, event);
        try {
            check(CL.clWaitForEvents(1, waitList), "clWaitForEvents");
        } finally {
            CL.clReleaseEvent(event);
        }
        return (System.nanoTime() - t) / 1e3;
    }

    /** The first element of the kernel's buffer: {@link TinyKernel#ADDEND} per dispatch run so far. */
    float firstElement() {
        MemorySegment out = arena.allocate(ValueLayout.JAVA_FLOAT);
        check(CL.clEnqueueReadBuffer(q, buffer.handle(), CL.CL_TRUE, 0, Float.BYTES, out, 0, MemorySegment.NULL, MemorySegment.NULL),
                "clEnqueueReadBuffer");
        return out.get(ValueLayout.JAVA_FLOAT, 0);
    }

    private static void check(int status, String call) {
        if (status != CL.CL_SUCCESS) throw new IllegalStateException(call + " returned " + CLException.nameOf("cl_status", status) + " (" + status + ")");
    }

    @Override
    public void close() {
        try (Arena _ = arena; ClContext _ = context; ClCommandQueue _ = queue; ClMem _ = buffer; ClProgram _ = program; ClKernel _ = kernel) {
            CL.clFinish(q);
        }
    }
}

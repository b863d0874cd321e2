package dev.panamax.bench.opencl;

import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClKernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
import java.util.List;

/**
 * The baseline of the race-safe handles: the typed {@code clEnqueueNDRangeKernel} (segment work sizes,
 * no wait list, no event) and {@code clFinish} exactly as the generated typed layer made them before
 * the in-call guard, step by step: the null and extent checks, each handle's address read after its
 * liveness check ({@code NativeHandle.address()}), the same by-address downcalls (same symbol, layouts
 * and tier, so the same linked handle from the cache), the reachability fences and the status checks.
 * What it lacks is only the guard: a close on another thread during the call frees the object under it.
 */
final class UnguardedTyped {
    private static final NativeLibrary OPENCL = NativeLibrary.loadFirst(List.of("libOpenCL.so.1", "OpenCL"));
    private static final MethodHandle ENQUEUE = OPENCL.function("clEnqueueNDRangeKernel").returns(ValueLayout.JAVA_INT)
            .params(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG)
            .tier(Tier.STANDARD).link();
    private static final MethodHandle FINISH = OPENCL.function("clFinish").returns(ValueLayout.JAVA_INT)
            .params(ValueLayout.JAVA_LONG).tier(Tier.STANDARD).link();

    private UnguardedTyped() {}

    static void clEnqueueNDRangeKernel(ClCommandQueue queue, ClKernel kernel, int workDim, MemorySegment offset,
                                       MemorySegment global, MemorySegment local) {
        check(queue, kernel, workDim, offset, global, local);
        int result;
        try {
            MemorySegment off = offset == null ? MemorySegment.NULL : offset;
            MemorySegment loc = local == null ? MemorySegment.NULL : local;
            result = (int) ENQUEUE.invokeExact(addressOf(queue), addressOf(kernel), workDim, off, global, loc, 0, 0L, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        Reference.reachabilityFence(queue);
        Reference.reachabilityFence(kernel);
        Reference.reachabilityFence(offset);
        Reference.reachabilityFence(global);
        Reference.reachabilityFence(local);
        status(result, "clEnqueueNDRangeKernel");
    }

    static void clFinish(ClCommandQueue queue) {
        notNull(queue, "clFinish", "command_queue");
        int result;
        try {
            result = (int) FINISH.invokeExact(addressOf(queue));
        } catch (Throwable t) {
            throw rethrow(t);
        }
        Reference.reachabilityFence(queue);
        status(result, "clFinish");
    }

    private static void check(ClCommandQueue queue, ClKernel kernel, int workDim, MemorySegment offset, MemorySegment global,
                              MemorySegment local) {
        notNull(queue, "clEnqueueNDRangeKernel", "command_queue");
        notNull(kernel, "clEnqueueNDRangeKernel", "kernel");
        notNull(global, "clEnqueueNDRangeKernel", "global_work_size");
        fits("global_work_offset", offset, Integer.toUnsignedLong(workDim));
        fits("global_work_size", global, Integer.toUnsignedLong(workDim));
        fits("local_work_size", local, Integer.toUnsignedLong(workDim));
    }

    private static long addressOf(dev.panamax.core.memory.NativeHandle h) {
        return h == null ? 0L : h.address();
    }

    private static void notNull(Object value, String function, String parameter) {
        if (value == null) throw new NullPointerException("null: function=" + function + " parameter=" + parameter);
    }

    private static void fits(String parameter, MemorySegment segment, long count) {
        if (segment == null) return;
        long size = segment.byteSize();
        if (count >= 0 && count <= Long.MAX_VALUE / 8 && count * 8 <= size) return;
        if (size == 0 && segment.isNative()) return;
        throw new IllegalArgumentException("segment smaller than its length: parameter=" + parameter);
    }

    private static void status(int code, String function) {
        if (code != 0) throw new IllegalStateException(function + " failed: " + code);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}

package dev.panamax.opencl.binding;

import dev.panamax.core.Checks;
import dev.panamax.core.binding.ArgumentChecks;
import dev.panamax.core.binding.Staging;
import dev.panamax.core.call.ScratchStack;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;

/**
 * The baseline of the race-safe handles: the typed {@code clEnqueueNDRangeKernel} (segment work sizes) and
 * {@code clFinish} exactly as bindgen generated them into {@link CLApi} before the in-call guard, statement
 * for statement: the argument checks behind {@link Checks#CHECKS} (outlined for the enqueue), the scratch
 * frame taken only for wait lists and events, each handle's address read after its liveness check
 * ({@link Staging#addressOf}), the same by-address downcalls ({@link CLByAddress}), the reachability fences,
 * and the status checked by {@link CLException}'s check method on every return. It lives in the binding's
 * package, on the benchmark's class path, to call those package-private classes as the generated code did.
 * What it lacks is the guard: a close on another thread during the call frees the object under it.
 */
public final class UnguardedTyped {
    private UnguardedTyped() {}

    public static void clEnqueueNDRangeKernel(ClCommandQueue command_queue, ClKernel kernel, int work_dim, MemorySegment global_work_offset,
                                              MemorySegment global_work_size, MemorySegment local_work_size, ClEvent[] event_wait_list, ClEvent[] event) {
        if (Checks.CHECKS) check(command_queue, kernel, work_dim, global_work_offset, global_work_size, local_work_size, event_wait_list, event);
        int $num_events_in_wait_list = (event_wait_list == null ? 0 : event_wait_list.length);
        try (ScratchStack.Frame $$frame = event_wait_list == null && event == null ? null : ScratchStack.push()) {
            MemorySegment $event_wait_list = Staging.handles($$frame, event_wait_list);
            MemorySegment $event = Staging.slots($$frame, event);
            int $$result = CLByAddress.clEnqueueNDRangeKernel(Staging.addressOf(command_queue), Staging.addressOf(kernel), work_dim,
                    global_work_offset == null ? MemorySegment.NULL : global_work_offset, global_work_size,
                    local_work_size == null ? MemorySegment.NULL : local_work_size, $num_events_in_wait_list,
                    $event_wait_list.address(), $event.address());
            Reference.reachabilityFence(command_queue);
            Reference.reachabilityFence(kernel);
            Reference.reachabilityFence(global_work_offset);
            Reference.reachabilityFence(global_work_size);
            Reference.reachabilityFence(local_work_size);
            Reference.reachabilityFence(event_wait_list);
            CLException.check_cl_status((long) $$result, "clEnqueueNDRangeKernel");
            if (event != null) {
                for (int $$i = 0; $$i < 1; $$i++) {
                    event[$$i] = ClEvent.owned($event.getAtIndex(ValueLayout.ADDRESS, $$i));
                }
            }
        }
    }

    private static void check(ClCommandQueue command_queue, ClKernel kernel, int work_dim, MemorySegment global_work_offset,
                              MemorySegment global_work_size, MemorySegment local_work_size, ClEvent[] event_wait_list, ClEvent[] event) {
        ArgumentChecks.notNull(command_queue, "clEnqueueNDRangeKernel", "command_queue");
        ArgumentChecks.notNull(kernel, "clEnqueueNDRangeKernel", "kernel");
        ArgumentChecks.notNull(global_work_size, "clEnqueueNDRangeKernel", "global_work_size");
        if (event != null) ArgumentChecks.atLeast("clEnqueueNDRangeKernel", "event", event.length, 1);
        ArgumentChecks.fits("clEnqueueNDRangeKernel", "global_work_offset", "work_dim", global_work_offset, Integer.toUnsignedLong(work_dim), 8);
        ArgumentChecks.fits("clEnqueueNDRangeKernel", "global_work_size", "work_dim", global_work_size, Integer.toUnsignedLong(work_dim), 8);
        ArgumentChecks.fits("clEnqueueNDRangeKernel", "local_work_size", "work_dim", local_work_size, Integer.toUnsignedLong(work_dim), 8);
    }

    public static void clFinish(ClCommandQueue command_queue) {
        if (Checks.CHECKS) {
            ArgumentChecks.notNull(command_queue, "clFinish", "command_queue");
        }
        int $$result = CLByAddress.clFinish(Staging.addressOf(command_queue));
        Reference.reachabilityFence(command_queue);
        CLException.check_cl_status((long) $$result, "clFinish");
    }
}

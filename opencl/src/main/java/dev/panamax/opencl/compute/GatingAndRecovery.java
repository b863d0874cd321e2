package dev.panamax.opencl.compute;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The gate a large batch is submitted behind, and what a replay does when a batch fails part-way.
 *
 * <p>A gated batch's first enqueue waits for a user event that is set only after the last enqueue,
 * so the device receives the whole command list at once, as Metal runs a committed command buffer,
 * instead of waking for each command while the host is still enqueueing the next
 * ({@link ReplayPlanner#GATED_FROM}). The gate is opened whatever happens, so the commands enqueued
 * before a failure still run.
 *
 * <p>When a call fails, the calls after it did not run: every kernel's argument state is forgotten
 * (the device's argument epoch moves on), the failure names the command and argument it was for, and
 * a marker gives the run its completion event when the failing call was to give it.
 */
final class GatingAndRecovery {
    private final OpenClDevice device;
    private final MemorySegment queue;

    GatingAndRecovery(OpenClDevice device, MemorySegment queue) {
        this.device = device;
        this.queue = queue;
    }

    /**
     * A new user event for a batch's first enqueue to wait for, its handle written at {@code slot} of
     * {@code staging} (the wait list); null (no gate) when the driver cannot make one.
     */
    MemorySegment closedGate(MemorySegment staging, long slot) {
        MemorySegment event = CL.clCreateUserEvent(device.context(), MemorySegment.NULL);
        if (event.equals(MemorySegment.NULL)) return null;
        staging.set(ValueLayout.JAVA_LONG, slot, event.address());
        return event;
    }

    /** Sets the gate's user event complete, which starts the gated commands, and releases it. */
    static void open(MemorySegment gate) {
        int status = CL.clSetUserEventStatus(gate, CL.CL_COMPLETE);
        CL.clReleaseEvent(gate);
        if (status != CL.CL_SUCCESS)
            throw new IllegalStateException("clSetUserEventStatus returned " + CLException.nameOf("cl_status", status) + " (" + status + ")");
    }

    /** After a failed call: no kernel's arguments are known any more (the calls after it did not run). */
    void forgetKernelArguments() {
        device.argumentsEpoch++;
    }

    /** A marker whose event goes to {@code eventAddress}: it completes when every command enqueued before it has. */
    void markCompletion(long eventAddress) {
        int status = CL.clEnqueueMarkerWithWaitList(queue, 0, MemorySegment.NULL, MemorySegment.ofAddress(eventAddress));
        if (status == CL.CL_SUCCESS) CL.clFlush(queue);
        else CL.clFinish(queue);
    }

    /** The failure of a planned call, naming the command (and argument) it was for. */
    static CommandBufferException failure(BatchFailedException e, ReplayPlan plan, Submission submission) {
        int entry = e.index();
        int command = entry < plan.size() ? plan.command(entry) : -1;
        String status = CLException.nameOf("cl_status", e.code()) + " (" + e.code() + ")";
        if (command < 0) return new CommandBufferException(submission.label() + ": " + e.function() + " returned " + status, -1, e);
        int argument = plan.argument(entry);
        String what = argument >= 0
                ? "setting " + argumentName(submission.commands(), command, argument) + " failed: " + e.function() + " returned " + status
                : e.function() + " returned " + status;
        return OpenClQueue.failure(submission, command, what, e);
    }

    /** Argument {@code argument} of command {@code command}, by the pipeline's description of it when it has one. */
    static String argumentName(List<Command> commands, int command, int argument) {
        if (commands.get(command) instanceof Command.Dispatch d && argument < d.pipeline().arguments().size())
            return "argument " + d.pipeline().arguments().get(argument).describe();
        return "argument " + argument;
    }
}

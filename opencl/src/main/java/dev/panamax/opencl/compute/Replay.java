package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * A queue's executor of replay plans: turns a submission into plans ({@link ReplayPlanner}), writes
 * each into the queue's {@link RecordedBatch} and runs it, one crossing per batch, under the device's
 * replay lock, so one replay at a time uses the queue's staging memory; once the plan, the batch and
 * the staging have grown to the queue's command buffers, a commit allocates none of them again. It also
 * answers the planner's questions ({@link PlanResolver}) against the device: each buffer a command
 * names is held for the run, and the views and transient buffers a dispatch needs are released after
 * the call (the commands hold their own references).
 *
 * <p>A submission without native commands runs as one batch; one with native commands
 * ({@link Command.Native}) as several: the commands before a native command as one batch (gated on
 * its own when it is large, the gate opened before the call), then the native command, called on this
 * thread with the queue, then the rest. A native command last is followed by a marker, whose event
 * completes the run. Gates and failures: {@link GatingAndRecovery}.
 */
final class Replay implements PlanResolver {
    private final OpenClQueue queue;
    private final OpenClDevice device;
    /** Holds the batch and the staging memory, so that a dropped queue's release frees them. */
    private final QueueResources resources;
    private final ReplayPlanner planner;
    private final ReplayPlan plan = new ReplayPlan();
    private final RecordedBatch batch;
    private final GatingAndRecovery gates;
    private final List<MemorySegment> transients = new ArrayList<>();
    /** Sizes, argument values and fill patterns: read by the driver during the call, reused by the next replay. */
    private HostArea staging;

    // the replay under way
    private Submission submission;
    private Run run;

    Replay(OpenClQueue queue) {
        this.queue = queue;
        this.device = queue.device();
        this.resources = queue.resources();
        this.planner = new ReplayPlanner(queue.address().address(), this);
        this.batch = new RecordedBatch(resources);
        this.gates = new GatingAndRecovery(device, queue.address());
    }

    /** Hands the submission's commands to the device; the caller holds the device's replay lock. */
    Run replay(Submission s) {
        List<Command> commands = s.commands();
        StagingNeeds needs = ReplayPlanner.needs(commands);
        ensureStaging(needs.stagingBytes());
        OpenClQueue.Scratch scratch = needs.scratchBytes() == 0 ? null : queue.takeScratch(needs.scratchBytes());
        HostArea scratchArea = scratch == null ? null : new HostArea("scratch", scratch.segment(), 64);
        Run r = new Run(queue, s, scratch);
        submission = s;
        run = r;
        try {
            long eventSlot = staging.take(8);
            staging.segment().set(ValueLayout.JAVA_LONG, eventSlot, 0L);
            long gateSlot = staging.take(8);
            if (needs.natives() == 0) enqueue(commands, 0, commands.size(), eventSlot, gateSlot, scratchArea);
            else enqueueAroundNatives(commands, eventSlot, gateSlot, scratchArea);
            r.event(staging.segment().get(ValueLayout.JAVA_LONG, eventSlot));
            return r;
        } catch (Throwable t) {
            gates.forgetKernelArguments();
            batch.forget();
            resources.runFinished(r.inFlight);
            if (scratch != null) queue.returnScratch(scratch);
            throw t;
        } finally {
            if (!transients.isEmpty()) {
                for (MemorySegment t : transients) CL.clReleaseMemObject(t); // the commands hold their own references
                transients.clear();
            }
            submission = null;
            run = null;
        }
    }

    /**
     * Hands a submission of a recording planned once ({@link RecordingPlan}) to the device: each of
     * its batches in one crossing (gated as a commit's would be), each native command called between
     * them, with nothing planned or written in Java. Its batches set their kernels' arguments, so
     * afterwards no kernel's arguments are known to the queue's own plans. A failure is handled as a
     * commit's; the caller holds the device's replay lock.
     */
    Run replay(Submission s, RecordingPlan recording) {
        Run r = new Run(queue, s, null);
        submission = s;
        run = r;
        MemorySegment staging = recording.stagingMemory();
        try {
            staging.set(ValueLayout.JAVA_LONG, recording.eventSlot(), 0L);
            for (RecordingPlan.Segment segment : recording.segments()) {
                boolean ran = switch (segment) {
                    case RecordingPlan.Calls c -> runRecorded(c, recording);
                    case RecordingPlan.NativeCall n -> callNative(n.command(), n.index());
                };
                if (!ran) {
                    if (!(segment instanceof RecordingPlan.Calls c && c.last)) gates.markCompletion(recording.eventAddress());
                    break;
                }
            }
            r.event(staging.get(ValueLayout.JAVA_LONG, recording.eventSlot()));
            return r;
        } catch (Throwable t) {
            resources.runFinished(r.inFlight);
            throw t;
        } finally {
            gates.forgetKernelArguments(); // the recording's batches set arguments the queue's plans do not know of
            submission = null;
            run = null;
        }
    }

    /** Runs one of a recording's batches, as {@link #enqueue} runs a planned one; whether every call ran. */
    private boolean runRecorded(RecordingPlan.Calls c, RecordingPlan recording) {
        MemorySegment gate = null;
        if (c.gated()) {
            gate = gates.closedGate(recording.stagingMemory(), recording.gateSlot());
            c.waitForGate(gate != null, recording.gateAddress());
        }
        int failedAt = -1;
        try {
            c.batch.run();
        } catch (BatchFailedException e) {
            failedAt = e.index();
            run.error(GatingAndRecovery.failure(e, c.plan, submission));
        } finally {
            if (gate != null) GatingAndRecovery.open(gate); // the commands enqueued, even before a failure, run
        }
        if (failedAt < 0) return true;
        if (c.last && failedAt < c.planned && recording.stagingMemory().get(ValueLayout.JAVA_LONG, recording.eventSlot()) == 0) {
            gates.markCompletion(recording.eventAddress()); // the commands before the failing one are enqueued
        }
        return false;
    }

    /**
     * Plans, emits and runs commands {@code from} to {@code to} (exclusive) as one batch ending in a
     * flush, gated when they make {@value ReplayPlanner#GATED_FROM} enqueues or more. With
     * {@code eventSlot} (else -1) the last enqueue's event goes there (a marker's when nothing is
     * enqueued). A refused command stops the batch and the error goes to the run; the commands before
     * it still run.
     *
     * @return whether every command was enqueued
     */
    private boolean enqueue(List<Command> commands, int from, int to, long eventSlot, long gateSlot, HostArea scratch) {
        plan.clear();
        boolean enqueuedAll = true;
        try {
            planner.plan(commands, from, to, device.argumentsEpoch, staging, scratch, plan);
        } catch (CommandBufferException e) {
            run.error(e); // the commands before it still run
            enqueuedAll = false;
        }
        int planned = plan.complete(planner.queue(), eventSlot >= 0 ? staging.base() + eventSlot : -1);
        MemorySegment gate = null;
        if (ReplayPlanner.gated(plan)) {
            gate = gates.closedGate(staging.segment(), gateSlot);
            if (gate != null) plan.waitFirstEnqueueFor(staging.base() + gateSlot);
        }
        int failedAt = -1;
        try {
            batch.emit(plan);
            batch.run();
        } catch (BatchFailedException e) {
            failedAt = e.index();
            enqueuedAll = false;
            gates.forgetKernelArguments(); // the calls after the failing one did not run
            run.error(GatingAndRecovery.failure(e, plan, submission));
        } finally {
            if (gate != null) GatingAndRecovery.open(gate); // the commands enqueued, even before a failure, run
        }
        if (eventSlot >= 0 && failedAt >= 0 && failedAt < planned && staging.segment().get(ValueLayout.JAVA_LONG, eventSlot) == 0) {
            gates.markCompletion(staging.base() + eventSlot); // the commands before the failing one are enqueued: a marker still tells when they are done
        }
        return enqueuedAll;
    }

    /**
     * A submission with native commands: the commands between them as batches, each native command
     * called after the batch before it has run (and its gate opened, so a library that waits for the
     * queue cannot wait for a gate only this thread would open). After a failure nothing more runs,
     * and a marker gives the run's event.
     */
    private void enqueueAroundNatives(List<Command> commands, long eventSlot, long gateSlot, HostArea scratch) {
        int count = commands.size(), from = 0;
        for (int i = 0; i < count; i++) {
            if (!(commands.get(i) instanceof Command.Native n)) continue;
            if ((i > from && !enqueue(commands, from, i, -1, gateSlot, scratch)) || !callNative(n, i)) {
                gates.markCompletion(staging.base() + eventSlot);
                return;
            }
            from = i + 1;
        }
        enqueue(commands, from, count, eventSlot, gateSlot, scratch); // a native command last: a marker alone gives the event
    }

    /**
     * Holds the native command's buffers for the run, then calls it with the queue; whatever it
     * throws becomes the run's error.
     *
     * @return whether it returned normally
     */
    private boolean callNative(Command.Native n, int index) {
        try {
            for (Buffer b : n.uses()) buffer(b, index); // held until the device is done with the run
        } catch (CommandBufferException e) {
            run.error(e);
            return false;
        }
        try (OpenClNativeQueue on = new OpenClNativeQueue(device, queue.address(), n.uses(), submission, index)) {
            n.command().enqueue(on);
            return true;
        } catch (Throwable t) { // a failing library must fail the command buffer, never the replay
            run.error(OpenClQueue.failure(submission, index, "it threw " + t, t));
            return false;
        }
    }

    /** Makes the staging memory at least {@code bytes} large and starts handing it out from the start. */
    private void ensureStaging(long bytes) {
        if (staging == null || staging.segment().byteSize() < bytes) {
            long size = Math.max(4096, Long.highestOneBit(bytes - 1) << 1);
            OpenClQueue.Scratch grown = OpenClQueue.Scratch.allocate(size);
            if (resources.staging != null) resources.staging.free();
            resources.staging = grown;
            staging = new HostArea("staging", grown.segment(), 8);
        }
        staging.reset();
    }

    // ------------------------------------------------------------------ the planner's questions

    @Override
    public OpenClPipeline pipeline(Command.Dispatch d, int command) {
        if (d.pipeline() instanceof OpenClPipeline p && p.device() == device) return p;
        throw OpenClQueue.failure(submission, command, "pipeline '" + d.pipeline().name() + "' is not one of this OpenCL device's", null);
    }

    @Override
    public long buffer(Buffer b, int command) {
        if (b instanceof OpenClBuffer ob && ob.device() == device) {
            run.inFlight.hold(ob.block()); // until the device is done, whatever the GC sees of the buffer
            return ob.mem().address();
        }
        throw OpenClQueue.failure(submission, command, b.describe() + " is not a buffer of this OpenCL device", null);
    }

    @Override
    public long bufferView(long mem, Buffer b, long offset, int command, int argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(ValueLayout.JAVA_LONG, 2);
            region.set(ValueLayout.JAVA_LONG, 0, offset);
            region.set(ValueLayout.JAVA_LONG, 8, b.length() - offset);
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment sub = CL.clCreateSubBuffer(MemorySegment.ofAddress(mem), CL.CL_MEM_READ_WRITE, CL.CL_BUFFER_CREATE_TYPE_REGION, region, err);
            int status = err.get(ValueLayout.JAVA_INT, 0);
            if (status != CL.CL_SUCCESS)
                throw OpenClQueue.failure(submission, command, argumentName(command, argument) + ": a view of " + b.describe() + " at offset "
                        + offset + " failed: " + CLException.nameOf("cl_status", status) + " (" + status + ")", null);
            transients.add(sub);
            return sub.address();
        }
    }

    @Override
    public long transientBuffer(long hostAddress, long bytes, int command, int argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment t = CL.clCreateBuffer(device.context(), CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes,
                    MemorySegment.ofAddress(hostAddress), err);
            int status = err.get(ValueLayout.JAVA_INT, 0);
            if (status != CL.CL_SUCCESS)
                throw OpenClQueue.failure(submission, command, argumentName(command, argument) + ": a transient buffer of " + bytes
                        + " bytes failed: " + CLException.nameOf("cl_status", status) + " (" + status + ")", null);
            transients.add(t);
            return t.address();
        }
    }

    @Override
    public void read(Command.Read r, long scratchOffset) {
        run.addRead(r, scratchOffset);
    }

    private String argumentName(int command, int argument) {
        return GatingAndRecovery.argumentName(submission.commands(), command, argument);
    }
}

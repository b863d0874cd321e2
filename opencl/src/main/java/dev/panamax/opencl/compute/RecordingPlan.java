package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.PreparedRecording;
import dev.panamax.opencl.binding.CL;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded command list planned once, when it is recorded: its calls in batches of its own, with
 * their sizes, argument values, fill patterns and heap writes' copies in host memory of its own, so
 * that a submission plans nothing and writes nothing in Java ({@link Replay#replay(dev.panamax.compute.spi.Submission,
 * RecordingPlan)}): each batch runs in one crossing, the native commands between them called as a
 * commit calls them. Every dispatch sets every kernel argument in the recording's own batch, since
 * other command buffers change the same kernels' arguments between its submissions.
 *
 * <p>A command list with a read is not prepared (each submission would need a destination of its
 * own until it completes): its submissions are replayed as commits are. Neither is one with a
 * command the device refuses, so that its submissions fail as a commit would, naming the command.
 * The buffers it uses are the recording's to hold until it closes, which is after its last
 * submission; the views and transient buffers its arguments need are its own, released by
 * {@link #close()}.
 */
final class RecordingPlan implements PreparedRecording, PlanResolver {
    /** A part of the command list: calls run as one batch, or a native command called between batches. */
    sealed interface Segment permits Calls, NativeCall { }

    /**
     * Commands {@code from} to {@code to} (exclusive) as one batch, the last one giving the run's
     * completion event ({@code last}); {@code planned} entries before the closing marker and flush.
     */
    static final class Calls implements Segment {
        final ReplayPlan plan;
        final RecordedBatch batch;
        final int planned;
        final boolean last;
        private boolean waitsForGate;

        Calls(ReplayPlan plan, RecordedBatch batch, int planned, boolean last) {
            this.plan = plan;
            this.batch = batch;
            this.planned = planned;
            this.last = last;
        }

        boolean gated() {
            return ReplayPlanner.gated(plan);
        }

        /** Makes the first enqueue wait for the gate at {@code gateAddress}, or for nothing when there is no gate. */
        void waitForGate(boolean gate, long gateAddress) {
            if (gate == waitsForGate) return;
            if (gate) plan.waitFirstEnqueueFor(gateAddress);
            else plan.waitFirstEnqueueForNothing();
            batch.emit(plan); // only the first enqueue's wait list differs
            waitsForGate = gate;
        }
    }

    /** Command {@code index}, native, called with the queue between two batches. */
    record NativeCall(Command.Native command, int index) implements Segment { }

    private final OpenClQueue queue;
    private final OpenClDevice device;
    private final Arena arena = Arena.ofShared();
    private final List<MemorySegment> owned = new ArrayList<>();
    private final List<Segment> segments = new ArrayList<>();
    private HostArea staging;
    private long eventSlot, gateSlot;
    private boolean closed;

    private RecordingPlan(OpenClQueue queue) {
        this.queue = queue;
        this.device = queue.device();
    }

    /** Plans {@code commands} for {@code queue}; null when they are to be replayed as commits are (see above). */
    static RecordingPlan prepare(OpenClQueue queue, List<Command> commands) {
        for (Command c : commands) if (c instanceof Command.Read) return null;
        RecordingPlan p = new RecordingPlan(queue);
        try {
            p.plan(commands);
            return p;
        } catch (CommandBufferException refused) {
            p.close();
            return null;
        } catch (Throwable t) {
            p.close();
            throw t;
        }
    }

    private void plan(List<Command> commands) {
        StagingNeeds needs = ReplayPlanner.needs(commands);
        staging = new HostArea("recording staging", arena.allocate(needs.stagingBytes(), 64), 8);
        HostArea scratch = needs.scratchBytes() == 0 ? null : new HostArea("recording scratch", arena.allocate(needs.scratchBytes(), 64), 64);
        eventSlot = staging.take(8);
        gateSlot = staging.take(8);
        ReplayPlanner planner = new ReplayPlanner(queue.address().address(), this);
        int count = commands.size(), from = 0;
        for (int i = 0; i < count; i++) {
            if (!(commands.get(i) instanceof Command.Native n)) continue;
            if (i > from) segments.add(calls(planner, commands, from, i, false, scratch));
            segments.add(new NativeCall(n, i));
            from = i + 1;
        }
        segments.add(calls(planner, commands, from, count, true, scratch)); // a native command last: a marker alone gives the event
    }

    private Calls calls(ReplayPlanner planner, List<Command> commands, int from, int to, boolean last, HostArea scratch) {
        ReplayPlan plan = new ReplayPlan();
        planner.plan(commands, from, to, ReplayPlanner.EVERY_ARGUMENT, staging, scratch, plan);
        int planned = plan.complete(planner.queue(), last ? eventAddress() : -1);
        RecordedBatch batch = RecordedBatch.owning();
        Calls c = new Calls(plan, batch, planned, last);
        batch.emit(plan);
        if (c.gated()) c.waitForGate(true, gateAddress());
        return c;
    }

    OpenClQueue queue() {
        return queue;
    }

    List<Segment> segments() {
        return segments;
    }

    MemorySegment stagingMemory() {
        return staging.segment();
    }

    /** Where the run's completion event is written, in the recording's staging memory. */
    long eventSlot() {
        return eventSlot;
    }

    long eventAddress() {
        return staging.base() + eventSlot;
    }

    long gateSlot() {
        return gateSlot;
    }

    long gateAddress() {
        return staging.base() + gateSlot;
    }

    /** The plan as values, batch by batch, for tests and diagnostics. */
    List<List<PlannedCall>> calls() {
        List<List<PlannedCall>> out = new ArrayList<>();
        for (Segment s : segments) if (s instanceof Calls c) out.add(c.plan.calls());
        return out;
    }

    /** Frees the batches, the host memory and the views and transient buffers. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            for (Segment s : segments) if (s instanceof Calls c) c.batch.close();
            for (MemorySegment m : owned) CL.clReleaseMemObject(m);
            owned.clear();
        } finally {
            arena.close();
        }
    }

    // ------------------------------------------------------------------ the planner's questions, asked once

    @Override
    public OpenClPipeline pipeline(Command.Dispatch d, int command) {
        if (d.pipeline() instanceof OpenClPipeline p && p.device() == device) return p;
        throw new CommandBufferException("command " + command + ": pipeline '" + d.pipeline().name() + "' is not one of this OpenCL device's",
                command, null);
    }

    @Override
    public long buffer(Buffer b, int command) {
        if (b instanceof OpenClBuffer ob && ob.device() == device) return ob.mem().address(); // the recording holds it
        throw new CommandBufferException("command " + command + ": " + b.describe() + " is not a buffer of this OpenCL device", command, null);
    }

    @Override
    public long bufferView(long mem, Buffer b, long offset, int command, int argument) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment region = a.allocate(ValueLayout.JAVA_LONG, 2);
            region.set(ValueLayout.JAVA_LONG, 0, offset);
            region.set(ValueLayout.JAVA_LONG, 8, b.length() - offset);
            MemorySegment err = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment sub = CL.clCreateSubBuffer(MemorySegment.ofAddress(mem), CL.CL_MEM_READ_WRITE, CL.CL_BUFFER_CREATE_TYPE_REGION, region, err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS)
                throw new CommandBufferException("command " + command + ": a view of " + b.describe() + " at offset " + offset + " failed", command, null);
            owned.add(sub);
            return sub.address();
        }
    }

    @Override
    public long transientBuffer(long hostAddress, long bytes, int command, int argument) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment t = CL.clCreateBuffer(device.context(), CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR, bytes,
                    MemorySegment.ofAddress(hostAddress), err);
            if (err.get(ValueLayout.JAVA_INT, 0) != CL.CL_SUCCESS)
                throw new CommandBufferException("command " + command + ": a buffer of " + bytes + " bytes failed", command, null);
            owned.add(t);
            return t.address();
        }
    }

    @Override
    public void read(Command.Read read, long scratchOffset) {
        throw new IllegalStateException("a command list with a read is never prepared");
    }
}

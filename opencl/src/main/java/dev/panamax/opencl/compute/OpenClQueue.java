package dev.panamax.opencl.compute;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.PreparedRecording;
import dev.panamax.compute.spi.QueueDriver;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.upcall.CallbackRegistry;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClCommandQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.ref.Reference;
import java.util.List;

/**
 * A command queue on an OpenCL device (in order). A submission is replayed by the queue's
 * {@link Replay} (planned by {@link ReplayPlanner}, run as one core {@code Batch}): every argument change, enqueue and flush in one
 * crossing. A waiter waits on the run's completion event itself; when handlers or a future asked
 * for it, the event's completion comes back through core's callback registry and is handled on a
 * virtual thread, never on the driver's thread.
 *
 * <p>What the queue holds natively lives in its {@link QueueResources}, released by its owned handle:
 * on {@link #close()}, or by the GC for a queue dropped unclosed (then reported as a leak). Until the
 * release has waited for the device, a run in flight keeps the buffers it uses and its scratch.
 */
@AllocatesForCaller
final class OpenClQueue implements QueueDriver {
    /** {@code void (CL_CALLBACK *)(cl_event event, cl_int status, void *user_data)}. */
    interface EventStatus {
        void changed(MemorySegment event, int status);
    }

    static final CallbackRegistry<EventStatus> EVENTS = CallbackRegistry
            .builder(EventStatus.class, FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), 2)
            .name("OpenCL command buffer completion")
            .lookup(MethodHandles.lookup())
            .build(Arena.global());

    private final OpenClDevice device;
    /** What the queue keeps natively; freed by {@link #handle}'s release (close, or the GC for a dropped queue). */
    private final QueueResources resources;
    private final QueueResources.QueueHandle handle;
    private final MemorySegment address;

    /**
     * Memory a run keeps until it completes (a read's destination, a heap write's copy; recycled), or
     * the replay's staging memory: 64-byte aligned, in an arena of its own. A long-lived queue keeps
     * some idle between runs, so it is the queue's working memory rather than an owned handle of
     * its own; its {@link QueueResources} frees it.
     */
    record Scratch(Arena arena, MemorySegment segment) {
        static Scratch allocate(long bytes) {
            Arena arena = Arena.ofShared();
            return new Scratch(arena, arena.allocate(bytes, 64));
        }

        void free() {
            arena.close();
        }
    }

    /** Records and runs every submission, under the device's replay lock. */
    private final Replay replay;
    private volatile boolean closed;

    OpenClQueue(OpenClDevice device) {
        this.device = device;
        ClCommandQueue queue;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            queue = ClCommandQueue.owned(Cl.created(
                    CL.clCreateCommandQueueWithProperties(device.context(), device.id(), MemorySegment.NULL, err), err,
                    "clCreateCommandQueueWithProperties"));
        }
        QueueResources r;
        try {
            r = new QueueResources(queue);
        } catch (Throwable t) {
            queue.close();
            throw t;
        }
        this.resources = r;
        this.handle = new QueueResources.QueueHandle(r); // frees r itself if it fails
        this.address = queue.handle();
        this.replay = new Replay(this);
    }

    OpenClDevice device() {
        return device;
    }

    MemorySegment address() {
        return address;
    }

    @Override
    public void submit(Submission submission) {
        // before the enqueues, not after: the time between the flush and a waiter's wait is the
        // device's to start the work in (PoCL's workers share the host's cores)
        resources.releaseRetired();
        Run run;
        var lock = device.replayLock();
        if (lock.isHeldByCurrentThread()) throw insideNativeCommand("committing a command buffer");
        lock.lock();
        try {
            if (closed) throw new IllegalStateException("command queue is closed");
            run = submission.prepared() instanceof RecordingPlan p && p.queue() == this ? replay.replay(submission, p) : replay.replay(submission);
        } finally {
            lock.unlock();
        }
        submission.driverState(run);
        if (run.hasNoEvent()) {
            run.finishNow();
        } else if (submission.notifyOnCompletion()) {
            run.watch();
        }
        Reference.reachabilityFence(this); // the queue's release must not run while its commands are handed over
    }

    /** Plans a recorded command list once, into batches of its own ({@link RecordingPlan}); null when it is replayed as commits are. */
    @Override
    public PreparedRecording prepare(List<Command> commands) {
        if (closed) return null;
        return RecordingPlan.prepare(this, commands);
    }

    @Override
    public void notifyOnCompletion(Submission submission) {
        if (submission.driverState() instanceof Run run) run.watch();
    }

    @Override
    public void poll(Submission submission) {
        if (submission.driverState() instanceof Run run) run.poll();
        Reference.reachabilityFence(this);
    }

    @Override
    public void await(Submission submission) throws InterruptedException {
        Object state;
        // a commit on another thread may still be handing the commands over
        while ((state = submission.driverState()) == null && !submission.isFinished()) Thread.onSpinWait();
        try {
            if (state instanceof Run run) run.await();
        } finally {
            Reference.reachabilityFence(this); // nor while a waiter uses a run's event
        }
    }

    /**
     * Refuses further submissions, then frees the queue: the release waits for the device to finish
     * what was enqueued before anything goes.
     */
    @Override
    public void close() {
        if (closed) return;
        var lock = device.replayLock();
        if (lock.isHeldByCurrentThread()) throw insideNativeCommand("closing a command queue");
        lock.lock();
        try {
            if (closed) return;
            closed = true;
        } finally {
            lock.unlock();
        }
        resources.closedByCode();
        handle.close();
    }

    QueueResources resources() {
        return resources;
    }

    /** Releases a finished run's completion event, now or when the next commit starts. */
    void retire(long event) {
        resources.retire(event);
    }

    /** Scratch memory of at least {@code bytes} for one run: a recycled block or a new one. */
    Scratch takeScratch(long bytes) {
        Scratch b = resources.pollScratch();
        if (b != null && b.segment().byteSize() >= bytes) return b;
        if (b != null) b.free();
        long size = Math.max(4096, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        return Scratch.allocate(size);
    }

    void returnScratch(Scratch b) {
        resources.returnScratch(b);
    }

    /**
     * The device's replay lock is held by this thread only while it hands a command buffer over, and
     * so inside a native command: a commit or close there would reenter the replay under way.
     */
    private static IllegalStateException insideNativeCommand(String what) {
        return new IllegalStateException(what + " of this device from inside a native command: a native command only enqueues "
                + "native work onto its queue; commit or close after the commit that calls it has returned");
    }

    /** A failure of command {@code index} of a submission, named. */
    static CommandBufferException failure(Submission s, int index, String what, Throwable cause) {
        return new CommandBufferException(s.where(index) + ": " + what, index, cause);
    }

    static String describe(Command c) {
        return c.describe();
    }
}

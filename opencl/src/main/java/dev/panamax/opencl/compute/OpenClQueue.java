package dev.panamax.opencl.compute;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.QueueDriver;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.upcall.CallbackRegistry;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClCommandQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A command queue on an OpenCL device (in order). A submission is replayed by the queue's
 * {@link Replay} into one core {@code Batch}: every argument change, enqueue and flush in one
 * crossing. A waiter waits on the run's completion event itself; when handlers or a future asked
 * for it, the event's completion comes back through core's callback registry and is handled on a
 * virtual thread, never on the driver's thread.
 */
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

    private static final int MAX_IDLE_SCRATCH = 4;

    private final OpenClDevice device;
    private final ClCommandQueue queue;
    private final MemorySegment address;
    /** Memory a run keeps until it completes (a read's destination, a heap write's copy); recycled. */
    record Scratch(Arena arena, MemorySegment segment) {
        void free() {
            arena.close();
        }
    }

    private final ConcurrentLinkedDeque<Scratch> scratch = new ConcurrentLinkedDeque<>();
    /**
     * Completion events of finished runs, released when the next commit starts instead of in the
     * finish: a waiter returns to its caller sooner.
     * Guarded by itself; at most {@link #MAX_RETIRED}, past that an event is released at once.
     */
    private final long[] retired = new long[MAX_RETIRED];
    private int retiredCount;
    private static final int MAX_RETIRED = 16;
    /** Records and runs every submission, under the device's replay lock. */
    private final Replay replay;
    private volatile boolean closed;

    OpenClQueue(OpenClDevice device) {
        this.device = device;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.JAVA_INT);
            this.queue = ClCommandQueue.owned(Cl.created(
                    CL.clCreateCommandQueueWithProperties(device.context(), device.id(), MemorySegment.NULL, err), err,
                    "clCreateCommandQueueWithProperties"));
        }
        this.address = queue.handle();
        try {
            this.replay = new Replay(this);
        } catch (Throwable t) {
            queue.close();
            throw t;
        }
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
        releaseRetired();
        Run run;
        var lock = device.replayLock();
        lock.lock();
        try {
            if (closed) throw new IllegalStateException("command queue is closed");
            run = replay.replay(submission);
        } finally {
            lock.unlock();
        }
        submission.driverState(run);
        if (run.hasNoEvent()) {
            run.finishNow();
        } else if (submission.notifyOnCompletion()) {
            run.watch();
        }
    }

    @Override
    public void notifyOnCompletion(Submission submission) {
        if (submission.driverState() instanceof Run run) run.watch();
    }

    @Override
    public void poll(Submission submission) {
        if (submission.driverState() instanceof Run run) run.poll();
    }

    @Override
    public void await(Submission submission) throws InterruptedException {
        Object state;
        // a commit on another thread may still be handing the commands over
        while ((state = submission.driverState()) == null && !submission.isFinished()) Thread.onSpinWait();
        if (state instanceof Run run) run.await();
    }

    @Override
    public void close() {
        if (closed) return;
        var lock = device.replayLock();
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            replay.close();
        } finally {
            lock.unlock();
        }
        try {
            Cl.check(CL.clFinish(address), "clFinish");
        } finally {
            releaseRetired();
            queue.close();
            Scratch b;
            while ((b = scratch.poll()) != null) b.free();
        }
    }

    /** Releases a finished run's completion event, now or when the next commit starts (see {@link #retired}). */
    void retire(long event) {
        synchronized (retired) {
            if (!closed && retiredCount < MAX_RETIRED) {
                retired[retiredCount++] = event;
                return;
            }
        }
        CL.clReleaseEvent(MemorySegment.ofAddress(event));
    }

    private void releaseRetired() {
        while (true) {
            long event;
            synchronized (retired) {
                if (retiredCount == 0) return;
                event = retired[--retiredCount];
            }
            CL.clReleaseEvent(MemorySegment.ofAddress(event));
        }
    }

    /** Scratch memory of at least {@code bytes} for one run: a recycled block or a new one. */
    Scratch takeScratch(long bytes) {
        Scratch b = scratch.pollFirst();
        if (b != null && b.segment().byteSize() >= bytes) return b;
        if (b != null) b.free();
        long size = Math.max(4096, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        Arena arena = Arena.ofShared();
        return new Scratch(arena, arena.allocate(size, 64));
    }

    void returnScratch(Scratch b) {
        if (!closed && b.segment().byteSize() <= (1 << 20) && scratch.size() < MAX_IDLE_SCRATCH) {
            scratch.push(b);
            if (!closed || !scratch.removeFirstOccurrence(b)) return;
        }
        b.free();
    }

    /** A failure of command {@code index} of a submission, named. */
    static CommandBufferException failure(Submission s, int index, String what, Throwable cause) {
        return new CommandBufferException(s.where(index) + ": " + what, index, cause);
    }

    static String describe(Command c) {
        return c.describe();
    }
}

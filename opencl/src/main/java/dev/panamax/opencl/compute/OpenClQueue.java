package dev.panamax.opencl.compute;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.QueueDriver;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.upcall.CallbackRegistry;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClCommandQueue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A command queue on an OpenCL device (in order). A submission is replayed by {@link Replay} into
 * one core {@code Batch}: every argument change, enqueue, marker and flush in one crossing. Its
 * marker event's completion comes back through core's callback registry and is handled on a
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
    private static final long MAX_IDLE_BATCH_BYTES = 1 << 20;

    private final OpenClDevice device;
    private final ClCommandQueue queue;
    private final MemorySegment address;
    /** Memory a run writes its sizes, values and staged data into, kept until it completes; recycled. */
    record Scratch(Arena arena, MemorySegment segment) {
        void free() {
            arena.close();
        }
    }

    private final ConcurrentLinkedDeque<Scratch> scratch = new ConcurrentLinkedDeque<>();
    /**
     * The batch replays record into and clear after running, made with the queue: shared, so any
     * committing thread takes it (null while one uses it) and gives it back, and a commit allocates
     * no batch memory. A commit that finds it taken records into a batch of its own, closed after.
     */
    private final Batch ownBatch;
    private final AtomicReference<Batch> idleBatch = new AtomicReference<>();
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
            this.ownBatch = Batch.createShared(BatchMode.STANDARD, 64);
        } catch (Throwable t) {
            queue.close();
            throw t;
        }
        idleBatch.set(ownBatch);
    }

    OpenClDevice device() {
        return device;
    }

    MemorySegment address() {
        return address;
    }

    @Override
    public void submit(Submission submission) {
        if (closed) throw new IllegalStateException("command queue is closed");
        Run run = new Replay(this, submission).replay();
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
    public void await(Submission submission) throws InterruptedException {
        Object state;
        // a commit on another thread may still be handing the commands over
        while ((state = submission.driverState()) == null && !submission.isFinished()) Thread.onSpinWait();
        if (state instanceof Run run) run.await();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            Cl.check(CL.clFinish(address), "clFinish");
        } finally {
            queue.close();
            Scratch b;
            while ((b = scratch.poll()) != null) b.free();
            Batch batch = idleBatch.getAndSet(null);
            if (batch != null) batch.close();
        }
    }

    /** Scratch memory of at least {@code bytes} for one run: a recycled block or a new one. */
    Scratch takeScratch(long bytes) {
        for (Scratch b : scratch) {
            if (b.segment().byteSize() >= bytes && scratch.remove(b)) return b;
        }
        long size = Math.max(4096, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        Arena arena = Arena.ofShared();
        return new Scratch(arena, arena.allocate(size, 64));
    }

    void returnScratch(Scratch b) {
        if (!closed && b.segment().byteSize() <= (1 << 20) && scratch.size() < MAX_IDLE_SCRATCH) {
            scratch.push(b);
            if (!closed || !scratch.remove(b)) return;
        }
        b.free();
    }

    /** An empty batch for one replay: the queue's own when it is idle, else a new one. */
    Batch takeBatch(int entries) {
        Batch b = idleBatch.getAndSet(null);
        return b != null ? b : Batch.create(BatchMode.STANDARD, entries);
    }

    /**
     * Gives the queue's batch back cleared (closed instead when the queue closed meanwhile or it grew
     * large); closes any other.
     */
    void returnBatch(Batch b) {
        if (b == ownBatch) {
            b.clear();
            if (!closed && b.nativeBytes() <= MAX_IDLE_BATCH_BYTES && idleBatch.compareAndSet(null, b)) {
                if (!closed || !idleBatch.compareAndSet(b, null)) return;
            }
        }
        b.close();
    }

    /** A failure of command {@code index} of a submission, named. */
    static CommandBufferException failure(Submission s, int index, String what, Throwable cause) {
        return new CommandBufferException(s.where(index) + ": " + what, index, cause);
    }

    static String describe(Command c) {
        return c.describe();
    }
}

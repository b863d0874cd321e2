package dev.panamax.compute;

import dev.panamax.compute.spi.QueueDriver;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.memory.AllocatesForCaller;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs command buffers on a device in commit order. Thread-safe: any number of threads may make,
 * encode and commit command buffers on one queue. At most {@link #maxCommandBuffersInFlight()}
 * committed command buffers are unfinished at a time: {@code commit()} blocks until one finishes
 * (Metal's command buffer pool), so a producer cannot run away from the device.
 *
 * <pre>{@code
 * try (CommandQueue queue = device.newCommandQueue(2)) {
 *     for (Token t : tokens) {           // encode N+1 while N runs
 *         CommandBuffer cb = queue.commandBuffer();
 *         encode(cb, t);
 *         cb.commit();
 *     }
 * }                                       // close waits for what is in flight
 * }</pre>
 */
@AllocatesForCaller
public final class CommandQueue implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(CommandQueue.class.getName());
    private static final Executor DEFAULT_HANDLERS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("panamax-compute-handler-", 0).factory());

    private final ComputeDevice device;
    private final QueueDriver driver;
    private final int maxInFlight;
    private final Semaphore slots;
    private final Executor handlers;
    private final AtomicLong numbers = new AtomicLong();
    private final AtomicLong handlerFailures = new AtomicLong();
    /** Committed command buffers not finished yet, oldest first. */
    private final java.util.concurrent.ConcurrentLinkedDeque<CommandBuffer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>();
    /** {@link #CLOSED} once closed, plus the number of commits under way (each between beginCommit and endCommit). */
    private final AtomicInteger state = new AtomicInteger();
    private static final int CLOSED = Integer.MIN_VALUE;
    /** The command count of the last commit (at most 4,096): a new command buffer's starting capacity. */
    private volatile int lastCommandCount = 10;

    /**
     * For backends: a queue over {@code driver}. Completion handlers run on {@code handlerExecutor}
     * (null: virtual threads).
     */
    public CommandQueue(ComputeDevice device, QueueDriver driver, int maxCommandBuffersInFlight, Executor handlerExecutor) {
        if (maxCommandBuffersInFlight < 1)
            throw new IllegalArgumentException("maxCommandBuffersInFlight must be at least 1: got " + maxCommandBuffersInFlight);
        this.device = device;
        this.driver = driver;
        this.maxInFlight = maxCommandBuffersInFlight;
        this.slots = new Semaphore(maxCommandBuffersInFlight, true);
        this.handlers = handlerExecutor == null ? DEFAULT_HANDLERS : handlerExecutor;
    }

    public ComputeDevice device() {
        return device;
    }

    /** A command buffer that retains its resources and checks every command. */
    public CommandBuffer commandBuffer() {
        return commandBuffer(References.RETAINED, Validation.CHECKED);
    }

    /**
     * A command buffer made to be recorded ({@link CommandBuffer#record()}) rather than committed:
     * each resource its commands use is pinned when first encoded and stays alive until the
     * recording closes, even if its owner closes or frees it meanwhile (as a step being captured
     * frees its intermediates before the recording is made). It cannot be committed; its pins go
     * only when its recording closes, so record it even to drop it ({@code cb.record().close()}).
     * Its validation is CHECKED.
     */
    public CommandBuffer commandBufferForRecording() {
        if (state.get() < 0) throw new IllegalStateException("command queue is closed");
        return CommandBuffer.forRecording(this, numbers.incrementAndGet(), Validation.CHECKED);
    }

    /** A command buffer of the given kind (aruminium's table: retained or not, checked or not). */
    public CommandBuffer commandBuffer(References references, Validation validation) {
        if (state.get() < 0) throw new IllegalStateException("command queue is closed");
        if (references == null || validation == null) throw new IllegalArgumentException("references and validation are required");
        return new CommandBuffer(this, numbers.incrementAndGet(), references, validation);
    }

    public int maxCommandBuffersInFlight() {
        return maxInFlight;
    }

    /** Committed command buffers not finished yet. */
    public int inFlight() {
        return maxInFlight - slots.availablePermits();
    }

    /** Completion handlers that threw (each was reported). */
    public long handlerFailures() {
        return handlerFailures.get();
    }

    /**
     * Waits until every command buffer committed before the call has finished (waiting finishes a
     * command buffer whose device work is done). Commits on other threads meanwhile are not waited
     * for, so it returns however busy the queue stays. Never throws a command buffer's error (each
     * keeps it: {@link CommandBuffer#error()}).
     */
    public void waitUntilIdle() {
        for (CommandBuffer cb : pending.toArray(CommandBuffer[]::new)) cb.awaitFinished();
    }

    /**
     * Refuses new commits, waits for the commits under way and the command buffers in flight, then
     * frees the queue. A commit racing it either gets in before it (and is waited for) or is refused
     * with an IllegalStateException; neither blocks for ever. Idempotent. A queue dropped unclosed is
     * freed by the GC (and reported as a leak) once the device has finished what was committed to it;
     * until then its runs keep the buffers they use.
     */
    @Override
    public void close() {
        CommandBuffer.refuseInsideNativeCommand("closing a command queue");
        while (true) {
            int s = state.get();
            if (s < 0) return;
            if (state.compareAndSet(s, s | CLOSED)) break;
        }
        // no commit starts now: wait for those under way (one may wait for a slot, which finishing the
        // oldest command buffer frees) and for every slot to come back
        while ((state.get() & ~CLOSED) != 0 || slots.availablePermits() != maxInFlight) {
            CommandBuffer oldest = pending.peekFirst();
            if (oldest != null) oldest.awaitFinished();
            else LockSupport.parkNanos(20_000);
        }
        driver.close();
    }

    /** The number of the next command buffer (what names it in messages until it is labelled). */
    long nextNumber() {
        return numbers.incrementAndGet();
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return state.get() < 0;
    }

    // ------------------------------------------------------------------ for CommandBuffer

    QueueDriver driver() {
        return driver;
    }

    /**
     * Registers a commit under way, which {@link #close()} waits for.
     *
     * @throws IllegalStateException when the queue is closed
     */
    void beginCommit(String label) {
        while (true) {
            int s = state.get();
            if (s < 0) throw new IllegalStateException(label + ": its command queue is closed");
            if (state.compareAndSet(s, s + 1)) return;
        }
    }

    void endCommit() {
        state.decrementAndGet();
    }

    /**
     * A slot for one more command buffer in flight: when every slot is taken, waits for the oldest
     * command buffer (which finishes it if the device is done with it). Between
     * {@link #beginCommit} and {@link #endCommit}.
     */
    void acquireSlot() {
        boolean interrupted = false;
        while (!slots.tryAcquire()) {
            CommandBuffer oldest = pending.peekFirst();
            if (oldest != null) {
                oldest.awaitFinished();
            } else {
                try {
                    if (slots.tryAcquire(1, java.util.concurrent.TimeUnit.MILLISECONDS)) break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** Gives back a slot taken by a commit that then failed before its command buffer was handed over. */
    void returnSlot() {
        slots.release();
    }

    int commandCapacity() {
        return lastCommandCount;
    }

    void committed(CommandBuffer cb) {
        int capacity = Math.min(Math.max(cb.commandCount(), 10), 4096);
        if (capacity != lastCommandCount) lastCommandCount = capacity; // a volatile write only when it changes
        pending.addLast(cb);
    }

    void releaseSlot(CommandBuffer cb) {
        pending.remove(cb);
        slots.release();
    }

    void submit(Submission s) {
        driver.submit(s);
    }

    void runHandler(CompletedHandler handler, CommandBufferStatus status, String label) {
        handlers.execute(() -> {
            try {
                handler.completed(status);
            } catch (Throwable t) {
                handlerFailures.incrementAndGet();
                LOG.log(System.Logger.Level.WARNING, "completed handler of " + label + " threw; the queue goes on", t);
            }
        });
    }
}

package dev.panamax.opencl.compute;

import dev.panamax.compute.CommandBufferException;
import dev.panamax.compute.spi.Command;
import dev.panamax.compute.spi.Submission;
import dev.panamax.core.upcall.CallbackRegistry;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One submitted command buffer on its way to completion: its completion event, scratch memory and
 * pending reads. Finished once, by whichever comes first: a thread waiting in {@link #await()}, or,
 * when completion was asked for ({@link #watch()}: handlers, a future), the event's callback,
 * handed to a virtual thread by core's registry.
 */
final class Run {
    private final OpenClQueue queue;
    private final Submission submission;
    private final OpenClQueue.Scratch scratch;
    private final List<Command.Read> reads = new ArrayList<>();
    private final List<Long> readOffsets = new ArrayList<>();
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean watched = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    /** The run's and every waiter's hold on the event; the last one releases it. */
    private final AtomicInteger eventHolds = new AtomicInteger(1);
    private MemorySegment event = MemorySegment.NULL;
    private CommandBufferException error;

    Run(OpenClQueue queue, Submission submission, OpenClQueue.Scratch scratch) {
        this.queue = queue;
        this.submission = submission;
        this.scratch = scratch;
    }

    void addRead(Command.Read read, long scratchOffset) {
        reads.add(read);
        readOffsets.add(scratchOffset);
    }

    void event(MemorySegment event) {
        this.event = event;
    }

    void error(CommandBufferException error) {
        if (this.error == null) this.error = error;
    }

    boolean hasNoEvent() {
        return event.address() == 0;
    }

    /** Finishes a run that has no event (nothing was enqueued). */
    void finishNow() {
        finish(CL.CL_COMPLETE);
    }

    /**
     * Asks for the completion event's callback (once), so that the run is finished when the device
     * completes it even if nobody waits. Holds the event meanwhile: a run finished by a waiter has
     * released it, and then there is nothing to ask.
     */
    void watch() {
        if (!watched.compareAndSet(false, true) || !holdEvent()) return;
        try {
            int id = OpenClQueue.EVENTS.registerOnce((ev, status) -> finish(status));
            int status = CL.clSetEventCallback(event, CL.CL_COMPLETE, OpenClQueue.EVENTS.stub(), CallbackRegistry.userData(id));
            if (status != CL.CL_SUCCESS) {
                OpenClQueue.EVENTS.unregister(id);
                Thread.ofVirtual().start(() -> {
                    try {
                        await();
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
        } finally {
            dropEvent();
        }
    }

    /** Blocks until the run is finished, waiting on the marker itself when it is still running. */
    void await() throws InterruptedException {
        if (done.get()) {
            finished.await();
            return;
        }
        if (holdEvent()) {
            int status;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment list = arena.allocate(ValueLayout.ADDRESS);
                list.set(ValueLayout.ADDRESS, 0, event);
                status = CL.clWaitForEvents(1, list);
            } finally {
                dropEvent();
            }
            finish(status == CL.CL_SUCCESS ? CL.CL_COMPLETE : status);
        }
        finished.await();
    }

    private void finish(int status) {
        if (!done.compareAndSet(false, true)) return;
        try {
            if (status < 0 && error == null) {
                error = new CommandBufferException(submission.label() + ": the device reported "
                        + CLException.nameOf("cl_status", status) + " (" + status + ") for a command it ran", -1, null);
            }
            if (error == null) {
                MemorySegment mem = scratch.segment();
                for (int i = 0; i < reads.size(); i++) {
                    Command.Read r = reads.get(i);
                    r.deliver().accept(mem.asSlice(readOffsets.get(i), r.bytes()));
                }
            }
        } catch (Throwable t) {
            error = new CommandBufferException(submission.label() + ": delivering a read failed: " + t, -1, t);
        } finally {
            queue.returnScratch(scratch);
            dropEvent();
            try {
                submission.finished(error);
            } finally {
                finished.countDown();
            }
        }
    }

    private boolean holdEvent() {
        while (true) {
            int n = eventHolds.get();
            if (n == 0) return false;
            if (eventHolds.compareAndSet(n, n + 1)) return true;
        }
    }

    private void dropEvent() {
        if (eventHolds.decrementAndGet() == 0 && event.address() != 0) {
            CL.clReleaseEvent(event);
        }
    }
}

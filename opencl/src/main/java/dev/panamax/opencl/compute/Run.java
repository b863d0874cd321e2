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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * One submitted command buffer on its way to completion: its completion event, and the scratch
 * memory and pending reads it has when it has any. Finished once, by whichever comes first: a
 * thread waiting in {@link #await()}, which waits on the event itself and finishes the run inline
 * (a plain commit and wait crosses to the driver once and hands nothing to another thread), or,
 * when completion was asked for ({@link #watch()}: handlers, a future), the event's callback,
 * handed to a virtual thread by core's registry.
 */
final class Run {
    private static final VarHandle STATE;
    private static final VarHandle HOLDS;
    private static final VarHandle WATCHED;
    private static final int RUNNING = 0, FINISHING = 1, FINISHED = 2;
    /** A waiting thread's event list and status cell: made once per thread, freed by the GC with it. */
    private static final ThreadLocal<MemorySegment> WAIT_CELLS = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(16, 8));

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(Run.class, "state", int.class);
            HOLDS = l.findVarHandle(Run.class, "eventHolds", int.class);
            WATCHED = l.findVarHandle(Run.class, "watched", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final OpenClQueue queue;
    private final Submission submission;
    private final OpenClQueue.Scratch scratch;
    /** What the run uses until the device is done, on its queue's list (see {@link QueueResources.InFlight}). */
    final QueueResources.InFlight inFlight;
    private Command.Read[] reads;
    private long[] readOffsets;
    private int readCount;
    private long event;
    private CommandBufferException error;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    /** The run's and every waiter's hold on the event; the last one releases it. */
    @SuppressWarnings("unused") // through HOLDS
    private volatile int eventHolds = 1;
    @SuppressWarnings("unused") // through WATCHED
    private volatile boolean watched;
    /** Threads blocked in {@link #await()} on the monitor: a finish with none skips the notify. */
    private volatile int sleepers;

    Run(OpenClQueue queue, Submission submission, OpenClQueue.Scratch scratch) {
        this.queue = queue;
        this.submission = submission;
        this.scratch = scratch;
        this.inFlight = queue.resources().startRun(scratch, submission.referenceRelease());
    }

    void addRead(Command.Read read, long scratchOffset) {
        if (reads == null) {
            reads = new Command.Read[4];
            readOffsets = new long[4];
        } else if (readCount == reads.length) {
            reads = Arrays.copyOf(reads, readCount * 2);
            readOffsets = Arrays.copyOf(readOffsets, readCount * 2);
        }
        reads[readCount] = read;
        readOffsets[readCount++] = scratchOffset;
    }

    void event(long event) {
        this.event = event;
        inFlight.event = event;
    }

    void error(CommandBufferException error) {
        if (this.error == null) this.error = error;
    }

    boolean hasNoEvent() {
        return event == 0;
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
        if (!WATCHED.compareAndSet(this, false, true) || !holdEvent()) return;
        try {
            int id = OpenClQueue.EVENTS.registerOnce((ev, status) -> finish(status));
            int status = CL.clSetEventCallback(MemorySegment.ofAddress(event), CL.CL_COMPLETE, OpenClQueue.EVENTS.stub(), CallbackRegistry.userData(id));
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

    /** Finishes the run if its event says the device is done with it (complete or failed); never blocks. */
    void poll() {
        if ((int) STATE.getVolatile(this) != RUNNING || !holdEvent()) return;
        int status;
        try {
            MemorySegment cell = WAIT_CELLS.get().asSlice(8, 4);
            int s = CL.clGetEventInfo(MemorySegment.ofAddress(event), CL.CL_EVENT_COMMAND_EXECUTION_STATUS, 4, cell, MemorySegment.NULL);
            status = s == CL.CL_SUCCESS ? cell.get(ValueLayout.JAVA_INT, 0) : CL.CL_QUEUED; // not known: a waiter will tell
        } finally {
            dropEvent();
        }
        if (status == CL.CL_COMPLETE || status < 0) finish(status);
    }

    /**
     * Blocks until the run is finished: waits on the event itself while it is still there, then
     * finishes the run on this thread unless another got there first.
     */
    void await() throws InterruptedException {
        if ((int) STATE.getVolatile(this) == FINISHED) return;
        if (holdEvent()) {
            int status;
            try {
                MemorySegment cells = WAIT_CELLS.get();
                cells.set(ValueLayout.JAVA_LONG, 0, event);
                status = CL.clWaitForEvents(1, cells);
                if (status != CL.CL_SUCCESS) status = executionStatus(cells, status);
            } finally {
                dropEvent();
            }
            finish(status == CL.CL_SUCCESS ? CL.CL_COMPLETE : status);
        }
        if ((int) STATE.getVolatile(this) != FINISHED) {
            synchronized (this) {
                sleepers++; // before the state is read again: a finish after this read sees it and notifies
                try {
                    while ((int) STATE.getVolatile(this) != FINISHED) wait();
                } finally {
                    sleepers--;
                }
            }
        }
    }

    /** The event's own status when the wait failed (the command's error rather than the wait list's). */
    private int executionStatus(MemorySegment cells, int waitStatus) {
        MemorySegment status = cells.asSlice(8, 4);
        int s = CL.clGetEventInfo(MemorySegment.ofAddress(event), CL.CL_EVENT_COMMAND_EXECUTION_STATUS, 4, status, MemorySegment.NULL);
        int execution = status.get(ValueLayout.JAVA_INT, 0);
        return s == CL.CL_SUCCESS && execution < 0 ? execution : waitStatus;
    }

    private void finish(int status) {
        if (!STATE.compareAndSet(this, RUNNING, FINISHING)) return;
        try {
            if (status < 0 && error == null) {
                error = new CommandBufferException(submission.label() + ": the device reported "
                        + CLException.nameOf("cl_status", status) + " (" + status + ") for a command it ran", -1, null);
            }
            if (error == null && readCount > 0) {
                MemorySegment mem = scratch.segment();
                for (int i = 0; i < readCount; i++) reads[i].deliver().accept(mem.asSlice(readOffsets[i], reads[i].bytes()));
            }
        } catch (Throwable t) {
            error = new CommandBufferException(submission.label() + ": delivering a read failed: " + t, -1, t);
        } finally {
            queue.resources().runFinished(inFlight); // the device is done: the buffers' blocks may go back to the pool
            if (scratch != null) queue.returnScratch(scratch);
            dropEvent();
            try {
                submission.finished(error);
            } finally {
                STATE.setVolatile(this, FINISHED);
                if (sleepers > 0) {
                    synchronized (this) {
                        notifyAll();
                    }
                }
            }
        }
    }

    private boolean holdEvent() {
        while (true) {
            int n = (int) HOLDS.getVolatile(this);
            if (n == 0) return false;
            if (HOLDS.compareAndSet(this, n, n + 1)) return true;
        }
    }

    private void dropEvent() {
        if ((int) HOLDS.getAndAdd(this, -1) == 1 && event != 0) queue.retire(event);
    }
}

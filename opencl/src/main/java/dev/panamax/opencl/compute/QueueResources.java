package dev.panamax.opencl.compute;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.memory.AllocatesForCaller;
import dev.panamax.core.memory.NativeHandle;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClCommandQueue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Everything native an {@link OpenClQueue} keeps, apart from the queue object, so that one release
 * frees it all: the {@code cl_command_queue}, the replay's batch and staging memory, the scratch
 * blocks of runs, the completion events kept for release, and, for each run the device has not
 * finished, what that run uses ({@link InFlight}).
 *
 * <p>The queue's {@link QueueHandle} releases it, on {@code close()} or, for a queue dropped unclosed,
 * from the GC (reported as a leak with the place the queue was made). The release action holds this
 * object and never the queue, so a dropped queue is collected; and because this object stays
 * reachable until the release has run, so does everything a run in flight uses: the release first
 * waits for the device ({@code clFinish}), and only then lets the buffers' blocks, the scratch and
 * the staging go.
 */
@AllocatesForCaller
final class QueueResources {
    /** The owned handle of a queue: its release frees the {@link QueueResources} (a leak report names it {@code QueueHandle}). */
    static final class QueueHandle extends NativeHandle {
        QueueHandle(QueueResources resources) {
            super(resources.queue.handle().address(), -1, true, dev.panamax.core.memory.SegmentAccess.SHARED,
                    (address, size) -> resources.free());
        }
    }

    /**
     * What one run uses until the device has finished it: the handles of the buffers its commands
     * name (so that the GC does not hand their blocks back to the pool while the device still reads or
     * writes them), its scratch block, its completion event, and the release of the references its
     * command buffer holds. On a list of its queue's from replay until the run finishes.
     */
    static final class InFlight {
        private NativeHandle[] handles = new NativeHandle[4];
        private int count;
        private NativeHandle last;
        OpenClQueue.Scratch scratch;
        /** The run's completion event (0 until the replay made it). */
        long event;
        /** Drops the references a RETAINED command buffer holds (run here only for a run nobody will finish). */
        Runnable references;
        InFlight previous, next;

        /** Keeps {@code h} reachable until the run finishes. */
        void hold(NativeHandle h) {
            if (h == last) return;
            last = h;
            if (count == handles.length) handles = Arrays.copyOf(handles, count * 2);
            handles[count++] = h;
        }

        private void drop() {
            Arrays.fill(handles, 0, count, null);
            count = 0;
            last = null;
        }
    }

    private static void runSafely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            System.getLogger(QueueResources.class.getName()).log(System.Logger.Level.WARNING,
                    "dropping a run's references while freeing a command queue failed", e);
        }
    }

    private static final int MAX_RETIRED = 16;
    private static final int MAX_IDLE_SCRATCH = 4;

    final ClCommandQueue queue;
    /** The replay's batch and staging memory (the replay replaces them as they grow). */
    Batch batch;
    OpenClQueue.Scratch staging;
    private final ConcurrentLinkedDeque<OpenClQueue.Scratch> scratch = new ConcurrentLinkedDeque<>();
    /** Completion events of finished runs, released when the next commit starts; guarded by this. */
    private final long[] retired = new long[MAX_RETIRED];
    private int retiredCount;
    /** Runs the device has not finished, newest first; guarded by this. */
    private InFlight inFlight;
    /** Set by {@link OpenClQueue#close()} before the release: a run finishing later still owns its event. */
    private volatile boolean closedByCode;
    private volatile boolean freed;

    QueueResources(ClCommandQueue queue) {
        this.queue = queue;
        this.batch = Batch.createShared(BatchMode.STANDARD, 64);
    }

    // ------------------------------------------------------------------ runs

    /** Puts a new run's {@link InFlight} on the list. */
    InFlight startRun(OpenClQueue.Scratch runScratch, Runnable references) {
        InFlight f = new InFlight();
        f.scratch = runScratch;
        f.references = references;
        synchronized (this) {
            f.next = inFlight;
            if (inFlight != null) inFlight.previous = f;
            inFlight = f;
        }
        return f;
    }

    /** The device is done with the run (or it never started): what it held may go. */
    void runFinished(InFlight f) {
        synchronized (this) {
            if (f.previous == null && f.next == null && inFlight != f) return; // already off the list
            if (f.previous != null) f.previous.next = f.next;
            else inFlight = f.next;
            if (f.next != null) f.next.previous = f.previous;
            f.previous = f.next = null;
        }
        f.references = null;
        f.drop();
    }

    // ------------------------------------------------------------------ scratch and events

    OpenClQueue.Scratch pollScratch() {
        return scratch.pollFirst();
    }

    void returnScratch(OpenClQueue.Scratch b) {
        if (!freed && b.segment().byteSize() <= (1 << 20) && scratch.size() < MAX_IDLE_SCRATCH) {
            scratch.push(b);
            if (!freed || !scratch.removeFirstOccurrence(b)) return;
        }
        b.free();
    }

    /** Keeps a finished run's event for release by {@link #releaseRetired()}, or releases it now. */
    void retire(long event) {
        synchronized (retired) {
            if (!freed && retiredCount < MAX_RETIRED) {
                retired[retiredCount++] = event;
                return;
            }
        }
        CL.clReleaseEvent(MemorySegment.ofAddress(event));
    }

    void releaseRetired() {
        while (true) {
            long event;
            synchronized (retired) {
                if (retiredCount == 0) return;
                event = retired[--retiredCount];
            }
            CL.clReleaseEvent(MemorySegment.ofAddress(event));
        }
    }

    void closedByCode() {
        closedByCode = true;
    }

    /**
     * Waits for the device to finish what was enqueued, then frees everything; once. On
     * {@code close()} the caller waits; for a queue the GC found, a thread of its own waits, so the
     * cleanup of other handles goes on meanwhile. A queue dropped unclosed has runs nobody will
     * finish: their events are released here too (no run can still use them: the runs were
     * unreachable with the queue).
     */
    private void free() {
        freed = true;
        if (closedByCode) {
            finishAndFree();
        } else {
            Thread.ofVirtual().name("panamax-dropped-queue-release").start(this::finishAndFree);
        }
    }

    private void finishAndFree() {
        try {
            int status = CL.clFinish(queue.handle());
            if (status != CL.CL_SUCCESS) {
                System.getLogger(QueueResources.class.getName()).log(System.Logger.Level.WARNING,
                        "clFinish returned " + status + " while freeing a command queue; its memory is freed all the same");
            }
        } finally {
            // off the list under the lock: a run finishing meanwhile (after a close) then finds itself gone
            java.util.List<InFlight> left = new java.util.ArrayList<>();
            synchronized (this) {
                for (InFlight f = inFlight; f != null; ) {
                    InFlight n = f.next;
                    f.previous = f.next = null;
                    left.add(f);
                    f = n;
                }
                inFlight = null;
            }
            boolean dropped = !closedByCode;
            for (InFlight f : left) {
                if (dropped && f.event != 0) CL.clReleaseEvent(MemorySegment.ofAddress(f.event));
                if (dropped && f.scratch != null) f.scratch.free();
                if (dropped && f.references != null) runSafely(f.references);
                f.drop();
            }
            releaseRetired();
            OpenClQueue.Scratch b;
            while ((b = scratch.poll()) != null) b.free();
            batch.close();
            if (staging != null) staging.free();
            queue.close();
        }
    }
}

package dev.panamax.tensor.cpu;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.Storage;
import dev.panamax.tensor.spi.UnaryOp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One thread's recording of kernels (lazy execution). Each kernel's descriptor is written into a
 * descriptor area that stays put until the recording runs; the kernel is appended to a core
 * {@link Batch} (its MetaABI thunk, the descriptor's address as the argument), and the whole
 * recording runs in one native crossing when it is flushed: on {@link #sync()} (the frontend calls it
 * before Java reads, writes or frees storage), or when {@value #DEFAULT_CAPACITY} kernels (by default)
 * are waiting.
 *
 * <p>A short recording is not worth a batch (making and freeing one costs more than a few crossings):
 * the first {@value #DIRECT_MAX} kernels wait in a small list and, if no more follow before the sync,
 * run as direct calls; the next one moves them all into the batch. The recorded SPI kernels are held until
 * they ran, which keeps their storage reachable (the GC cannot free memory a waiting kernel will
 * touch), and name the kernel when one fails. Temporaries the lowering made (contiguous copies) are
 * freed after the run. In eager mode ({@code panamax.tensor.lazy=false}) every kernel runs when
 * submitted, one crossing each.
 *
 * <p>Other threads: the recorder is used by its own thread under its {@link #lock()} (uncontended,
 * so cheap), and another thread that needs what a waiting kernel computes (or the storage it touches)
 * runs the recording with {@link #runFor(Recording)} under the same lock. The batch's memory belongs
 * to the recording thread, so another thread runs the kernels as direct calls, and the batch is
 * cleared by its own thread when it next records. Each recording pins the storage its kernels touch
 * until they ran, so a tensor closed on another thread meanwhile gives its block back (to be taken
 * by another tensor) only afterwards.
 *
 * <p>The batch is closed on every {@link #sync()}, so between syncs nothing of the recording holds
 * native memory through core's accounting; within one recording, a batch that fills is run, cleared
 * and reused.
 */
final class Recorder {
    static final int DEFAULT_CAPACITY = 1024;
    /** Kernels a recording runs as direct calls at its sync rather than through a batch. */
    static final int DIRECT_MAX = 4;
    /** Work (in element operations) below which a direct call stays on the critical tier. */
    static final long CRITICAL_WORK = 1 << 16;
    private static final int CHUNK_BYTES = 64 * 1024;

    private final CpuBackend backend;
    private final boolean lazy;
    private final int capacity;
    private final Thread thread = Thread.currentThread();
    private final ReentrantLock lock = new ReentrantLock();
    private final Arena arena = Arena.ofAuto();
    private final List<MemorySegment> chunks = new ArrayList<>();
    private int chunk;
    private long used;
    /** The native kernels recorded since the last run, in order, with their descriptors, work and SPI kernel. */
    private CpuKernel[] kernels = new CpuKernel[16];
    private Descriptor[] descriptors = new Descriptor[16];
    private long[] work = new long[16];
    private Kernel[] sources = new Kernel[16];
    private int count;
    private Batch batch;
    /** Whether the batch holds entries another thread already ran (it cannot clear a batch it does not own). */
    private boolean batchStale;
    private final ArrayList<Storage> temporaries = new ArrayList<>();
    /** Storage the recording pinned (each once), unpinned when it ran: closed meanwhile, its block waits for it. */
    private final ArrayList<Storage> pinned = new ArrayList<>();
    private Recording current = new Recording(this);
    private final KernelOperands operands = new KernelOperands();
    /** The step being captured on this thread, or null: it takes every kernel instead of the recording. */
    private CpuCapture capture;

    Recorder(CpuBackend backend, boolean lazy, int capacity) {
        this.backend = backend;
        this.lazy = lazy;
        this.capacity = capacity;
    }

    /** The lock its thread holds while recording or running, and another thread while running it. */
    ReentrantLock lock() {
        return lock;
    }

    /** The recording that kernels submitted now belong to (guarded by the lock). */
    Recording current() {
        return current;
    }

    /** Room for a descriptor of {@code words} words that stays valid until the recording has run. */
    Descriptor descriptor(int words) {
        if (capture != null) return capture.descriptor(words);
        long bytes = 8L * words;
        if (chunks.isEmpty()) chunks.add(arena.allocate(CHUNK_BYTES, 64)); // a thread that only allocates needs none
        if (used + bytes > CHUNK_BYTES) {
            chunk++;
            used = 0;
            if (chunk == chunks.size()) chunks.add(arena.allocate(CHUNK_BYTES, 64));
        }
        MemorySegment s = chunks.get(chunk).asSlice(used, bytes);
        used += bytes;
        return new Descriptor(s);
    }

    /** Runs {@code kernel} on {@code d} now (eager mode) or later (lazy); {@code source} is what it computes. */
    void submit(CpuKernel kernel, Descriptor d, long work, Kernel source) {
        backend.countKernel(source);
        if (capture != null) {
            capture.add(kernel, d, source);
            return;
        }
        if (!lazy) {
            try {
                backend.countCrossing(1);
                long status = kernel.call(d.segment(), work >= CRITICAL_WORK);
                if (status != 0) throw failed(source, status, null);
            } finally {
                chunk = 0;
                used = 0;
            }
            return;
        }
        if (batchStale) {
            batch.clear();
            batchStale = false;
        }
        add(kernel, d, work, source);
        if (count <= DIRECT_MAX) return;
        if (batch == null) batch = Batch.create(BatchMode.STANDARD, Math.min(capacity, 256));
        if (count == DIRECT_MAX + 1) {
            for (int i = 0; i < count; i++) record(kernels[i], descriptors[i]);
        } else {
            record(kernel, d);
        }
    }

    /**
     * Runs the recording when {@code capacity} kernels wait (holding the lock). Called once a whole
     * SPI kernel is recorded and noted, never halfway through one: every kernel of a recording runs
     * under the pins the recording took for its SPI kernel, and a storage notes the recording its
     * kernel really is in.
     */
    void flushIfFull() {
        if (batch != null && batch.size() >= capacity) flush();
    }

    private void add(CpuKernel kernel, Descriptor d, long w, Kernel source) {
        if (count == kernels.length) {
            int n = count * 2;
            kernels = Arrays.copyOf(kernels, n);
            descriptors = Arrays.copyOf(descriptors, n);
            work = Arrays.copyOf(work, n);
            sources = Arrays.copyOf(sources, n);
        }
        kernels[count] = kernel;
        descriptors[count] = d;
        work[count] = w;
        sources[count] = source;
        count++;
    }

    /** A contiguous copy of {@code o} (recorded before whatever uses it), freed after the recording runs. */
    Operand contiguousCopy(Operand o) {
        Storage s = backend.allocate(o.dtype(), o.elements());
        if (capture != null) capture.temporary(s);
        else temporaries.add(s);
        int[] shape = o.shape();
        long[] strides = new long[shape.length];
        long step = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = step;
            step *= shape[i];
        }
        Operand copy = new Operand(s, shape, strides, 0);
        Lowering.submit(new Kernel.Unary(UnaryOp.COPY, copy, o), this);
        return copy;
    }

    /**
     * The end of one SPI kernel's submission: in eager mode its temporaries are freed now (it has
     * run); in lazy mode they wait for the recording.
     */
    void endOfKernel() {
        if (!lazy) reset();
    }

    /** Runs what is recorded and closes the batch (on the recorder's own thread, holding the lock). */
    void sync() {
        try {
            flush();
        } finally {
            if (batch != null) {
                Batch b = batch;
                batch = null;
                batchStale = false;
                b.close();
            }
        }
    }

    /** Runs what is recorded; the batch (if any) stays open for the next recording. Holding the lock. */
    void flush() {
        try {
            if (count > 0) {
                if (count <= DIRECT_MAX || Thread.currentThread() != thread) {
                    for (int i = 0; i < count; i++) runNow(i);
                } else {
                    backend.countCrossing(batch.size());
                    try {
                        batch.run();
                    } catch (BatchFailedException e) {
                        throw failed(sources[e.index()], e.code(), e);
                    }
                }
            }
        } finally {
            reset();
        }
    }

    /**
     * Runs {@code recording} if it has not run, from any thread: what another thread calls before it
     * reads, frees or computes on storage a kernel of {@code recording} touches.
     */
    void runFor(Recording recording) {
        if (recording.ran) return;
        lock.lock();
        try {
            if (!recording.ran) flush();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Pins {@code s} until the current recording ran, unless the recording pinned it already (holding
     * the lock): a close on another thread makes the tensor unusable at once, but its block goes back
     * to the pool only after the waiting kernels ran.
     *
     * @throws dev.panamax.core.memory.HandleReleasedException when the storage is already freed
     */
    void pin(Storage s, Track t) {
        if (t.pinnedIn == current) return;
        s.handle().pin();
        pinned.add(s);
        t.pinnedIn = current;
    }

    /** The step being captured on this thread, or null (its own thread only). */
    CpuCapture capture() {
        return capture;
    }

    /**
     * Starts capturing on this thread (its own thread, holding the lock): what was recorded runs
     * first, and from now on every kernel goes into the capture until it ends.
     */
    CpuCapture beginCapture() {
        if (capture != null) {
            throw new dev.panamax.tensor.TensorException("capture", "this thread is already capturing a step on the cpu backend;"
                    + " captures do not nest");
        }
        sync();
        capture = new CpuCapture(backend, this);
        return capture;
    }

    /** Ends {@code c}, this thread's capture: kernels go to the recording again. */
    void endCapture(CpuCapture c) {
        if (capture == c) capture = null;
    }

    /** The reusable gatherer of one kernel's operands (its own thread only). */
    KernelOperands operands() {
        return operands;
    }

    /** Runs whatever is recorded now, from any thread (a thread about to overwrite storage this one made). */
    void runPending() {
        lock.lock();
        try {
            if (count > 0 || current.noted) flush();
        } finally {
            lock.unlock();
        }
    }

    private void record(CpuKernel kernel, Descriptor d) {
        batch.add(kernel.recorder().thunk()).params().setAddress(0, d.segment());
    }

    /** Runs native kernel {@code index} of the recording now. */
    private void runNow(int index) {
        backend.countCrossing(1);
        long status = kernels[index].call(descriptors[index].segment(), work[index] >= CRITICAL_WORK);
        if (status != 0) throw failed(sources[index], status, null);
    }

    private void reset() {
        Arrays.fill(kernels, 0, count, null);
        Arrays.fill(descriptors, 0, count, null);
        Arrays.fill(sources, 0, count, null);
        count = 0;
        chunk = 0;
        used = 0;
        if (batch != null && !batchStale) {
            if (Thread.currentThread() == thread) batch.clear();
            else batchStale = true; // cleared by its own thread
        }
        if (!temporaries.isEmpty()) {
            for (Storage s : temporaries) s.close();
            temporaries.clear();
        }
        boolean pinnedAny = !pinned.isEmpty();
        if (pinnedAny) {
            for (Storage s : pinned) s.handle().unpin();
            pinned.clear();
        }
        Recording done = current;
        if (done.noted || pinnedAny) { // a new recording, which pins afresh
            done.ran = true; // after the kernels ran: a thread that sees it sees their results
            if (done.shared) backend.ran(done);
            current = new Recording(this);
        }
    }

    private static IllegalStateException failed(Kernel kernel, long status, Throwable cause) {
        String why = status > 0 ? "index out of range at position " + (status - 1) : "bad descriptor (status " + status + ")";
        return new IllegalStateException("cpu backend: native kernel failed: " + why + " in " + kernel, cause);
    }
}

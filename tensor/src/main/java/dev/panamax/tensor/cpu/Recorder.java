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
import java.util.List;

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
    private final Arena arena = Arena.ofAuto();
    private final List<MemorySegment> chunks = new ArrayList<>();
    private int chunk;
    private long used;
    private final CpuKernel[] pendingKernels = new CpuKernel[DIRECT_MAX];
    private final Descriptor[] pendingDescriptors = new Descriptor[DIRECT_MAX];
    private final long[] pendingWork = new long[DIRECT_MAX];
    private int pending;
    private Batch batch;
    private final ArrayList<Kernel> recorded = new ArrayList<>();
    private final ArrayList<Storage> temporaries = new ArrayList<>();

    Recorder(CpuBackend backend, boolean lazy, int capacity) {
        this.backend = backend;
        this.lazy = lazy;
        this.capacity = capacity;
        chunks.add(arena.allocate(CHUNK_BYTES, 64));
    }

    /** Room for a descriptor of {@code words} words that stays valid until the recording has run. */
    Descriptor descriptor(int words) {
        long bytes = 8L * words;
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
        recorded.add(source);
        backend.countKernel(source);
        if (!lazy) {
            try {
                runNow(kernel, d, work, 0);
            } finally {
                recorded.clear();
                chunk = 0;
                used = 0;
            }
            return;
        }
        if ((batch == null || batch.size() == 0) && pending < DIRECT_MAX) {
            pendingKernels[pending] = kernel;
            pendingDescriptors[pending] = d;
            pendingWork[pending] = work;
            pending++;
            return;
        }
        if (batch == null) batch = Batch.create(BatchMode.STANDARD, Math.min(capacity, 256));
        for (int i = 0; i < pending; i++) record(pendingKernels[i], pendingDescriptors[i]);
        clearPending();
        record(kernel, d);
        if (batch.size() >= capacity) flush();
    }

    /** A contiguous copy of {@code o} (recorded before whatever uses it), freed after the recording runs. */
    Operand contiguousCopy(Operand o) {
        Storage s = backend.allocate(o.dtype(), o.elements());
        temporaries.add(s);
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

    /** Runs what is recorded and closes the batch. */
    void sync() {
        try {
            flush();
        } finally {
            if (batch != null) {
                Batch b = batch;
                batch = null;
                b.close();
            }
        }
    }

    /** Runs what is recorded; the batch (if any) stays open for the next recording. */
    void flush() {
        try {
            if (pending > 0) {
                for (int i = 0; i < pending; i++) runNow(pendingKernels[i], pendingDescriptors[i], pendingWork[i], i);
            } else if (batch != null && batch.size() > 0) {
                backend.countCrossing(batch.size());
                try {
                    batch.run();
                } catch (BatchFailedException e) {
                    throw failed(recorded.get(e.index()), e.code(), e);
                }
            }
        } finally {
            reset();
        }
    }

    private void record(CpuKernel kernel, Descriptor d) {
        batch.add(kernel.recorder().thunk()).params().setAddress(0, d.segment());
    }

    /** Runs one kernel now; {@code index} is its position in the recording (to name it if it fails). */
    private void runNow(CpuKernel kernel, Descriptor d, long work, int index) {
        backend.countCrossing(1);
        long status = kernel.call(d.segment(), work >= CRITICAL_WORK);
        if (status != 0) throw failed(recorded.get(index), status, null);
    }

    private void clearPending() {
        for (int i = 0; i < pending; i++) {
            pendingKernels[i] = null;
            pendingDescriptors[i] = null;
        }
        pending = 0;
    }

    private void reset() {
        clearPending();
        recorded.clear();
        chunk = 0;
        used = 0;
        if (batch != null) batch.clear();
        if (!temporaries.isEmpty()) {
            for (Storage s : temporaries) s.close();
            temporaries.clear();
        }
    }

    private static IllegalStateException failed(Kernel kernel, long status, Throwable cause) {
        String why = status > 0 ? "index out of range at position " + (status - 1) : "bad descriptor (status " + status + ")";
        return new IllegalStateException("cpu backend: native kernel failed: " + why + " in " + kernel, cause);
    }
}

package dev.panamax.tensor.cpu;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.spi.Capture;
import dev.panamax.tensor.spi.CapturedProgram;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.KernelText;
import dev.panamax.tensor.spi.Storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A step being captured on one thread of the cpu backend: the thread's {@link Recorder} hands every
 * native kernel here instead of to its own recording. Each kernel's descriptor is written into
 * descriptor chunks of the capture's own (never reused while the program lives) and its thunk
 * appended to a shared core {@link Batch} that is never run, cleared or flushed while capturing;
 * {@link #finish()} turns them into a {@link CpuProgram} that runs the batch once per replay.
 *
 * <p>Each storage a captured kernel touches is pinned once (a close meanwhile gives its block back
 * only when the program closes), and contiguous copies the lowering makes are the program's. The
 * capture also notes the storage allocated on its thread while it runs: a write from Java into one of
 * those that no captured kernel touched yet is a constant the program keeps reading (allowed); any
 * other write, and every read, is refused by the backend.
 */
final class CpuCapture implements Capture {
    private static final int CHUNK_BYTES = 64 * 1024;

    private final CpuBackend backend;
    private final Recorder recorder;
    private final Arena arena = Arena.ofShared();
    private MemorySegment chunk;
    private long used;
    private final Batch batch = Batch.createShared(BatchMode.STANDARD, 64);
    private final List<Kernel> sources = new ArrayList<>();
    private final Set<Storage> pinned = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Storage> temporaries = new ArrayList<>();
    private final Set<Storage> allocated = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean ended;

    CpuCapture(CpuBackend backend, Recorder recorder) {
        this.backend = backend;
        this.recorder = recorder;
    }

    /** Room for a descriptor of {@code words} words that stays put while the program lives. */
    Descriptor descriptor(int words) {
        long bytes = 8L * words;
        if (chunk == null || used + bytes > chunk.byteSize()) {
            chunk = arena.allocate(Math.max(CHUNK_BYTES, bytes), 64);
            used = 0;
        }
        MemorySegment s = chunk.asSlice(used, bytes);
        used += bytes;
        return new Descriptor(s);
    }

    /** Appends native kernel {@code kernel} on descriptor {@code d}, part of SPI kernel {@code source}. */
    void add(CpuKernel kernel, Descriptor d, Kernel source) {
        batch.add(kernel.recorder().thunk()).params().setAddress(0, d.segment());
        sources.add(source);
    }

    /** Holds {@code s} (a captured kernel touches it) until the program closes. */
    void touch(Storage s) {
        if (pinned.contains(s)) return;
        s.handle().pin(); // fails, named, for storage already freed
        pinned.add(s);
    }

    /** A contiguous copy the lowering made: the program's own, freed when it closes. */
    void temporary(Storage s) {
        temporaries.add(s);
        touch(s);
    }

    /** Notes storage allocated on the capturing thread while capturing. */
    void allocated(Storage s) {
        allocated.add(s);
    }

    /** Whether Java may write {@code s} now: made during the capture and used by no captured kernel yet (a constant). */
    boolean writable(Storage s) {
        return allocated.contains(s) && !pinned.contains(s);
    }

    /** The refusal of a kernel the native code does not cover (it would run outside the program). */
    TensorException notNative(Kernel k) {
        return new TensorException("capture", KernelText.describe(k) + " has no native cpu kernel (it would run on the reference"
                + " implementation, outside the captured program); a captured step can only hold native kernels: use f32"
                + " arithmetic and contiguous index operands, or run this step eagerly");
    }

    @Override
    public CapturedProgram finish() {
        end();
        return new CpuProgram(backend, batch, sources.toArray(Kernel[]::new), arena, new ArrayList<>(pinned), temporaries);
    }

    @Override
    public void abandon() {
        if (ended) return;
        end();
        CpuProgram.release(batch, arena, new ArrayList<>(pinned), temporaries);
    }

    private void end() {
        if (ended) throw new IllegalStateException("cpu capture already ended");
        ended = true;
        recorder.endCapture(this);
    }
}

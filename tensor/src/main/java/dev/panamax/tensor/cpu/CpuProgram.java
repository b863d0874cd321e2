package dev.panamax.tensor.cpu;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchFailedException;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.spi.CapturedProgram;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.KernelText;
import dev.panamax.tensor.spi.Storage;

import java.lang.foreign.Arena;
import java.util.List;

/**
 * A captured step on the cpu backend: one core {@link Batch} of native kernels whose descriptors
 * stay put, run whole by {@link #replay()} in one native crossing. It holds (pinned) every storage
 * its kernels touch, so none of their blocks returns to the pool while it lives, and the contiguous
 * copies its lowering made; {@link #close()} lets them all go.
 */
final class CpuProgram implements CapturedProgram {
    private final CpuBackend backend;
    private final Batch batch;
    private final Kernel[] sources;
    private final Arena descriptors;
    private final List<Storage> pinned;
    private final List<Storage> temporaries;
    private boolean closed;

    CpuProgram(CpuBackend backend, Batch batch, Kernel[] sources, Arena descriptors, List<Storage> pinned, List<Storage> temporaries) {
        this.backend = backend;
        this.batch = batch;
        this.sources = sources;
        this.descriptors = descriptors;
        this.pinned = pinned;
        this.temporaries = temporaries;
    }

    @Override
    public int kernels() {
        return sources.length;
    }

    @Override
    public void replay() {
        if (closed) throw new IllegalStateException("captured cpu program is closed");
        backend.sync(); // what this thread submitted before runs first
        backend.countReplay(sources.length);
        try {
            batch.run();
        } catch (BatchFailedException e) {
            long status = e.code();
            String why = status > 0 ? "index out of range at position " + (status - 1) : "bad descriptor (status " + status + ")";
            throw new TensorException("replay", "kernel " + e.index() + " of the captured step failed: " + why + " in "
                    + KernelText.describe(sources[e.index()]));
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        release(batch, descriptors, pinned, temporaries);
    }

    /** Frees what a capture or program holds: the batch, the temporaries, the pins, the descriptors. */
    static void release(Batch batch, Arena descriptors, List<Storage> pinned, List<Storage> temporaries) {
        try {
            batch.close();
            for (Storage s : temporaries) s.close();   // pinned: freed with the unpin below
            for (Storage s : pinned) s.handle().unpin();
        } finally {
            descriptors.close();
        }
    }
}

package dev.panamax.tensor.opencl;

import dev.panamax.compute.RecordedCommands;
import dev.panamax.tensor.spi.CapturedProgram;
import dev.panamax.tensor.spi.Storage;

import java.util.List;

/**
 * A captured step on the opencl backend: one recorded command buffer ({@link RecordedCommands})
 * that {@link #replay()} submits whole, in the backend's stream after everything submitted before
 * it (the inputs copied in, the hooks' writes), with no per-kernel work in Java: the kernels were
 * lowered, encoded and validated once, at capture. A CLBlast product is a native command of the
 * recording, so each replay makes one Java call per product (into CLBlast, with the queue), none per
 * elementwise or reduction kernel.
 *
 * <p>As every opencl kernel, a replay does not wait for the device: its results are in its storage
 * for whatever runs after it, and a read waits for them; an index out of range found by the device
 * is thrown, naming the op, by the next sync that waits (a read, {@code item()}). The program holds
 * (pinned) every storage its kernels touch, and the recording a reference on their buffers, until
 * {@link #close()}, which waits for its last replay.
 */
final class ClProgram implements CapturedProgram {
    private final OpenClTensorBackend backend;
    private final RecordedCommands recorded;
    private final int kernels;
    private final boolean checksIndices;
    private final List<Storage> pinned;
    private boolean closed;

    ClProgram(OpenClTensorBackend backend, RecordedCommands recorded, int kernels, boolean checksIndices, List<Storage> pinned) {
        this.backend = backend;
        this.recorded = recorded;
        this.kernels = kernels;
        this.checksIndices = checksIndices;
        this.pinned = pinned;
    }

    @Override
    public int kernels() {
        return kernels;
    }

    @Override
    public void replay() {
        if (closed) throw new IllegalStateException("captured opencl program is closed");
        backend.replay(recorded, kernels, checksIndices);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            recorded.close(); // waits for the last replay
        } finally {
            for (Storage s : pinned) s.handle().unpin();
        }
    }
}

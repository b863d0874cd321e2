package dev.panamax.tensor.opencl;

import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.ComputeEncoder;
import dev.panamax.compute.RecordedCommands;
import dev.panamax.tensor.spi.Capture;
import dev.panamax.tensor.spi.CapturedProgram;
import dev.panamax.tensor.spi.Storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A step being captured on the opencl backend ({@link OpenClTensorBackend#beginCapture()}): the
 * kernels the capturing thread submits are encoded into a command buffer of the capture's own
 * ({@link dev.panamax.compute.CommandQueue#commandBufferForRecording()}: it keeps every buffer it
 * encodes alive, though the step frees its intermediates before the capture ends), never the
 * backend's shared open one, and never committed; {@link #finish()} records it
 * ({@link CommandBuffer#record()}) into the {@link ClProgram} that each replay submits whole.
 *
 * <p>Each storage a captured command touches is pinned once (a close meanwhile gives its block back
 * only when the program closes). The capture also notes the storage allocated on its thread while it
 * runs: a write from Java into one of those that no captured command touched yet is a constant the
 * program keeps reading (it goes into the shared stream, which runs before any replay); any other
 * write, every read and every copy through Java is refused by the backend. State guarded by the backend.
 */
final class ClCapture implements Capture {
    private final OpenClTensorBackend backend;
    private final Thread thread;
    private final CommandBuffer commands;
    private ComputeEncoder compute;
    private final Set<Storage> pinned = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Storage> allocated = Collections.newSetFromMap(new IdentityHashMap<>());
    private int kernels;
    private boolean checksIndices;
    private boolean ended;

    ClCapture(OpenClTensorBackend backend, CommandBuffer commands) {
        this.backend = backend;
        this.thread = Thread.currentThread();
        this.commands = commands;
    }

    /** Whether the calling thread is the capturing one. */
    boolean onCapturingThread() {
        return Thread.currentThread() == thread;
    }

    /** The capture's command buffer, its compute encoder ended (for a blit or a native command). */
    CommandBuffer commandBuffer() {
        endCompute();
        return commands;
    }

    /** The capture's compute encoder. */
    ComputeEncoder computeEncoder() {
        if (compute == null) compute = commands.computeEncoder();
        return compute;
    }

    private void endCompute() {
        if (compute != null) {
            ComputeEncoder e = compute;
            compute = null;
            e.close();
        }
    }

    /** Counts a captured kernel. */
    void kernel() {
        kernels++;
    }

    /** Whether a kernel that checks indices was captured (its record is cleared at the start of every replay). */
    boolean checksIndices() {
        return checksIndices;
    }

    /** Notes that a kernel that checks indices was captured. */
    void checkingIndices() {
        checksIndices = true;
    }

    /** Holds {@code s} (a captured command touches it) until the program closes. */
    void touch(Storage s) {
        if (pinned.contains(s)) return;
        s.handle().pin(); // fails, named, for storage already freed
        pinned.add(s);
    }

    /** Notes storage allocated on the capturing thread while capturing. */
    void allocated(Storage s) {
        allocated.add(s);
    }

    /** Whether Java may write {@code s} now: made during the capture and used by no captured command yet (a constant). */
    boolean writable(Storage s) {
        return allocated.contains(s) && !pinned.contains(s);
    }

    @Override
    public CapturedProgram finish() {
        synchronized (backend) {
            end();
            RecordedCommands recorded;
            try {
                recorded = commands.record();
            } catch (RuntimeException e) {
                unpin();
                throw new OpenClTensorException(backend.device(), "recording the captured step's " + kernels + " kernels failed: "
                        + e.getMessage(), e);
            }
            return new ClProgram(backend, recorded, kernels, checksIndices, new ArrayList<>(pinned));
        }
    }

    @Override
    public void abandon() {
        synchronized (backend) {
            if (ended) return;
            end();
            try {
                commands.record().close(); // never submitted: nothing of it ran; drops the pins it took on its buffers
            } finally {
                unpin();
            }
        }
    }

    private void end() {
        if (ended) throw new IllegalStateException("opencl capture already ended");
        ended = true;
        endCompute();
        backend.endCapture(this);
    }

    private void unpin() {
        List<Storage> all = new ArrayList<>(pinned);
        pinned.clear();
        for (Storage s : all) s.handle().unpin();
    }
}

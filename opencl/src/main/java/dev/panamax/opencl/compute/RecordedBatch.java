package dev.panamax.opencl.compute;

import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.batch.Thunk;
import dev.panamax.opencl.binding.CLThunks;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A queue's core {@link Batch} as the recording of a {@link ReplayPlan}. When a plan calls the same
 * functions as the recording (the same command buffer shape as the previous commit), only the
 * parameters that differ from what the batch holds are written; otherwise the batch is recorded
 * afresh. The batch itself lives in the queue's {@link QueueResources}, so a dropped queue's
 * release frees it.
 */
final class RecordedBatch {
    private static final int STRIDE = ClCall.MAX_PARAMETERS;
    private static final long MAX_IDLE_BATCH_BYTES = 1 << 20;

    /** The queue's resources, whose batch this records; null for a batch of its own ({@link #owning()}). */
    private final QueueResources resources;
    private Batch own;
    /** For each {@link ClCall}, each parameter's offset from the first one's in a parameter block, learnt at its first recording. */
    private final long[][] relative = new long[ClCall.values().length][];
    /** The calls the batch holds now and where each one's parameters start in its argument area. */
    private ClCall[] recorded = new ClCall[64];
    private long[] blockStart = new long[64];
    /** The parameters as the batch holds them now: a replay of the same shape writes only the ones that differ. */
    private long[] written = new long[64 * STRIDE];
    /** How many calls the batch holds; -1: record afresh. */
    private int recordedSize = -1;

    RecordedBatch(QueueResources resources) {
        this.resources = resources;
    }

    /** A recording into a batch of its own, which {@link #close()} frees: a recorded command list's. */
    static RecordedBatch owning() {
        return new RecordedBatch(null);
    }

    /** Frees a batch of its own. */
    void close() {
        if (own != null) own.close();
        own = null;
        recordedSize = -1;
    }

    private Batch batch() {
        return resources != null ? resources.batch : own;
    }

    /** Makes the next {@link #emit} record afresh (what the batch holds is not known after a failure). */
    void forget() {
        recordedSize = -1;
    }

    /** Writes the plan into the batch: only the parameters that differ when the batch already records these calls. */
    void emit(ReplayPlan plan) {
        int size = plan.size();
        ClCall[] calls = plan.callArray();
        boolean same = recordedSize == size && Arrays.equals(recorded, 0, size, calls, 0, size);
        if (!same) record(plan);
        MemorySegment area = batch().arguments();
        if (!same) {
            for (int i = 0; i < size; i++) write(area, plan, i);
            return;
        }
        // a replay of the last shape mostly finds its parameters in the batch already: write the entries that differ
        long[] p = plan.parameterArray(), w = written;
        int end = size * STRIDE;
        for (int at = Arrays.mismatch(p, 0, end, w, 0, end); at >= 0; ) {
            int i = at / STRIDE;
            write(area, plan, i);
            int next = (i + 1) * STRIDE;
            int m = Arrays.mismatch(p, next, end, w, next, end);
            at = m < 0 ? -1 : next + m;
        }
    }

    /** Runs the batch: one crossing for every call (a failing call stops it, {@code BatchFailedException}). */
    void run() {
        batch().run();
    }

    /** Writes the parameters of entry {@code i} that differ from what its block holds. */
    private void write(MemorySegment area, ReplayPlan plan, int i) {
        ClCall call = recorded[i];
        long start = blockStart[i];
        long[] rel = relative[call.ordinal()], p = plan.parameterArray(), w = written;
        int o = i * STRIDE;
        for (int k = 0; k < call.parameters(); k++) {
            long v = p[o + k];
            if (v == w[o + k]) continue;
            if (call.isInt32(k)) area.set(ValueLayout.JAVA_INT, start + rel[k], (int) v);
            else area.set(ValueLayout.JAVA_LONG, start + rel[k], v);
            w[o + k] = v;
        }
        for (int k = call.parameters(); k < STRIDE; k++) w[o + k] = p[o + k]; // slots past its parameters: only noted
    }

    private void record(ReplayPlan plan) {
        recordedSize = -1;
        int size = plan.size();
        Batch batch = batch();
        if (resources == null) {
            if (batch == null) own = batch = Batch.createShared(BatchMode.STANDARD, Math.max(4, size));
            else batch.clear();
        } else if (batch.nativeBytes() > MAX_IDLE_BATCH_BYTES) { // do not keep what one large command buffer grew
            Batch smaller = Batch.createShared(BatchMode.STANDARD, 64);
            batch.close();
            resources.batch = batch = smaller;
        } else {
            batch.clear();
        }
        if (recorded.length < size) {
            int n = Math.max(size, recorded.length * 2);
            recorded = new ClCall[n];
            blockStart = new long[n];
            written = new long[n * STRIDE];
        } else {
            Arrays.fill(written, 0, size * STRIDE, 0L); // a fresh recording's blocks start zeroed
        }
        for (int i = 0; i < size; i++) {
            ClCall call = plan.call(i);
            var block = batch.add(thunk(call)).params();
            if (relative[call.ordinal()] == null) {
                long[] rel = new long[call.parameters()];
                for (int k = 0; k < call.parameters(); k++) rel[k] = block.offsetOf(k) - block.offsetOf(0);
                relative[call.ordinal()] = rel;
            }
            blockStart[i] = block.offsetOf(0);
            recorded[i] = call;
        }
        recordedSize = size;
    }

    private static Thunk thunk(ClCall call) {
        return switch (call) {
            case SET_ARG -> CLThunks.clSetKernelArg.thunk();
            case NDRANGE -> CLThunks.clEnqueueNDRangeKernel.thunk();
            case COPY -> CLThunks.clEnqueueCopyBuffer.thunk();
            case FILL -> CLThunks.clEnqueueFillBuffer.thunk();
            case WRITE -> CLThunks.clEnqueueWriteBuffer.thunk();
            case READ -> CLThunks.clEnqueueReadBuffer.thunk();
            case BARRIER -> CLThunks.clEnqueueBarrierWithWaitList.thunk();
            case MARKER -> CLThunks.clEnqueueMarkerWithWaitList.thunk();
            case FLUSH -> CLThunks.clFlush.thunk();
        };
    }
}

package dev.panamax.tensor.opencl;

import dev.panamax.compute.BlitEncoder;
import dev.panamax.compute.Buffer;
import dev.panamax.compute.CommandBuffer;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.StorageMode;
import dev.panamax.tensor.TensorException;

/**
 * Where the device's index-reading kernels report an index out of range, as a GPU reports a
 * device-side assert: the frontend does not read indices back before an op (that would be a host
 * round trip inside every training step), so {@code index_select}, {@code index_add} and
 * {@code cross_entropy} check each index themselves, touch no memory out of bounds, and the first
 * one to find a bad index records its op, the index and the bound here. The backend reads the record
 * with every command buffer it waits for and throws a {@link TensorException} naming them, once.
 *
 * <p>Layout (ints): code (0 none, 1 index select, 2 index add, 3 cross-entropy label), the index's
 * low and high words, the bound's low and high words.
 */
public final class IndexErrors implements AutoCloseable {
    private static final int WORDS = 8;
    private final Buffer flags;
    private boolean zeroed;

    public IndexErrors(ComputeDevice device) {
        this.flags = device.newBuffer(WORDS * Integer.BYTES, StorageMode.PRIVATE);
    }

    /** The buffer the kernels write (bound as their last argument). */
    Buffer buffer() {
        return flags;
    }

    /** Encodes the clearing of the record (before the first kernel that may write it). */
    void clearIn(CommandBuffer cb) {
        try (BlitEncoder blit = cb.blitEncoder()) {
            blit.fill(flags, 0, WORDS * Integer.BYTES, (byte) 0);
        }
        zeroed = true;
    }

    /** Whether {@link #clearIn} ran once. */
    boolean cleared() {
        return zeroed;
    }

    /**
     * Encodes a read of the record and then its clearing into {@code cb}; the returned array holds the
     * record once {@code cb} completed.
     */
    int[] readAndClearIn(CommandBuffer cb) {
        int[] record = new int[WORDS];
        try (BlitEncoder blit = cb.blitEncoder()) {
            blit.read(flags, 0, record);
            blit.fill(flags, 0, WORDS * Integer.BYTES, (byte) 0);
        }
        return record;
    }

    /** The failure a completed record describes, or null when no kernel found a bad index. */
    static TensorException failure(int[] record) {
        if (record == null || record[0] == 0) return null;
        long index = (record[1] & 0xFFFFFFFFL) | ((long) record[2] << 32);
        long bound = (record[3] & 0xFFFFFFFFL) | ((long) record[4] << 32);
        String op = switch (record[0]) {
            case 1 -> "indexSelect";
            case 2 -> "indexSelect (its gradient)";
            default -> "crossEntropy";
        };
        String what = record[0] == 3 ? "label" : "index";
        return new TensorException(op, what + " " + index + " out of bounds; expected 0 <= " + what + " < " + bound
                + " (found by the device when the op ran: the results of the ops since the last read are undefined)");
    }

    @Override
    public void close() {
        flags.close();
    }
}

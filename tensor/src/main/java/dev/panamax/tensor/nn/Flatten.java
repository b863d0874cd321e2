package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/**
 * Joins dimensions {@code startDim..endDim} into one, as PyTorch's {@code nn.Flatten} (by default
 * every dimension after the batch's).
 *
 * <pre>{@code
 * Tensor y = new Flatten().forward(x);    // x (8, 16, 4, 4) -> y (8, 256)
 * }</pre>
 */
public final class Flatten implements Module {
    private final int startDim;
    private final int endDim;

    /** Dimensions 1 to the last. */
    public Flatten() {
        this(1, -1);
    }

    public Flatten(int startDim, int endDim) {
        this.startDim = startDim;
        this.endDim = endDim;
    }

    @Override
    public Tensor forward(Tensor input) {
        int rank = input.rank();
        int start = startDim < 0 ? startDim + rank : startDim, end = endDim < 0 ? endDim + rank : endDim;
        if (rank == 0) return input.reshape(1);
        if (start < 0 || start >= rank || end < 0 || end >= rank || start > end) {
            throw new dev.panamax.tensor.TensorException("flatten", "startDim=" + startDim + " endDim=" + endDim + " for shape "
                    + input.shape() + "; expected -" + rank + " <= startDim <= endDim < " + rank);
        }
        int[] dims = input.dims();
        int[] out = new int[rank - (end - start)];
        System.arraycopy(dims, 0, out, 0, start);
        long joined = 1;
        for (int i = start; i <= end; i++) joined *= dims[i];
        out[start] = Math.toIntExact(joined);
        System.arraycopy(dims, end + 1, out, start + 1, rank - end - 1);
        return input.reshape(out);
    }
}

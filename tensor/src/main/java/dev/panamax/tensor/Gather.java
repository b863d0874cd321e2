package dev.panamax.tensor;

/**
 * PyTorch's {@code gather} and {@code one_hot}, built on index selection: gather turns each index into
 * a position in the flattened input, so its gradient is index selection's (a scatter-add).
 */
final class Gather {
    private Gather() {}

    /**
     * {@code out[i][j][k] = x[index[i][j][k]][j][k]} for axis 0 (likewise for any axis): the index
     * has x's rank, each dimension but {@code axis} no larger than x's, and the result has the
     * index's shape.
     */
    static Tensor gather(Tensor x, int axis, Tensor index) {
        Ops.check("gather", x, index);
        if (index.dtype().isFloating()) throw TensorException.of("gather", "expected an i32 or i64 index", x, index);
        if (index.rank() != x.rank()) {
            throw TensorException.of("gather", "index has rank " + index.rank() + "; expected the input's rank " + x.rank(), x, index);
        }
        int a = Reduction.normalize("gather", x, new int[] {axis})[0];
        for (int d = 0; d < x.rank(); d++) {
            if (d != a && index.dim(d) > x.dim(d)) {
                throw TensorException.of("gather", "index size " + index.dim(d) + " in dimension " + d + " exceeds the input's "
                        + x.dim(d) + "; expected index.dim(d) <= input.dim(d) for every d != axis", x, index);
            }
        }
        checkEveryIndex("gather", index, x.dim(a), x, index);
        return gatherInRange(x, a, index);
    }

    /**
     * {@link #gather} of an index already known to fit (axis resolved, rank and sizes checked, every
     * value in range): what {@code topk} uses for the indices it made, without reading them back.
     */
    static Tensor gatherInRange(Tensor x, int a, Tensor index) {
        long[] strides = x.shape.rowMajor();
        Tensor flat;
        try (var _ = Autograd.noGrad()) {
            flat = index.cast(DType.I64).mul(strides[a]);
            for (int d = 0; d < x.rank(); d++) {
                if (d == a || index.dim(d) <= 1) continue;
                int[] along = new int[x.rank()];
                java.util.Arrays.fill(along, 1);
                along[d] = index.dim(d);
                flat = flat.add(Creation.arange(x.backend, DType.I64, 0, index.dim(d), 1).mul(strides[d]).reshape(along));
            }
        }
        // every flat position is in range once each index is (checked by the caller, or made in range)
        return Movement.indexSelectInRange(x.contiguous().reshape(-1), 0, flat.contiguous().reshape(-1)).reshape(index.dims());
    }

    /**
     * PyTorch's {@code one_hot}: an integer tensor of class numbers to i64 of shape {@code (..., classes)},
     * 1 at each number's position; {@code classes = -1} takes the largest number plus one.
     */
    static Tensor oneHot(Tensor labels, int classes) {
        Ops.check("oneHot", labels);
        if (labels.dtype().isFloating()) throw TensorException.of("oneHot", "expected an i32 or i64 tensor of class numbers", labels);
        if (classes < -1) throw TensorException.of("oneHot", "classes " + classes + "; expected classes >= 0, or -1 to infer it", labels);
        if (classes == -1) {
            if (labels.elements() == 0) throw TensorException.of("oneHot", "cannot infer classes from an empty tensor; give classes", labels);
            long largest = labels.max().toLongArray()[0];
            if (largest >= Integer.MAX_VALUE) {
                throw TensorException.of("oneHot", "largest class " + largest + "; expected at most " + (Integer.MAX_VALUE - 1), labels);
            }
            classes = (int) Math.max(0, largest + 1); // a negative largest is refused below
        }
        checkEveryIndex("oneHot", labels, classes, labels);
        Tensor range = Creation.arange(labels.backend, DType.I64, 0, classes, 1);
        return labels.cast(DType.I64).unsqueeze(-1).eq(range);
    }

    /**
     * Every value of {@code index} within {@code [0, size)}, read on the host whichever the backend:
     * a gather or one-hot index out of range would otherwise pick a wrong element (or none) silently.
     */
    static void checkEveryIndex(String op, Tensor index, int size, Tensor... operands) {
        long[] values = index.toLongArray();
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] >= size) {
                throw TensorException.of(op, "index " + values[i] + " at position " + i + " out of bounds; expected 0 <= index < " + size,
                        operands);
            }
        }
    }
}

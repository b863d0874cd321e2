package dev.panamax.tensor.reference;

import dev.panamax.tensor.spi.Operand;

/**
 * Visits every index of a shape in row-major order and keeps, for each of several operands of that
 * shape, the element offset of the current index.
 */
final class Walk {
    private final int[] shape;
    private final long[][] strides;
    private final int[] index;
    final long[] offsets;
    private final long total;
    private long visited;

    Walk(int[] shape, Operand... operands) {
        this.shape = shape;
        this.strides = new long[operands.length][];
        this.offsets = new long[operands.length];
        for (int k = 0; k < operands.length; k++) {
            strides[k] = operands[k].strides();
            offsets[k] = operands[k].offset();
        }
        this.index = new int[shape.length];
        long n = 1;
        for (int d : shape) n *= d;
        this.total = n;
    }

    /** Whether {@link #offsets} holds a position not yet visited. */
    boolean hasNext() {
        return visited < total;
    }

    /** Moves to the next index (call after using the current offsets). */
    void advance() {
        visited++;
        for (int axis = shape.length - 1; axis >= 0; axis--) {
            index[axis]++;
            for (int k = 0; k < offsets.length; k++) offsets[k] += strides[k][axis];
            if (index[axis] < shape[axis]) return;
            for (int k = 0; k < offsets.length; k++) offsets[k] -= strides[k][axis] * shape[axis];
            index[axis] = 0;
        }
    }

    int index(int axis) {
        return index[axis];
    }
}

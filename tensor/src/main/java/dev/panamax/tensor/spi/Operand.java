package dev.panamax.tensor.spi;

import dev.panamax.tensor.DType;

import java.util.Arrays;

/**
 * A strided view of a storage, as a kernel sees it: element {@code (i0, i1, ...)} lives at
 * {@code offset + i0*strides[0] + i1*strides[1] + ...} (in elements, not bytes). Strides may be 0
 * (a broadcast dimension) and need not be row-major (a transpose). Kernels never keep operands past
 * their run; the arrays are not copied and must not be modified.
 */
public record Operand(Storage storage, int[] shape, long[] strides, long offset) {
    public Operand {
        if (shape.length != strides.length) {
            throw new IllegalArgumentException("shape and strides differ in rank: " + Arrays.toString(shape) + " " + Arrays.toString(strides));
        }
    }

    public DType dtype() {
        return storage.dtype();
    }

    public int rank() {
        return shape.length;
    }

    public long elements() {
        long n = 1;
        for (int d : shape) n *= d;
        return n;
    }

    /** Whether the elements are row-major and dense from {@code offset} (an empty operand always is). */
    public boolean isContiguous() {
        for (int d : shape) if (d == 0) return true;
        long s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] != 1 && strides[i] != s) return false;
            s *= shape[i];
        }
        return true;
    }

    @Override
    public String toString() {
        return "Operand[" + dtype().label() + " shape=" + Arrays.toString(shape) + " strides=" + Arrays.toString(strides)
                + " offset=" + offset + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Operand p && p.storage == storage && Arrays.equals(p.shape, shape)
                && Arrays.equals(p.strides, strides) && p.offset == offset;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(storage) * 31 + Arrays.hashCode(shape) * 17 + Long.hashCode(offset);
    }
}

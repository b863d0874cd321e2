package dev.panamax.tensor.opencl;

import dev.panamax.tensor.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * The index space of an elementwise kernel: one shape and, per operand, an offset and strides (in
 * elements), with dimensions of extent 1 dropped and neighbours merged wherever every operand steps
 * through them as one (a contiguous or uniformly broadcast block). A layout of rank 0 or of rank 1
 * with unit strides is {@link #dense()}: the kernel takes the flat index.
 *
 * @param shape   the merged shape
 * @param offsets per operand, its first element
 * @param strides per operand, its strides over {@code shape}
 */
record Layout(long[] shape, long[] offsets, long[][] strides) {
    /** The merged layout of operands viewed over {@code shape} (each operand's own shape is ignored). */
    static Layout of(int[] shape, Operand... operands) {
        List<Long> extents = new ArrayList<>();
        List<long[]> steps = new ArrayList<>();
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 1) continue;
            long[] s = new long[operands.length];
            for (int k = 0; k < operands.length; k++) s[k] = operands[k].strides()[d];
            int last = extents.size() - 1;
            if (last >= 0 && mergeable(steps.get(last), s, shape[d])) {
                extents.set(last, extents.get(last) * shape[d]);
                steps.set(last, s);
            } else {
                extents.add((long) shape[d]);
                steps.add(s);
            }
        }
        long[] merged = new long[extents.size()];
        long[][] strides = new long[operands.length][merged.length];
        for (int d = 0; d < merged.length; d++) {
            merged[d] = extents.get(d);
            for (int k = 0; k < operands.length; k++) strides[k][d] = steps.get(d)[k];
        }
        long[] offsets = new long[operands.length];
        for (int k = 0; k < operands.length; k++) offsets[k] = operands[k].offset();
        return new Layout(merged, offsets, strides);
    }

    /** Whether an outer dimension with strides {@code outer} continues into an inner one of {@code inner} and {@code extent}. */
    private static boolean mergeable(long[] outer, long[] inner, long extent) {
        for (int k = 0; k < outer.length; k++) if (outer[k] != inner[k] * extent) return false;
        return true;
    }

    long elements() {
        long n = 1;
        for (long e : shape) n *= e;
        return n;
    }

    /** Every operand walks its elements one after another. */
    boolean dense() {
        if (shape.length == 0) return true;
        if (shape.length > 1) return false;
        for (long[] s : strides) if (s[0] != 1) return false;
        return true;
    }

    /** What a strided kernel reads from its {@code layout} argument: rank, shape, then per operand its offset and strides. */
    long[] pack() {
        int rank = shape.length;
        long[] p = new long[1 + rank + offsets.length * (rank + 1)];
        p[0] = rank;
        System.arraycopy(shape, 0, p, 1, rank);
        for (int k = 0; k < offsets.length; k++) {
            int at = 1 + rank + k * (rank + 1);
            p[at] = offsets[k];
            System.arraycopy(strides[k], 0, p, at + 1, rank);
        }
        return p;
    }
}

package dev.panamax.tensor;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The sizes of a tensor's dimensions, outermost first. Immutable; a rank-0 shape is a scalar.
 *
 * <pre>{@code
 * Shape s = Shape.of(2, 3);
 * s.rank();          // 2
 * s.elements();      // 6
 * Shape.broadcast(Shape.of(2, 1), Shape.of(3));   // (2, 3), NumPy's rules
 * }</pre>
 */
public final class Shape {
    private static final Shape SCALAR = new Shape(new int[0]);
    private final int[] dims;
    private final long elements;
    private long[] contiguous; // row-major strides, made on first use, never handed out

    /**
     * The most elements a shape may have, 2^60 - 1: the byte size of any dtype's storage still fits
     * in a {@code long}.
     */
    public static final long MAX_ELEMENTS = Long.MAX_VALUE / 8;

    private Shape(int[] dims) {
        boolean empty = false;
        for (int d : dims) {
            if (d < 0) throw new IllegalArgumentException("negative dimension in shape " + notation(dims) + "; expected sizes >= 0");
            empty |= d == 0;
        }
        long n = empty ? 0 : 1;
        for (int i = 0; i < dims.length && n > 0; i++) {
            if (n > MAX_ELEMENTS / dims[i]) {
                BigInteger count = BigInteger.ONE;
                for (int d : dims) count = count.multiply(BigInteger.valueOf(d));
                throw new IllegalArgumentException("shape " + notation(dims) + " has " + count
                        + " elements; expected at most Shape.MAX_ELEMENTS=" + MAX_ELEMENTS);
            }
            n *= dims[i];
        }
        this.dims = dims;
        this.elements = n;
    }

    /** A shape of the given dimensions (copied). */
    public static Shape of(int... dims) {
        return dims.length == 0 ? SCALAR : new Shape(dims.clone());
    }

    /** The rank-0 shape of a scalar. */
    public static Shape scalar() {
        return SCALAR;
    }

    public int rank() {
        return dims.length;
    }

    /** Size of dimension {@code axis}; negative axes count from the end. */
    public int dim(int axis) {
        return dims[normalizeAxis(axis)];
    }

    /** The dimensions as a new array. */
    public int[] dims() {
        return dims.clone();
    }

    /** The number of elements (1 for a scalar). */
    public long elements() {
        return elements;
    }

    /** {@code axis} in {@code [0, rank)}, negative axes counted from the end; fails outside. */
    public int normalizeAxis(int axis) {
        int a = axis < 0 ? axis + dims.length : axis;
        if (a < 0 || a >= dims.length) {
            throw new IndexOutOfBoundsException("axis " + axis + " out of range for shape " + this + " (rank " + dims.length + ")");
        }
        return a;
    }

    /** Row-major (C order) strides in elements. */
    public long[] contiguousStrides() {
        return rowMajor().clone();
    }

    /** The shared row-major strides; callers must not modify them. */
    long[] rowMajor() {
        long[] c = contiguous;
        if (c == null) contiguous = c = computeRowMajor();
        return c;
    }

    private long[] computeRowMajor() {
        long[] strides = new long[dims.length];
        long s = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            strides[i] = s;
            s *= Math.max(1, dims[i]);
        }
        return strides;
    }

    /** This shape with dimension {@code axis} replaced by {@code size}. */
    public Shape with(int axis, int size) {
        int[] d = dims.clone();
        d[normalizeAxis(axis)] = size;
        return new Shape(d);
    }

    /**
     * NumPy's broadcasting: shapes are aligned at their last dimension; each pair of sizes must be
     * equal or one of them 1. Returns null when they do not broadcast.
     */
    public static Shape broadcast(Shape a, Shape b) {
        if (a.equals(b)) return a;
        int rank = Math.max(a.rank(), b.rank());
        int[] out = new int[rank];
        for (int i = 0; i < rank; i++) {
            int da = i < rank - a.rank() ? 1 : a.dims[i - (rank - a.rank())];
            int db = i < rank - b.rank() ? 1 : b.dims[i - (rank - b.rank())];
            if (da != db && da != 1 && db != 1) return null;
            out[i] = da == 1 ? db : da;
        }
        return new Shape(out);
    }

    int[] raw() {
        return dims;
    }

    static Shape wrap(int[] dims) {
        return dims.length == 0 ? SCALAR : new Shape(dims);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shape s && Arrays.equals(dims, s.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }

    /** NumPy's notation: {@code (2, 3)}, {@code (5,)}, {@code ()}. */
    @Override
    public String toString() {
        return notation(dims);
    }

    private static String notation(int[] dims) {
        if (dims.length == 1) return "(" + dims[0] + ",)";
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(dims[i]);
        }
        return sb.append(')').toString();
    }
}

package dev.panamax.tensor;

/** Elements out to Java arrays, and the text form of a tensor. */
final class Reading {
    private static final int SHOWN = 64;

    private Reading() {}

    static float[] floats(Tensor t) {
        float[] out = new float[Math.toIntExact(t.elements())];
        copyOut("toFloatArray", t, DType.F32, out);
        return out;
    }

    static double[] doubles(Tensor t) {
        double[] out = new double[Math.toIntExact(t.elements())];
        if (t.dtype().isFloating()) {
            float[] f = floats(t);
            for (int i = 0; i < f.length; i++) out[i] = f[i];
        } else {
            long[] l = longs(t);
            for (int i = 0; i < l.length; i++) out[i] = l[i];
        }
        return out;
    }

    static int[] ints(Tensor t) {
        int[] out = new int[Math.toIntExact(t.elements())];
        copyOut("toIntArray", t, DType.I32, out);
        return out;
    }

    static short[] halves(Tensor t) {
        short[] out = new short[Math.toIntExact(t.elements())];
        copyOut("toHalfArray", t, DType.F16, out);
        return out;
    }

    static long[] longs(Tensor t) {
        long[] out = new long[Math.toIntExact(t.elements())];
        copyOut("toLongArray", t, DType.I64, out);
        return out;
    }

    /** t's values as {@code dtype}, row-major, into {@code array} (a primitive array of that layout). */
    private static void copyOut(String op, Tensor t, DType dtype, Object array) {
        Ops.check(op, t);
        Tensor d = t.dtype() == dtype && t.isContiguous() ? t : Movement.copyAs(t, dtype);
        long bytes = t.elements() * dtype.byteSize();
        try {
            // after whatever thread recorded what computes it; the backend pins the storage while it copies
            d.backend.read(d.storage, d.offset * dtype.byteSize(), Creation.heap(array).asSlice(0, bytes));
        } finally {
            if (d != t) d.storage.close();
        }
    }

    static String describe(Tensor t) {
        StringBuilder sb = new StringBuilder("Tensor(").append(t.shape).append(' ').append(t.dtype().label())
                .append(" on ").append(t.backend.name());
        if (t.isFreed()) return sb.append(", freed)").toString();
        if (t.requiresGrad()) sb.append(", requiresGrad");
        if (t.elements() <= SHOWN) {
            sb.append(", ");
            if (t.dtype().isFloating()) appendNested(sb, t.toDoubleArray(), null, t.shape.raw());
            else appendNested(sb, null, t.toLongArray(), t.shape.raw());
        }
        return sb.append(')').toString();
    }

    private static void appendNested(StringBuilder sb, double[] d, long[] l, int[] dims) {
        int[] at = {0};
        nest(sb, d, l, dims, 0, at);
    }

    private static void nest(StringBuilder sb, double[] d, long[] l, int[] dims, int axis, int[] at) {
        if (axis == dims.length) {
            if (d != null) sb.append((float) d[at[0]++]);
            else sb.append(l[at[0]++]);
            return;
        }
        sb.append('[');
        for (int i = 0; i < dims[axis]; i++) {
            if (i > 0) sb.append(", ");
            nest(sb, d, l, dims, axis + 1, at);
        }
        sb.append(']');
    }
}

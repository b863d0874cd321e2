package dev.panamax.tensor;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Elements out to Java arrays, and the text form of a tensor. */
final class Reading {
    private static final int SHOWN = 64;

    private Reading() {}

    /** A contiguous tensor of {@code dtype} with t's values (t itself when it is one), synced. */
    private static Tensor dense(String op, Tensor t, DType dtype) {
        Ops.check(op, t);
        Tensor d = t.dtype() == dtype && t.isContiguous() ? t : Movement.copyAs(t, dtype);
        d.backend.sync();
        return d;
    }

    private static void release(Tensor temporary, Tensor original) {
        if (temporary != original) temporary.storage.close();
    }

    static float[] floats(Tensor t) {
        Tensor d = dense("toFloatArray", t, DType.F32);
        float[] out = new float[Math.toIntExact(t.elements())];
        MemorySegment.copy(d.storage.segment(), ValueLayout.JAVA_FLOAT, d.offset * 4, out, 0, out.length);
        release(d, t);
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
        Tensor d = dense("toIntArray", t, DType.I32);
        int[] out = new int[Math.toIntExact(t.elements())];
        MemorySegment.copy(d.storage.segment(), ValueLayout.JAVA_INT, d.offset * 4, out, 0, out.length);
        release(d, t);
        return out;
    }

    static long[] longs(Tensor t) {
        Tensor d = dense("toLongArray", t, DType.I64);
        long[] out = new long[Math.toIntExact(t.elements())];
        MemorySegment.copy(d.storage.segment(), ValueLayout.JAVA_LONG, d.offset * 8, out, 0, out.length);
        release(d, t);
        return out;
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

package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.ReduceOp;

import java.lang.foreign.MemorySegment;

/** Reductions along one axis: for each output element, a loop down the axis. */
final class Reductions {
    private Reductions() {}

    static void reduce(ReduceOp op, Operand out, Operand in, int axis) {
        MemorySegment o = HostStorage.of(out.storage()).segment(), x = HostStorage.of(in.storage()).segment();
        DType t = in.dtype();
        int length = in.shape()[axis];
        long step = in.strides()[axis];
        // walk the output's shape; the input's offset at axis index 0 follows with the same strides
        Operand base = new Operand(in.storage(), out.shape(), in.strides(), in.offset());
        for (Walk w = new Walk(out.shape(), out, base); w.hasNext(); w.advance()) {
            long start = w.offsets[1];
            switch (op) {
                case SUM -> {
                    if (t.isFloating()) {
                        double sum = 0;
                        for (int i = 0; i < length; i++) sum += Elements.get(x, t, start + i * step);
                        Elements.set(o, t, w.offsets[0], sum);
                    } else {
                        long sum = 0; // wraps as two's complement past the i64 range
                        for (int i = 0; i < length; i++) sum += Elements.getLong(x, t, start + i * step);
                        Elements.setLong(o, out.dtype(), w.offsets[0], sum);
                    }
                }
                case MAX, MIN -> {
                    double best = Elements.get(x, t, start);
                    for (int i = 1; i < length; i++) {
                        double v = Elements.get(x, t, start + i * step);
                        if (Double.isNaN(best)) break;
                        if (Double.isNaN(v) || (op == ReduceOp.MAX ? v > best : v < best)) best = v;
                    }
                    if (t.isFloating()) Elements.set(o, t, w.offsets[0], best);
                    else Elements.setLong(o, t, w.offsets[0], extremeLong(op, x, t, start, step, length));
                }
                case ARGMAX -> {
                    if (!t.isFloating()) {
                        Elements.setLong(o, out.dtype(), w.offsets[0], argmaxLong(x, t, start, step, length));
                        continue;
                    }
                    int bestAt = 0;
                    double best = Elements.get(x, t, start);
                    for (int i = 1; i < length && !Double.isNaN(best); i++) {
                        double v = Elements.get(x, t, start + i * step);
                        if (Double.isNaN(v) || v > best) {
                            best = v;
                            bestAt = i;
                        }
                    }
                    Elements.setLong(o, out.dtype(), w.offsets[0], bestAt);
                }
            }
        }
    }

    /** The first index of the largest integer, compared as longs (a double would merge values beyond 2^53). */
    private static int argmaxLong(MemorySegment x, DType t, long start, long step, int length) {
        int bestAt = 0;
        long best = Elements.getLong(x, t, start);
        for (int i = 1; i < length; i++) {
            long v = Elements.getLong(x, t, start + i * step);
            if (v > best) {
                best = v;
                bestAt = i;
            }
        }
        return bestAt;
    }

    private static long extremeLong(ReduceOp op, MemorySegment x, DType t, long start, long step, int length) {
        long best = Elements.getLong(x, t, start);
        for (int i = 1; i < length; i++) {
            long v = Elements.getLong(x, t, start + i * step);
            best = op == ReduceOp.MAX ? Math.max(best, v) : Math.min(best, v);
        }
        return best;
    }
}

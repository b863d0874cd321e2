package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.ReduceOp;

import java.util.Arrays;

/** Reductions over axes (one reduce kernel per axis), their gradients, and sums to a broadcast source. */
final class Reduction {
    private Reduction() {}

    static int[] allAxes(Tensor t) {
        int[] a = new int[t.rank()];
        for (int i = 0; i < a.length; i++) a[i] = i;
        return a;
    }

    /** Axes in range, negative ones resolved, no repeats, ascending. */
    static int[] normalize(String op, Tensor t, int[] axes) {
        boolean[] seen = new boolean[t.rank()];
        for (int axis : axes) {
            int a = axis < 0 ? axis + t.rank() : axis;
            if (a < 0 || a >= t.rank()) {
                throw TensorException.of(op, "axis " + axis + " out of range; expected -" + t.rank() + " <= axis < " + t.rank(), t);
            }
            if (seen[a]) throw TensorException.of(op, "axis " + axis + " given twice in " + Arrays.toString(axes), t);
            seen[a] = true;
        }
        int[] out = new int[axes.length];
        int n = 0;
        for (int i = 0; i < seen.length; i++) if (seen[i]) out[n++] = i;
        return out;
    }

    /** Each axis resolved (negative from the end) and checked against {@code t}'s rank. */
    static int[] normalizeAxes(String op, Tensor t, int... axes) {
        int[] out = new int[axes.length];
        for (int i = 0; i < axes.length; i++) {
            int a = axes[i] < 0 ? axes[i] + t.rank() : axes[i];
            if (a < 0 || a >= t.rank()) {
                throw TensorException.of(op, "axis " + axes[i] + " out of range; expected -" + t.rank() + " <= axis < " + t.rank(), t);
            }
            out[i] = a;
        }
        return out;
    }

    /** t's shape with the given axes set to 1 (kept) or removed. */
    static Shape reducedShape(Shape s, int[] axes, boolean keepDim) {
        int[] dims = s.dims();
        int[] kept = new int[keepDim ? dims.length : dims.length - axes.length];
        int n = 0;
        for (int i = 0; i < dims.length; i++) {
            boolean reduced = Arrays.binarySearch(axes, i) >= 0;
            if (keepDim) kept[n++] = reduced ? 1 : dims[i];
            else if (!reduced) kept[n++] = dims[i];
        }
        return Shape.of(kept);
    }

    /** The dtype a sum of {@code t} gives: its own when floating, I64 for integers (NumPy and PyTorch widen). */
    static DType sumType(DType t) {
        return t.isFloating() ? t : DType.I64;
    }

    /** One reduce kernel along {@code axis}, keeping it as size 1; untracked. */
    static Tensor reduceAxis(ReduceOp op, Tensor t, int axis) {
        DType dtype = switch (op) {
            case ARGMAX -> DType.I64;
            case SUM -> sumType(t.dtype());
            case MAX, MIN -> t.dtype();
        };
        Tensor out = Tensor.empty(t.backend, dtype, t.shape.with(axis, 1));
        Ops.execute(out, new Kernel.Reduce(op, out.operand(), t.operand(), axis));
        return out;
    }

    static Tensor sum(Tensor t, int[] axes, boolean keepDim) {
        Ops.check("sum", t);
        int[] ax = normalize("sum", t, axes);
        Tensor cur = t;
        for (int axis : ax) cur = reduceAxis(ReduceOp.SUM, cur, axis);
        if (ax.length == 0) cur = Movement.copyAs(t, sumType(t.dtype()));
        Shape keptShape = reducedShape(t.shape, ax, true);
        Tensor out = keepDim ? cur : Movement.view(cur, reducedShape(t.shape, ax, false));
        return Ops.track(out, "sum", (g, need) -> new Tensor[] {g.reshape(keptShape.raw()).broadcastTo(t.shape)}, t);
    }

    static Tensor mean(Tensor t, int[] axes, boolean keepDim) {
        Ops.check("mean", t);
        Ops.floating("mean", t);
        int[] ax = normalize("mean", t, axes);
        long count = 1;
        for (int a : ax) count *= t.shape.dim(a);
        // f16 accumulates in f32 (as PyTorch does): the mean of 40,000 twos is 2, not inf / 40,000
        if (t.dtype() == DType.F16) return sum(t.cast(DType.F32), ax, keepDim).mul(1.0 / count).cast(DType.F16);
        return sum(t, ax, keepDim).mul(1.0 / count);
    }

    static Tensor extreme(String name, ReduceOp op, Tensor t, int axis, boolean keepDim) {
        Ops.check(name, t);
        int a = normalize(name, t, new int[] {axis})[0];
        if (t.shape.dim(a) == 0) throw TensorException.of(name, "axis " + axis + " is empty; expected at least one element", t);
        Tensor kept = reduceAxis(op, t, a);
        Tensor out = keepDim ? kept : Movement.view(kept, reducedShape(t.shape, new int[] {a}, false));
        if (!Ops.recording(t)) return out;
        Tensor value = kept.detach();
        return Ops.trackSaving(out, name, new Tensor[] {t, value}, (g, need) -> {
            // shared evenly by the elements equal to the result, or by the NaNs where it is NaN (PyTorch)
            Tensor mask = t.eq(value).add(t.ne(t).mul(value.ne(value)));
            Tensor share = mask.div(mask.sum(a, true));
            return new Tensor[] {share.mul(g.reshape(value.shape.raw()))};
        }, t);
    }

    static Tensor argmax(Tensor t, int axis, boolean keepDim) {
        Ops.check("argmax", t);
        int a = normalize("argmax", t, new int[] {axis})[0];
        if (t.shape.dim(a) == 0) throw TensorException.of("argmax", "axis " + axis + " is empty; expected at least one element", t);
        Tensor kept = reduceAxis(ReduceOp.ARGMAX, t, a);
        return keepDim ? kept : Movement.view(kept, reducedShape(t.shape, new int[] {a}, false));
    }

    /** Sums a gradient of a broadcast result back to the shape of the operand that was broadcast. */
    static Tensor sumTo(Tensor g, Shape target) {
        if (g.shape.equals(target)) return g;
        int lead = g.rank() - target.rank();
        int[] axes = new int[g.rank()];
        int n = 0;
        for (int i = 0; i < g.rank(); i++) {
            if (i < lead || (target.dim(i - lead) == 1 && g.shape.dim(i) != 1)) axes[n++] = i;
        }
        Tensor s = g;
        for (int i = 0; i < n; i++) s = reduceAxis(ReduceOp.SUM, s, axes[i]);
        return Movement.view(s.contiguous(), target);
    }
}

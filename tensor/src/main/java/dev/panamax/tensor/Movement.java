package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.UnaryOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Views (new strides over the same storage: reshape, permute, slice, select, (un)squeeze, expand),
 * the copies behind contiguous/cast/concat, and index selection. Only copies reach the backend.
 */
final class Movement {
    private Movement() {}

    static long[] broadcastStrides(Tensor t, Shape target) {
        int lead = target.rank() - t.rank();
        long[] s = new long[target.rank()];
        for (int i = 0; i < t.rank(); i++) {
            s[i + lead] = t.shape.dim(i) == 1 && target.dim(i + lead) != 1 ? 0 : t.strides[i];
        }
        return s;
    }

    /** An untracked view of a contiguous tensor with another shape of as many elements. */
    static Tensor view(Tensor t, Shape shape) {
        if (!t.isContiguous()) throw new IllegalStateException("view of a non-contiguous tensor");
        return new Tensor(t.backend, t.storage, shape, shape.rowMajor(), t.offset);
    }

    /** An untracked contiguous copy converted to {@code dtype}. */
    static Tensor copyAs(Tensor t, DType dtype) {
        Tensor out = Tensor.empty(t.backend, dtype, t.shape);
        Ops.execute(out, new Kernel.Unary(UnaryOp.COPY, out.operand(), t.operand()));
        return out;
    }

    static Tensor copy(Tensor t) {
        Ops.check("contiguous", t);
        return Ops.track(copyAs(t, t.dtype()), "contiguous", (g, need) -> new Tensor[] {g}, t);
    }

    static Tensor reshape(Tensor t, int[] dims) {
        Ops.check("reshape", t);
        Shape target = inferShape(t, dims);
        long[] strides = viewStrides(t, target);
        Tensor out;
        if (strides != null) out = new Tensor(t.backend, t.storage, target, strides, t.offset);
        else out = view(copyAs(t, t.dtype()), target);
        Shape source = t.shape;
        return Ops.track(out, "reshape", (g, need) -> new Tensor[] {g.reshape(source.raw())}, t);
    }

    private static Shape inferShape(Tensor t, int[] dims) {
        int infer = -1;
        long known = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == -1) {
                if (infer >= 0) throw TensorException.of("reshape", "more than one -1 in " + Arrays.toString(dims), t);
                infer = i;
            } else if (dims[i] < 0) {
                throw TensorException.of("reshape", "negative size in " + Arrays.toString(dims), t);
            } else {
                known *= dims[i];
            }
        }
        int[] out = dims.clone();
        if (infer >= 0) {
            if (known == 0 || t.elements() % known != 0) {
                throw TensorException.of("reshape", "cannot infer -1 in " + Arrays.toString(dims) + " from " + t.elements() + " elements", t);
            }
            out[infer] = (int) (t.elements() / known);
        } else if (known != t.elements()) {
            throw TensorException.of("reshape", "shape " + Arrays.toString(dims) + " holds " + known + " elements; expected "
                    + t.elements(), t);
        }
        return Creation.shapeOf("reshape", out);
    }

    /**
     * Strides that show {@code t}'s elements in row-major order as {@code target}, or null when no
     * strides can (then reshape copies). The source is cut into chunks of dimensions that are
     * contiguous among themselves; each chunk must be covered exactly by consecutive target
     * dimensions, which then step through it with the chunk's innermost stride.
     */
    static long[] viewStrides(Tensor t, Shape target) {
        if (t.isContiguous() || t.elements() == 0 || t.rank() == 0) return target.contiguousStrides();
        int[] from = t.shape.raw();
        int[] to = target.raw();
        long[] out = new long[to.length];
        int j = to.length - 1;
        long base = t.strides[from.length - 1];
        long sourceCount = 1, targetCount = 1;
        for (int i = from.length - 1; i >= 0; i--) {
            sourceCount *= from[i];
            boolean chunkEnds = i == 0 || (from[i - 1] != 1 && t.strides[i - 1] != sourceCount * base);
            if (!chunkEnds) continue;
            while (j >= 0 && (targetCount < sourceCount || to[j] == 1)) {
                out[j] = targetCount * base;
                targetCount *= to[j];
                j--;
            }
            if (targetCount != sourceCount) return null;
            if (i > 0) {
                base = t.strides[i - 1];
                sourceCount = 1;
                targetCount = 1;
            }
        }
        return j == -1 ? out : null;
    }

    static Tensor permute(Tensor t, int[] order) {
        Ops.check("permute", t);
        if (order.length != t.rank()) {
            throw TensorException.of("permute", "order " + Arrays.toString(order) + " has " + order.length + " axes; expected "
                    + t.rank(), t);
        }
        int[] dims = new int[order.length];
        long[] strides = new long[order.length];
        int[] inverse = new int[order.length];
        boolean[] seen = new boolean[order.length];
        for (int i = 0; i < order.length; i++) {
            int a = order[i] < 0 ? order[i] + t.rank() : order[i];
            if (a < 0 || a >= t.rank() || seen[a]) {
                throw TensorException.of("permute", "order " + Arrays.toString(order) + " is not a permutation of 0.." + (t.rank() - 1), t);
            }
            seen[a] = true;
            dims[i] = t.shape.dim(a);
            strides[i] = t.strides[a];
            inverse[a] = i;
        }
        Tensor out = new Tensor(t.backend, t.storage, Shape.of(dims), strides, t.offset);
        return Ops.track(out, "permute", (g, need) -> new Tensor[] {g.permute(inverse)}, t);
    }

    static Tensor transpose(Tensor t, int a, int b) {
        int[] axes = Reduction.normalizeAxes("transpose", t, a, b);
        int[] order = Reduction.allAxes(t);
        order[axes[0]] = axes[1];
        order[axes[1]] = axes[0];
        return permute(t, order);
    }

    static Tensor slice(Tensor t, int axis, int start, int end, int step) {
        Ops.check("slice", t);
        int a = Reduction.normalizeAxes("slice", t, axis)[0];
        if (step <= 0) throw TensorException.of("slice", "step " + step + "; expected a positive step", t);
        int size = t.shape.dim(a);
        int s = clamp(start < 0 ? start + size : start, size);
        int e = clamp(end < 0 ? end + size : end, size);
        int n = e <= s ? 0 : (int) (((long) e - s + step - 1) / step); // in long: a step near 2^31 would wrap
        long[] strides = t.strides.clone();
        strides[a] *= step;
        Tensor out = new Tensor(t.backend, t.storage, t.shape.with(a, n), strides, t.offset + (n == 0 ? 0 : s * t.strides[a]));
        return Ops.track(out, "slice", (g, need) -> {
            Tensor full = Creation.full(g.backend, g.dtype(), 0, t.shape);
            Tensor part = new Tensor(full.backend, full.storage, out.shape, sliceStrides(full, a, step), full.offset + s * full.strides[a]);
            Ops.run(g.backend, new Kernel.Unary(UnaryOp.COPY, part.operand(), g.operand()));
            return new Tensor[] {full};
        }, t);
    }

    private static long[] sliceStrides(Tensor full, int axis, int step) {
        long[] s = full.strides.clone();
        s[axis] *= step;
        return s;
    }

    private static int clamp(int i, int size) {
        return Math.max(0, Math.min(size, i));
    }

    static Tensor select(Tensor t, int axis, int index) {
        Ops.check("select", t);
        int a = Reduction.normalizeAxes("select", t, axis)[0];
        int size = t.shape.dim(a);
        if (index < -size || index >= size) {
            throw TensorException.of("select", "index " + index + " out of bounds for axis " + axis + " of size " + size, t);
        }
        int i = index < 0 ? index + size : index;
        return slice(t, a, i, i + 1, 1).squeeze(a);
    }

    static Tensor unsqueeze(Tensor t, int axis) {
        Ops.check("unsqueeze", t);
        int a = axis < 0 ? axis + t.rank() + 1 : axis;
        if (a < 0 || a > t.rank()) {
            throw TensorException.of("unsqueeze", "axis " + axis + " out of range; expected -" + (t.rank() + 1) + " <= axis <= " + t.rank(), t);
        }
        int[] dims = new int[t.rank() + 1];
        long[] strides = new long[t.rank() + 1];
        for (int i = 0, k = 0; i < dims.length; i++) {
            if (i == a) {
                dims[i] = 1;
                strides[i] = a < t.rank() ? t.strides[a] * t.shape.dim(a) : 1;
            } else {
                dims[i] = t.shape.dim(k);
                strides[i] = t.strides[k++];
            }
        }
        Tensor out = new Tensor(t.backend, t.storage, Shape.of(dims), strides, t.offset);
        return Ops.track(out, "unsqueeze", (g, need) -> new Tensor[] {g.squeeze(a)}, t);
    }

    static Tensor squeeze(Tensor t, int axis) {
        Ops.check("squeeze", t);
        int a = Reduction.normalizeAxes("squeeze", t, axis)[0];
        if (t.shape.dim(a) != 1) throw TensorException.of("squeeze", "axis " + axis + " has size " + t.shape.dim(a) + "; expected 1", t);
        int[] dims = new int[t.rank() - 1];
        long[] strides = new long[t.rank() - 1];
        for (int i = 0, k = 0; i < t.rank(); i++) {
            if (i == a) continue;
            dims[k] = t.shape.dim(i);
            strides[k++] = t.strides[i];
        }
        Tensor out = new Tensor(t.backend, t.storage, Shape.of(dims), strides, t.offset);
        return Ops.track(out, "squeeze", (g, need) -> new Tensor[] {g.unsqueeze(a)}, t);
    }

    static Tensor expand(Tensor t, Shape target) {
        Ops.check("expand", t);
        Shape b = Shape.broadcast(t.shape, target);
        if (b == null || !b.equals(target)) {
            throw TensorException.of("expand", "cannot broadcast to " + target + "; expected each dimension equal or 1, aligned from the right", t);
        }
        if (target.equals(t.shape)) return t;
        Tensor out = new Tensor(t.backend, t.storage, target, broadcastStrides(t, target), t.offset);
        Shape source = t.shape;
        return Ops.track(out, "expand", (g, need) -> new Tensor[] {Reduction.sumTo(g, source)}, t);
    }

    static Tensor concat(List<Tensor> tensors, int axis) {
        if (tensors.isEmpty()) throw new TensorException("concat", "no tensors; expected at least one");
        Tensor[] ts = tensors.toArray(Tensor[]::new);
        Ops.check("concat", ts);
        DType common = null; // PyTorch's cat: the dtypes promote, each part converted as it is copied
        for (Tensor t : ts) common = Promotion.promote(common, t.dtype());
        Tensor first = ts[0];
        int a = Reduction.normalizeAxes("concat", first, axis)[0];
        long total = 0;
        for (Tensor t : ts) {
            boolean fits = t.rank() == first.rank();
            for (int i = 0; fits && i < t.rank(); i++) fits = i == a || t.shape.dim(i) == first.shape.dim(i);
            if (!fits) {
                throw TensorException.of("concat", "shapes differ outside axis " + axis + "; expected equal ranks and sizes", ts);
            }
            total += t.shape.dim(a);
        }
        if (total > Integer.MAX_VALUE) {
            throw TensorException.of("concat", "axis " + axis + " would hold " + total + " elements; expected at most " + Integer.MAX_VALUE, ts);
        }
        Tensor out = Tensor.empty(first.backend, common, first.shape.with(a, (int) total));
        int[] starts = new int[ts.length];
        int at = 0;
        try {
            for (int k = 0; k < ts.length; k++) {
                starts[k] = at;
                Tensor part = new Tensor(out.backend, out.storage, ts[k].shape, out.strides, out.offset + at * out.strides[a]);
                Ops.run(out.backend, new Kernel.Unary(UnaryOp.COPY, part.operand(), ts[k].operand()));
                at += ts[k].shape.dim(a);
            }
        } catch (RuntimeException | Error e) {
            Ops.free(e, out); // a part refused (its tensor freed by another thread): out goes to no one
            throw e;
        }
        return Ops.track(out, "concat", (g, need) -> {
            Tensor[] grads = new Tensor[ts.length];
            for (int k = 0; k < ts.length; k++) {
                if (need[k]) grads[k] = g.slice(a, starts[k], starts[k] + ts[k].shape.dim(a)).cast(ts[k].dtype());
            }
            return grads;
        }, ts);
    }

    static Tensor stack(List<Tensor> tensors, int axis) {
        if (tensors.isEmpty()) throw new TensorException("stack", "no tensors; expected at least one");
        Tensor first = tensors.getFirst();
        for (Tensor t : tensors) {
            Ops.check("stack", t);
            if (!t.shape.equals(first.shape)) {
                throw TensorException.of("stack", "shapes differ; expected one shape", tensors.toArray(Tensor[]::new));
            }
        }
        int a = axis < 0 ? axis + first.rank() + 1 : axis;
        List<Tensor> parts = new ArrayList<>(tensors.size());
        for (Tensor t : tensors) parts.add(t.unsqueeze(a));
        return concat(parts, a);
    }

    static Tensor indexSelect(Tensor t, int axis, Tensor index) {
        Ops.check("indexSelect", t, index);
        int a = Reduction.normalizeAxes("indexSelect", t, axis)[0];
        if (index.rank() != 1 || index.dtype().isFloating()) {
            throw TensorException.of("indexSelect", "expected a 1-D index of i32 or i64", t, index);
        }
        checkIndices("indexSelect", index, t.shape.dim(a), t);
        return indexSelectInRange(t, a, index);
    }

    /**
     * {@link #indexSelect} of a 1-D integer index already known to be in range along axis
     * {@code a} (resolved): what index tensors Panamax builds itself (a window's positions, top-k's
     * indices) use, without reading them back to check.
     */
    static Tensor indexSelectInRange(Tensor t, int a, Tensor index) {
        Tensor out = Tensor.empty(t.backend, t.dtype(), t.shape.with(a, index.shape.dim(0)));
        Ops.execute(out, new Kernel.IndexSelect(out.operand(), t.operand(), index.operand(), a));
        Shape source = t.shape;
        return Ops.trackSaving(out, "indexSelect", new Tensor[] {index}, (g, need) -> {
            Tensor full = Creation.full(g.backend, g.dtype(), 0, source);
            Ops.run(g.backend, new Kernel.IndexAdd(full.operand(), index.operand(), g.operand(), a));
            return new Tensor[] {full, null};
        }, t, index);
    }

    /**
     * Every index within {@code [0, size)}; reads the index (a sync on lazy backends), unless the
     * backend's kernels check indices on the device themselves.
     */
    static void checkIndices(String op, Tensor index, int size, Tensor source) {
        if (index.backend.checksIndices()) return;
        long[] values = index.toLongArray();
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] >= size) {
                throw TensorException.of(op, "index " + values[i] + " at position " + i + " out of bounds; expected 0 <= index < "
                        + size, source, index);
            }
        }
    }
}

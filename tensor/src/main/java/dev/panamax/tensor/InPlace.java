package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.UnaryOp;

/** Updates of a tensor's own elements, outside autograd (optimizer steps, gradient accumulation). */
final class InPlace {
    private InPlace() {}

    static void check(String op, Tensor t) {
        Ops.check(op, t);
        if (Autograd.isEnabled() && t.requiresGrad()) {
            throw TensorException.of(op, "in-place update of a tensor that requires gradients; expected it inside Autograd.noGrad()", t);
        }
        for (int i = 0; i < t.rank(); i++) {
            if (t.strides[i] == 0 && t.shape.dim(i) > 1) {
                throw TensorException.of(op, "in-place update of a broadcast view (several elements share memory)", t);
            }
        }
    }

    private static void fitsInto(String op, Tensor target, Tensor source) {
        Shape b = Shape.broadcast(source.shape, target.shape);
        if (b == null || !b.equals(target.shape)) {
            throw TensorException.of(op, "source does not broadcast to the target's shape " + target.shape, target, source);
        }
    }

    /**
     * {@code t = t kind other}. Mixed dtypes compute in the promoted dtype (as the out-of-place op)
     * and store converted into {@code t}, as PyTorch does; a floating result into an integer tensor
     * (an integer {@code t} with a floating {@code other}, or a true division) is refused.
     */
    static Tensor binary(String op, BinaryOp kind, Tensor t, Tensor other) {
        check(op, t);
        Ops.check(op, t, other);
        fitsInto(op, t, other);
        if (other.dtype() == t.dtype() && (kind != BinaryOp.DIV || t.dtype().isFloating())) {
            Tensor whole = readWhole(t, other);
            try {
                Ops.run(t.backend, new Kernel.Binary(kind, t.operand(), t.operand(), (whole == null ? other : whole).operandAs(t.shape)));
            } finally {
                if (whole != null) whole.close();
            }
            t.storage.markModified();
            return t;
        }
        DType common = Promotion.of(t, other);
        if (kind == BinaryOp.DIV) common = Promotion.floating(common);
        if (common.isFloating() && !t.dtype().isFloating()) {
            throw TensorException.of(op, "the result is " + common.label() + ", which an integer tensor cannot hold; expected a "
                    + "floating target, or an out-of-place op", t, other);
        }
        try (var _ = Autograd.noGrad()) {
            Tensor result = Elementwise.binary(op, kind, t, other);
            Ops.run(t.backend, new Kernel.Unary(UnaryOp.COPY, t.operand(), result.operand()));
        }
        t.storage.markModified();
        return t;
    }

    /** {@code t = t kind value}; a float scalar ({@code floatScalar}) on an integer tensor is refused, as PyTorch does. */
    static Tensor scalar(String op, BinaryOp kind, Tensor t, double value, boolean floatScalar) {
        check(op, t);
        if (floatScalar && !t.dtype().isFloating()) {
            throw TensorException.of(op, "a float scalar " + value + " on an integer tensor gives f32, which it cannot hold; "
                    + "expected a long scalar, or an out-of-place op", t);
        }
        if (!floatScalar) Creation.checkValue(op, t.dtype(), value, "scalar " + (long) value);
        Ops.run(t.backend, new Kernel.BinaryScalar(kind, t.operand(), t.operand(), value));
        t.storage.markModified();
        return t;
    }

    static Tensor copy(Tensor t, Tensor source) {
        check("copyFrom", t);
        Ops.check("copyFrom", t, source);
        fitsInto("copyFrom", t, source);
        Tensor whole = readWhole(t, source);
        try {
            Ops.run(t.backend, new Kernel.Unary(UnaryOp.COPY, t.operand(), (whole == null ? source : whole).operandAs(t.shape)));
        } finally {
            if (whole != null) whole.close();
        }
        t.storage.markModified();
        return t;
    }

    /**
     * A copy of {@code source} when it is another view of {@code t}'s storage (say {@code t[1:]} and
     * {@code t[:-1]}), so the update reads the source as it was before any element was written, as
     * NumPy does, on every backend (a kernel walking the elements in order would otherwise read what
     * it wrote, and a backend that walks them otherwise would give another answer); null when the
     * storage differs or the view is the same one (each element then reads only itself).
     */
    private static Tensor readWhole(Tensor t, Tensor source) {
        if (source.storage != t.storage) return null;
        if (source.offset == t.offset && source.shape.equals(t.shape) && java.util.Arrays.equals(source.strides, t.strides)) return null;
        try (var _ = Autograd.noGrad()) {
            return Movement.copyAs(source, source.dtype());
        }
    }
}

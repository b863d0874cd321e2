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

    static Tensor binary(String op, BinaryOp kind, Tensor t, Tensor other) {
        check(op, t);
        Ops.check(op, t, other);
        Ops.sameDtype(op, t, other);
        fitsInto(op, t, other);
        t.backend.execute(new Kernel.Binary(kind, t.operand(), t.operand(), other.operandAs(t.shape)));
        t.storage.markModified();
        return t;
    }

    static Tensor scalar(String op, BinaryOp kind, Tensor t, double value) {
        check(op, t);
        t.backend.execute(new Kernel.BinaryScalar(kind, t.operand(), t.operand(), value));
        t.storage.markModified();
        return t;
    }

    static Tensor copy(Tensor t, Tensor source) {
        check("copyFrom", t);
        Ops.check("copyFrom", t, source);
        fitsInto("copyFrom", t, source);
        t.backend.execute(new Kernel.Unary(UnaryOp.COPY, t.operand(), source.operandAs(t.shape)));
        t.storage.markModified();
        return t;
    }
}

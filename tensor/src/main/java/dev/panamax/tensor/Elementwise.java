package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.UnaryOp;

/** Elementwise ops with NumPy broadcasting, and their gradients. */
final class Elementwise {
    private Elementwise() {}

    static Tensor unary(String name, UnaryOp op, Tensor x) {
        Ops.check(name, x);
        Ops.floating(name, x);
        Tensor out = Tensor.empty(x.backend, x.dtype(), x.shape);
        Ops.execute(out, new Kernel.Unary(op, out.operand(), x.operand()));
        if (!Ops.recording(x)) return out;
        Tensor y = out.detach();
        Tensor[] saved = switch (op) {
            case NEG -> new Tensor[0];
            case EXP, SQRT, SIGMOID, TANH -> new Tensor[] {y};
            default -> new Tensor[] {x};
        };
        return Ops.trackSaving(out, name, saved, (g, need) -> new Tensor[] {switch (op) {
            case NEG -> g.neg();
            case EXP -> g.mul(y);
            case LOG -> g.div(x);
            case SQRT -> g.div(y).mul(0.5);
            case ABS -> g.mul(apply(UnaryOp.STEP, x).sub(apply(UnaryOp.STEP, x.neg())));
            case RELU -> reluBackward(g, x);
            case SIGMOID -> g.mul(y.mul(y.neg().add(1)));
            case TANH -> g.mul(y.mul(y).neg().add(1));
            case GELU -> g.mul(apply(UnaryOp.GELU_GRAD, x));
            // d/dx erf(x) = 2/sqrt(pi) exp(-x^2)
            case ERF -> g.mul(x.mul(x).neg().exp().mul(2 / Math.sqrt(Math.PI)));
            case COPY, STEP, GELU_GRAD -> throw new IllegalStateException("no gradient for " + op);
        }}, x);
    }

    /** {@code g} where {@code x > 0}, else 0: relu's backward in one pass (not a mask and a product). */
    private static Tensor reluBackward(Tensor g, Tensor x) {
        Tensor out = Tensor.empty(g.backend, g.dtype(), x.shape);
        Ops.execute(out, new Kernel.Binary(BinaryOp.RELU_BACKWARD, out.operand(), g.operandAs(x.shape), x.operand()));
        return out;
    }

    /** The kernel alone, untracked. */
    static Tensor apply(UnaryOp op, Tensor x) {
        Tensor out = Tensor.empty(x.backend, x.dtype(), x.shape);
        Ops.execute(out, new Kernel.Unary(op, out.operand(), x.operand()));
        return out;
    }

    static Shape broadcastShape(String name, Tensor... operands) {
        Shape s = operands[0].shape;
        for (int i = 1; i < operands.length && s != null; i++) s = Shape.broadcast(s, operands[i].shape);
        if (s == null) {
            throw TensorException.of(name, "shapes do not broadcast; expected equal sizes or 1 in each dimension aligned from the right",
                    operands);
        }
        return s;
    }

    /**
     * {@code a op b} broadcast, both converted first to the dtype {@link Promotion} gives (true
     * division of integers and pow compute in a floating type); comparisons give 1 or 0 in that dtype.
     */
    static Tensor binary(String name, BinaryOp op, Tensor a, Tensor b) {
        Ops.check(name, a, b);
        Shape shape = broadcastShape(name, a, b);
        DType common = computeType(name, op, Promotion.of(a, b), a, b);
        return ofOneDtype(name, op, cast(a, common), cast(b, common), shape);
    }

    /** The dtype {@code op} computes in, given the operands' promoted dtype. */
    private static DType computeType(String name, BinaryOp op, DType promoted, Tensor... operands) {
        if (op == BinaryOp.DIV) return Promotion.floating(promoted);
        if (op == BinaryOp.POW && !promoted.isFloating()) {
            throw TensorException.of(name, "integer operands only; expected a floating operand (pow computes in f32 or f16)", operands);
        }
        return promoted;
    }

    /** The op on two operands of one dtype, and its gradient. */
    private static Tensor ofOneDtype(String name, BinaryOp op, Tensor a, Tensor b, Shape shape) {
        Tensor out = Tensor.empty(a.backend, a.dtype(), shape);
        Ops.execute(out, new Kernel.Binary(op, out.operand(), a.operandAs(shape), b.operandAs(shape)));
        if (op.isComparison() || !Ops.recording(a, b)) return out;
        Tensor y = out.detach();
        Tensor[] saved = switch (op) {
            case ADD, SUB -> new Tensor[0];
            case DIV -> new Tensor[] {b, y};
            case POW -> new Tensor[] {a, b, y};
            default -> new Tensor[] {a, b};
        };
        return Ops.trackSaving(out, name, saved, (g, need) -> {
            Tensor ga = null, gb = null;
            switch (op) {
                case ADD -> {
                    ga = g;
                    gb = g;
                }
                case SUB -> {
                    ga = g;
                    if (need[1]) gb = g.neg();
                }
                case MUL -> {
                    if (need[0]) ga = g.mul(b);
                    if (need[1]) gb = g.mul(a);
                }
                case DIV -> {
                    if (need[0]) ga = g.div(b);
                    if (need[1]) gb = g.mul(y).div(b).neg();
                }
                case POW -> {
                    // PyTorch's pow_backward: 0 where the exponent is 0 (not 0 * inf), and 0 for the
                    // exponent's gradient where the base is 0 and the exponent >= 0 (not 0 * -inf)
                    Tensor zero = Creation.full(g.backend, g.dtype(), 0, Shape.scalar());
                    if (need[0]) ga = where(isZero(b), zero, g.mul(b).mul(a.pow(b.sub(1L))));
                    if (need[1]) {
                        Tensor zeroBase = isZero(a).mul(scalar("ge", BinaryOp.GE, b, 0L));
                        gb = g.mul(where(zeroBase, zero, y.mul(a.log())));
                    }
                }
                case MAX, MIN -> {
                    // PyTorch's: each side gets g unless the other one wins, half of it on a tie; a NaN
                    // on either side wins no comparison, so both get g
                    Tensor half = a.eq(b).mul(0.5);
                    Tensor aLoses = op == BinaryOp.MAX ? a.lt(b) : a.gt(b);
                    Tensor bLoses = op == BinaryOp.MAX ? a.gt(b) : a.lt(b);
                    if (need[0]) ga = g.mul(aLoses.add(half).neg().add(1L));
                    if (need[1]) gb = g.mul(bLoses.add(half).neg().add(1L));
                }
                default -> throw new IllegalStateException("no gradient for " + op);
            }
            return new Tensor[] {ga == null ? null : Reduction.sumTo(ga, a.shape), gb == null ? null : Reduction.sumTo(gb, b.shape)};
        }, a, b);
    }

    private static Tensor isZero(Tensor t) {
        return scalar("eq", BinaryOp.EQ, t, 0L);
    }

    /** {@code a op value} for a float scalar ({@code double}): an integer tensor computes in f32. */
    static Tensor scalar(String name, BinaryOp op, Tensor a, double value) {
        Ops.check(name, a);
        DType common = computeType(name, op, Promotion.of(a, true), a);
        return ofOneDtype(name, op, cast(a, common), value);
    }

    /**
     * {@code a op value} for an integer scalar ({@code long}): a floating tensor keeps its dtype, an
     * integer one too, the value checked against its range (never wrapped).
     */
    static Tensor scalar(String name, BinaryOp op, Tensor a, long value) {
        Ops.check(name, a);
        DType common = computeType(name, op, Promotion.of(a, false), a);
        if (common == DType.I32 && (int) value != value) {
            throw TensorException.of(name, "scalar " + value + " out of range for i32; expected " + Integer.MIN_VALUE
                    + " <= scalar <= " + Integer.MAX_VALUE + " (or cast the tensor to i64)", a);
        }
        if (!common.isFloating() && (long) (double) value != value) {
            // beyond 2^53 a double would round it: the exact value as a rank-0 i64 operand instead
            Tensor exact = Creation.write(a.backend, DType.I64, new long[] {value}, Shape.scalar());
            return ofOneDtype(name, op, cast(a, common), exact, a.shape);
        }
        return ofOneDtype(name, op, cast(a, common), (double) value);
    }

    /** The op on an operand and a scalar, computed in the operand's dtype, and its gradient. */
    private static Tensor ofOneDtype(String name, BinaryOp op, Tensor a, double value) {
        Tensor out = Tensor.empty(a.backend, a.dtype(), a.shape);
        Ops.execute(out, new Kernel.BinaryScalar(op, out.operand(), a.operand(), value));
        if (op.isComparison() || !Ops.recording(a)) return out;
        Tensor[] saved = op == BinaryOp.POW || op == BinaryOp.MAX || op == BinaryOp.MIN ? new Tensor[] {a} : new Tensor[0];
        return Ops.trackSaving(out, name, saved, (g, need) -> new Tensor[] {switch (op) {
            case ADD, SUB -> g;
            case MUL -> g.mul(value);
            case DIV -> g.div(value);
            // an exponent of 0: a constant, gradient 0 (PyTorch), not 0 * x^-1 (NaN at x = 0)
            case POW -> value == 0 ? Creation.full(g.backend, g.dtype(), 0, a.shape) : g.mul(a.pow(value - 1)).mul(value);
            case MAX, MIN -> g.mul(op == BinaryOp.MAX ? a.gt(value) : a.lt(value));
            default -> throw new IllegalStateException("no gradient for " + op);
        }}, a);
    }

    static Tensor where(Tensor cond, Tensor a, Tensor b) {
        Ops.check("where", cond, a, b);
        Shape shape = broadcastShape("where", cond, a, b);
        DType common = Promotion.of(a, b);
        return whereOfOneDtype(cond, cast(a, common), cast(b, common), shape);
    }

    private static Tensor whereOfOneDtype(Tensor cond, Tensor a, Tensor b, Shape shape) {
        Tensor out = Tensor.empty(a.backend, a.dtype(), shape);
        Ops.execute(out, new Kernel.Where(out.operand(), cond.operandAs(shape), a.operandAs(shape), b.operandAs(shape)));
        if (!Ops.recording(a, b)) return out;
        return Ops.trackSaving(out, "where", new Tensor[] {cond}, (g, need) -> {
            Tensor zero = Creation.full(g.backend, g.dtype(), 0, Shape.scalar());
            return new Tensor[] {null,
                    need[1] ? Reduction.sumTo(where(cond, g, zero), a.shape) : null,
                    need[2] ? Reduction.sumTo(where(cond, zero, g), b.shape) : null};
        }, cond, a, b);
    }

    static Tensor cast(Tensor x, DType dtype) {
        Ops.check("cast", x);
        if (x.dtype() == dtype) return x;
        Tensor out = Movement.copyAs(x, dtype);
        if (!dtype.isFloating() || !Ops.recording(x)) return out;
        return Ops.track(out, "cast", (g, need) -> new Tensor[] {g.cast(x.dtype())}, x);
    }
}

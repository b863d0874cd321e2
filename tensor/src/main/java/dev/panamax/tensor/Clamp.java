package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;

/** PyTorch's {@code clamp}: each element limited to {@code [min, max]}. */
final class Clamp {
    private Clamp() {}

    /**
     * {@code min(max(x, min), max)} with either bound absent (null); a NaN element or bound gives NaN,
     * {@code min > max} gives {@code max} everywhere, an integer tensor computes in f32 (a
     * {@code double} bound is a float scalar). The gradient passes where {@code min <= x <= max}, as
     * PyTorch's.
     */
    static Tensor clamp(String op, Tensor x, Double min, Double max) {
        Ops.check(op, x);
        if (min == null && max == null) throw TensorException.of(op, "no bound; expected min, max or both", x);
        Tensor out;
        try (var _ = Autograd.noGrad()) {
            out = x;
            if (min != null) out = Elementwise.scalar(op, BinaryOp.MAX, out, min);
            if (max != null) out = Elementwise.scalar(op, BinaryOp.MIN, out, max);
        }
        if (!Ops.recording(x)) return out;
        return Ops.trackSaving(out, op, new Tensor[] {x}, (g, need) -> {
            Tensor pass = null;
            if (min != null) pass = Elementwise.scalar("ge", BinaryOp.GE, x, min);
            if (max != null) {
                Tensor below = Elementwise.scalar("le", BinaryOp.LE, x, max);
                pass = pass == null ? below : pass.mul(below);
            }
            return new Tensor[] {g.mul(pass)};
        }, x);
    }
}

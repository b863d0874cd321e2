package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/** Ops built from the primitive ones (their gradients follow from those). */
final class Composite {
    private Composite() {}

    static Tensor softmax(Tensor x, int axis) {
        Ops.check("softmax", x);
        Ops.floating("softmax", x);
        if (x.dtype() == DType.F16) return softmax(x.cast(DType.F32), axis).cast(DType.F16); // f32 accumulation
        if (x.rank() > 0 && Reduction.normalizeAxes("softmax", x, axis)[0] == x.rank() - 1 && x.elements() > 0) {
            Tensor fused = fusedSoftmax(x, 0);
            if (fused != null) return fused;
        }
        Tensor shifted = x.sub(x.max(axis, true).detach());
        Tensor e = shifted.exp();
        return e.div(e.sum(axis, true));
    }

    /**
     * Causal attention's softmax of {@code scores (..., L, S)}: query {@code i} sees keys {@code j <= i}
     * only, the others weighted 0, in one {@link Kernel.Softmax} with {@code causalRows = L} (no mask
     * tensor, no {@code where} forward or backward); null when the backend declines the fused
     * kernels (the caller masks and composes).
     */
    static Tensor causalSoftmax(Tensor scores) {
        if (scores.rank() < 2 || scores.elements() == 0 || !scores.dtype().isFloating() || scores.dtype() == DType.F16) return null;
        return fusedSoftmax(scores, scores.dim(-2));
    }

    /**
     * Softmax over the last axis as one {@link Kernel.Softmax} over the rows ({@code causalRows} as
     * that kernel's), its backward one {@link Kernel.SoftmaxGrad}; null when the backend declines
     * either (the caller composes it).
     */
    private static Tensor fusedSoftmax(Tensor x, int causalRows) {
        int c = x.dim(-1);
        long rowCount = x.elements() / c;
        Operand probe = x.operand();
        if (rowCount > Integer.MAX_VALUE || !x.backend.supports(new Kernel.Softmax(probe, probe, causalRows))
                || !x.backend.supports(new Kernel.SoftmaxGrad(probe, probe, probe))) {
            return null;
        }
        int rows = (int) rowCount;
        Tensor in = x.detach().reshape(rows, c);
        Tensor made = Tensor.empty(x.backend, x.dtype(), Shape.of(rows, c));
        Ops.execute(made, new Kernel.Softmax(made.operand(), in.operand(), causalRows));
        Tensor y = made.reshape(x.shape.raw());
        if (!Ops.recording(x)) return y;
        Tensor saved = y.detach();
        return Ops.trackSaving(y, "softmax", new Tensor[] {saved}, (g, need) -> new Tensor[] {softmaxGrad(saved, g)}, x);
    }

    /** {@code y * (g - sum(g * y, -1))} in one kernel over the rows of {@code y} (the softmax's output). */
    private static Tensor softmaxGrad(Tensor y, Tensor g) {
        int c = y.dim(-1);
        int rows = (int) (y.elements() / c);
        Tensor dy = g.dtype() == y.dtype() ? g : g.cast(y.dtype());
        Tensor made = Tensor.empty(y.backend, y.dtype(), Shape.of(rows, c));
        Ops.execute(made, new Kernel.SoftmaxGrad(made.operand(), y.reshape(rows, c).operand(),
                dy.reshape(rows, c).operand()));
        return made.reshape(y.shape.raw());
    }

    static Tensor logSoftmax(Tensor x, int axis) {
        Ops.check("logSoftmax", x);
        Ops.floating("logSoftmax", x);
        if (x.dtype() == DType.F16) return logSoftmax(x.cast(DType.F32), axis).cast(DType.F16); // f32 accumulation
        Tensor shifted = x.sub(x.max(axis, true).detach());
        return shifted.sub(shifted.exp().sum(axis, true).log());
    }

    static Tensor layerNorm(Tensor x, Tensor weight, Tensor bias, double eps) {
        Ops.check("layerNorm", x);
        Ops.floating("layerNorm", x);
        if (x.rank() == 0) throw TensorException.of("layerNorm", "expected rank 1 or more", x);
        int features = x.dim(-1);
        for (Tensor p : new Tensor[] {weight, bias}) {
            if (p == null) continue;
            Ops.check("layerNorm", x, p);
            if (p.rank() != 1 || p.dim(0) != features) {
                throw TensorException.of("layerNorm", "weight and bias must have shape (" + features + ",), the last dimension", x, weight, bias);
            }
            if (p.dtype() != x.dtype()) {
                throw TensorException.of("layerNorm", "weight and bias must have the input's dtype " + x.dtype().label(), x, weight, bias);
            }
        }
        if (!(eps >= 0) || Double.isInfinite(eps)) {
            throw TensorException.of("layerNorm", "eps must be finite and at least 0, was " + eps, x);
        }
        if (x.dtype() == DType.F16) {
            // statistics in f32 (as PyTorch's layer_norm): an f16 sum of squares overflows at 65504
            Tensor y = layerNorm(x.cast(DType.F32), weight == null ? null : weight.cast(DType.F32),
                    bias == null ? null : bias.cast(DType.F32), eps);
            return y.cast(DType.F16);
        }
        if (x.elements() > 0) {
            Tensor fused = FusedLayerNorm.apply(x, weight, bias, eps);
            if (fused != null) return fused;
        }
        Tensor centered = x.sub(x.mean(-1, true));
        Tensor variance = centered.mul(centered).mean(-1, true);
        Tensor y = centered.div(variance.add(eps).sqrt());
        if (weight != null) y = y.mul(weight);
        if (bias != null) y = y.add(bias);
        return y;
    }

    /** Mean cross-entropy of {@code logits (n, c)} against integer {@code labels (n)} in {@code [0, c)}. */
    static Tensor crossEntropy(Tensor logits, Tensor labels) {
        Ops.check("crossEntropy", logits, labels);
        if (logits.rank() != 2 || !logits.dtype().isFloating() || labels.rank() != 1 || labels.dtype().isFloating()
                || labels.dim(0) != logits.dim(0)) {
            throw TensorException.of("crossEntropy", "expected floating logits (n, classes) and integer labels (n,)", logits, labels);
        }
        int classes = logits.dim(1);
        Movement.checkIndices("crossEntropy", labels, classes, logits);
        // one fused kernel: the loss and, when a gradient will be asked for, d loss / d logits from
        // the same read of the logits (the backward only scales it by the incoming gradient)
        boolean tracked = Ops.recording(logits);
        var probe = new Kernel.CrossEntropy(logits.operand(), null, logits.operand(), labels.operand());
        if (!logits.backend.supports(probe)) return crossEntropyDecomposed(logits, labels, tracked);
        Tensor loss = Tensor.empty(logits.backend, logits.dtype(), Shape.scalar());
        Tensor grad = tracked ? Tensor.empty(logits.backend, logits.dtype(), logits.shape) : null;
        Ops.execute(loss, grad, new Kernel.CrossEntropy(loss.operand(), grad == null ? null : grad.operand(), logits.operand(),
                labels.operand()));
        if (!tracked) return loss;
        return Ops.trackSaving(loss, "crossEntropy", new Tensor[] {grad}, (g, need) -> new Tensor[] {grad.mul(g), null}, logits, labels);
    }

    /**
     * {@link Kernel.CrossEntropy} as separate ops, for a backend that declines the fused kernel: a
     * max-shifted log-sum-exp per row, the label's logit picked by a one-hot mask, and the same
     * gradient, {@code (softmax - onehot) / n}.
     */
    private static Tensor crossEntropyDecomposed(Tensor logits, Tensor labels, boolean tracked) {
        int n = logits.dim(0), classes = logits.dim(1);
        Tensor loss, grad = null;
        try (var _ = Autograd.noGrad(); var scope = TensorScope.open()) {
            DType dtype = logits.dtype();
            // f16 logits in f32, as the fused kernel accumulates: an f16 sum of 100,000 exponentials overflows
            Tensor x = dtype == DType.F16 ? logits.cast(DType.F32) : logits;
            Tensor max = x.max(1, true);
            Tensor e = x.sub(max).exp();
            Tensor sum = e.sum(1, true);
            Tensor onehot = labels.reshape(n, 1).eq(Creation.arange(labels.backend, labels.dtype(), 0, classes, 1).reshape(1, classes))
                    .cast(x.dtype());
            Tensor picked = x.mul(onehot).sum(1, true);
            loss = scope.keep(sum.log().add(max).sub(picked).mean().cast(dtype));
            if (tracked) grad = scope.keep(e.div(sum).sub(onehot).div(n).cast(dtype));
        }
        if (!tracked) return loss;
        Tensor g0 = grad;
        return Ops.trackSaving(loss, "crossEntropy", new Tensor[] {g0}, (g, need) -> new Tensor[] {g0.mul(g), null}, logits, labels);
    }
}

package dev.panamax.tensor;

/** Ops built from the primitive ones (their gradients follow from those). */
final class Composite {
    private Composite() {}

    static Tensor softmax(Tensor x, int axis) {
        Ops.check("softmax", x);
        Ops.floating("softmax", x);
        Tensor shifted = x.sub(x.max(axis, true).detach());
        Tensor e = shifted.exp();
        return e.div(e.sum(axis, true));
    }

    static Tensor logSoftmax(Tensor x, int axis) {
        Ops.check("logSoftmax", x);
        Ops.floating("logSoftmax", x);
        Tensor shifted = x.sub(x.max(axis, true).detach());
        return shifted.sub(shifted.exp().sum(axis, true).log());
    }

    static Tensor layerNorm(Tensor x, Tensor weight, Tensor bias, double eps) {
        Ops.check("layerNorm", x);
        Ops.floating("layerNorm", x);
        if (x.rank() == 0) throw TensorException.of("layerNorm", "expected rank 1 or more", x);
        int features = x.dim(-1);
        for (Tensor p : new Tensor[] {weight, bias}) {
            if (p != null && (p.rank() != 1 || p.dim(0) != features)) {
                throw TensorException.of("layerNorm", "weight and bias must have shape (" + features + ",), the last dimension", x, weight, bias);
            }
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
        Tensor classIds = Creation.arange(logits.backend, labels.dtype(), 0, classes, 1);
        Tensor oneHot = labels.unsqueeze(1).eq(classIds).cast(logits.dtype());
        return logits.logSoftmax(1).mul(oneHot).sum(1, false).mean().neg();
    }
}

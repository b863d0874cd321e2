package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;

/** Variance, standard deviation and log-sum-exp along axes, as composites of primitives (so differentiable). */
final class Statistics {
    private Statistics() {}

    /**
     * PyTorch's {@code var(dim, correction, keepdim)}: the sum of squared deviations from the mean
     * divided by {@code max(0, N - correction)}, {@code N} the elements reduced ({@code correction = 1}
     * is the unbiased estimate; a zero divisor gives NaN or infinity, as PyTorch). f16 in f32.
     */
    static Tensor variance(String op, Tensor x, int[] axes, boolean keepDim, double correction) {
        Ops.check(op, x);
        Ops.floating(op, x);
        if (!Double.isFinite(correction)) throw TensorException.of(op, "correction " + correction + "; expected a finite number", x);
        int[] ax = Reduction.normalize(op, x, axes);
        if (x.dtype() == DType.F16) return variance(op, x.cast(DType.F32), ax, keepDim, correction).cast(DType.F16);
        long count = 1;
        for (int a : ax) count *= x.shape.dim(a);
        Tensor centered = x.sub(x.mean(ax, true));
        return centered.mul(centered).sum(ax, keepDim).div(Math.max(0, count - correction));
    }

    /**
     * PyTorch's {@code logsumexp(dim, keepdim)}: {@code log(sum(exp(x)))} along {@code axis}, shifted by
     * the (detached) maximum so it neither overflows nor underflows; an infinite maximum shifts by 0
     * (rows of -inf give -inf, a +inf gives +inf, not NaN). f16 in f32.
     */
    static Tensor logsumexp(Tensor x, int axis, boolean keepDim) {
        Ops.check("logsumexp", x);
        Ops.floating("logsumexp", x);
        int a = Reduction.normalize("logsumexp", x, new int[] {axis})[0];
        if (x.dtype() == DType.F16) return logsumexp(x.cast(DType.F32), a, keepDim).cast(DType.F16);
        if (x.shape.dim(a) == 0) {
            // an empty sum is 0, its log -inf (PyTorch)
            return Creation.full(x.backend, x.dtype(), Double.NEGATIVE_INFINITY, Reduction.reducedShape(x.shape, new int[] {a}, keepDim));
        }
        Tensor shift;
        try (var _ = Autograd.noGrad()) {
            Tensor max = x.max(a, true);
            Tensor infinite = Elementwise.scalar("logsumexp", BinaryOp.EQ, max.abs(), Double.POSITIVE_INFINITY);
            shift = Tensor.where(infinite, Creation.full(x.backend, x.dtype(), 0, Shape.scalar()), max);
        }
        Tensor out = x.sub(shift).exp().sum(a, true).log().add(shift);
        return keepDim ? out : out.squeeze(a);
    }
}

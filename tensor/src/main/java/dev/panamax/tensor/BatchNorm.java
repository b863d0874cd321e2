package dev.panamax.tensor;

/**
 * PyTorch's {@code batch_norm} over dimension 1 of an {@code (n, c, ...)} input, as a composite.
 * Training normalizes by the batch's mean and biased variance (gradients flow through both) and
 * moves the running statistics toward the batch's, the variance unbiased, in place and outside the
 * graph: {@code running = (1 - momentum) running + momentum batch}. Evaluation normalizes by the
 * running statistics. Training runs as one fused kernel each way where the backend has them
 * ({@link FusedBatchNorm}).
 */
final class BatchNorm {
    private BatchNorm() {}

    static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, boolean training,
                            double momentum, double eps) {
        String op = "batchNorm";
        Ops.check(op, x);
        Ops.floating(op, x);
        Tensor[] operands = {x, runningMean, runningVar, weight, bias};
        if (x.rank() < 2) throw TensorException.of(op, "expected an input (n, c, ...) of rank 2 or more", operands);
        int channels = x.dim(1);
        for (Tensor p : new Tensor[] {runningMean, runningVar, weight, bias}) {
            if (p == null) continue;
            Ops.check(op, x, p);
            Ops.floating(op, p);
            if (p.rank() != 1 || p.dim(0) != channels) {
                throw TensorException.of(op, "running mean, running variance, weight and bias must have shape (" + channels
                        + ",), one value per channel (dimension 1 of the input)", operands);
            }
        }
        if ((runningMean == null) != (runningVar == null)) {
            throw TensorException.of(op, "only one of running mean and running variance given; expected both or neither", operands);
        }
        if (!training && runningMean == null) {
            throw TensorException.of(op, "evaluation needs the running mean and variance; expected both, or training=true", operands);
        }
        if (!(eps >= 0) || !(momentum >= 0 && momentum <= 1)) {
            throw TensorException.of(op, "momentum=" + momentum + " eps=" + eps + "; expected 0 <= momentum <= 1 and eps >= 0", operands);
        }
        long perChannel = x.elements() / Math.max(1, channels);
        if (training && perChannel <= 1) {
            throw TensorException.of(op, "training with " + perChannel + " value per channel; expected more than 1 (the batch's variance is undefined)",
                    operands);
        }
        int[] statShape = new int[x.rank()];
        java.util.Arrays.fill(statShape, 1);
        statShape[1] = channels;
        int[] axes = new int[x.rank() - 1];
        for (int i = 0, k = 0; i < x.rank(); i++) if (i != 1) axes[k++] = i;
        DType dtype = x.dtype();
        // statistics in f32, as PyTorch computes them for halves: an f16 sum of squares overflows at 65504
        Tensor in = dtype == DType.F16 ? x.cast(DType.F32) : x;
        if (training && x.elements() > 0) {
            Tensor fused = FusedBatchNorm.apply(in, runningMean, runningVar, weight == null ? null : weight.cast(in.dtype()),
                    bias == null ? null : bias.cast(in.dtype()), momentum, eps);
            if (fused != null) return fused.cast(dtype);
        }
        Tensor centered;
        Tensor variance;
        if (training) {
            Tensor mean = in.mean(axes, true);
            centered = in.sub(mean);
            variance = centered.mul(centered).mean(axes, true);
            if (runningMean != null) {
                try (var _ = Autograd.noGrad()) {
                    Tensor batchMean = mean.detach().reshape(channels);
                    Tensor unbiased = variance.detach().reshape(channels).mul((double) perChannel / (perChannel - 1));
                    runningMean.mulInPlace(1 - momentum).addInPlace(batchMean.mul(momentum).cast(runningMean.dtype()));
                    runningVar.mulInPlace(1 - momentum).addInPlace(unbiased.mul(momentum).cast(runningVar.dtype()));
                }
            }
        } else {
            centered = in.sub(runningMean.cast(in.dtype()).reshape(statShape));
            variance = runningVar.cast(in.dtype()).reshape(statShape);
        }
        Tensor y = centered.div(variance.add(eps).sqrt());
        if (weight != null) y = y.mul(weight.cast(in.dtype()).reshape(statShape));
        if (bias != null) y = y.add(bias.cast(in.dtype()).reshape(statShape));
        return y.cast(dtype);
    }
}

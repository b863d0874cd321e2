package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * Batch normalization in training as one {@link Kernel.BatchNorm} over the channels (the batch's
 * mean and biased variance, the normalized, scaled and shifted output), and its backward as one
 * {@link Kernel.BatchNormGrad} (the input's gradient, and the weight's and bias's summed over each
 * channel), in place of the composite's means, subtract, square, add, sqrt, divide, multiply and add
 * and their gradients. The input and the incoming gradient are made contiguous first (a copy only
 * when they are not), the weight and bias too.
 */
final class FusedBatchNorm {
    private FusedBatchNorm() {}

    /**
     * {@code x (n, c, ...)} normalized by its batch statistics, the running statistics moved toward
     * them (the caller checked shapes; f32 or f64, more than one value per channel; weight and bias
     * of x's dtype or null), or null when the backend declines either kernel or a dimension does not
     * fit an int (the caller composes it).
     */
    static Tensor apply(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias, double momentum, double eps) {
        int n = x.dim(0), c = x.dim(1);
        long spatial = x.elements() / ((long) n * c);
        Operand probe = x.operand();
        if (spatial > Integer.MAX_VALUE || !x.backend.supports(new Kernel.BatchNorm(probe, probe, probe, probe, null, null, eps))
                || !x.backend.supports(new Kernel.BatchNormGrad(probe, null, null, probe, probe, probe, probe, null, eps))) {
            return null;
        }
        int s = (int) spatial;
        Tensor in = x.detach().contiguous().reshape(n, c, s);
        Tensor w = weight == null ? null : weight.detach().contiguous();
        Tensor b = bias == null ? null : bias.detach().contiguous();
        Tensor out = Tensor.empty(x.backend, x.dtype(), Shape.of(n, c, s));
        Tensor mean = Tensor.empty(x.backend, x.dtype(), Shape.of(c));
        Tensor var = Tensor.empty(x.backend, x.dtype(), Shape.of(c));
        try {
            Ops.run(x.backend, new Kernel.BatchNorm(out.operand(), mean.operand(), var.operand(), in.operand(), Ops.operandOrNull(w), Ops.operandOrNull(b), eps));
        } catch (RuntimeException | Error e) {
            Ops.free(e, out, mean, var);
            throw e;
        }
        if (runningMean != null) {
            long perChannel = (long) n * s;
            try (var _ = Autograd.noGrad()) {
                runningMean.mulInPlace(1 - momentum).addInPlace(mean.mul(momentum).cast(runningMean.dtype()));
                runningVar.mulInPlace(1 - momentum).addInPlace(var.mul(momentum * perChannel / (perChannel - 1)).cast(runningVar.dtype()));
            }
        }
        Tensor y = out.reshape(x.shape.raw());
        if (!Ops.recording(x, weight, bias)) {
            mean.close();
            var.close();
            return y;
        }
        List<Tensor> inputs = new ArrayList<>(List.of(x));
        if (weight != null) inputs.add(weight);
        if (bias != null) inputs.add(bias);
        List<Tensor> saved = new ArrayList<>(List.of(in, mean, var));
        if (w != null) saved.add(w);
        return Ops.trackSaving(y, "batchNorm", saved.toArray(Tensor[]::new),
                (g, need) -> backward(g, need, in, mean, var, w, weight != null, bias != null, x.shape, eps), inputs.toArray(Tensor[]::new));
    }

    /** The gradients of the node's inputs (x, then the weight and the bias where given) in one kernel. */
    private static Tensor[] backward(Tensor g, boolean[] need, Tensor in, Tensor mean, Tensor var, Tensor w, boolean hasWeight,
            boolean hasBias, Shape shape, double eps) {
        int n = in.dim(0), c = in.dim(1), s = in.dim(2);
        Tensor dy = (g.dtype() == in.dtype() ? g : g.cast(in.dtype())).contiguous().reshape(n, c, s);
        boolean wantWeight = hasWeight && need[1], wantBias = hasBias && need[hasWeight ? 2 : 1];
        Tensor dx = Tensor.empty(in.backend, in.dtype(), Shape.of(n, c, s));
        Tensor dw = wantWeight ? Tensor.empty(in.backend, in.dtype(), Shape.of(c)) : null;
        Tensor db = wantBias ? Tensor.empty(in.backend, in.dtype(), Shape.of(c)) : null;
        try {
            Ops.run(in.backend, new Kernel.BatchNormGrad(dx.operand(), Ops.operandOrNull(dw), Ops.operandOrNull(db), dy.operand(), in.operand(), mean.operand(),
                    var.operand(), Ops.operandOrNull(w), eps));
        } catch (RuntimeException | Error e) {
            Ops.free(e, dx, dw, db);
            throw e;
        }
        return Ops.normGradients(dx, shape, dw, hasWeight, db, hasBias);
    }
}

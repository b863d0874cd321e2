package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * Layer normalization over the last dimension as one {@link Kernel.LayerNorm} over the rows, and its
 * backward as one {@link Kernel.LayerNormGrad} (the input's gradient, and the weight's and bias's
 * summed over the rows), in place of the composite's mean, subtract, square, mean, add, sqrt, divide,
 * multiply and add and their gradients. The input and the incoming gradient are made contiguous
 * first (a copy only when they are not), the weight and bias too.
 */
final class FusedLayerNorm {
    private FusedLayerNorm() {}

    /**
     * {@code x} normalized (the caller checked shapes and dtypes; f32 or f64, some elements), or null
     * when the backend declines either kernel or the rows do not fit an int (the caller composes it).
     */
    static Tensor apply(Tensor x, Tensor weight, Tensor bias, double eps) {
        int d = x.dim(-1);
        long rowCount = x.elements() / d;
        Operand probe = x.operand();
        if (rowCount > Integer.MAX_VALUE || !x.backend.supports(new Kernel.LayerNorm(probe, probe, probe, probe, null, null, eps))
                || !x.backend.supports(new Kernel.LayerNormGrad(probe, null, null, probe, probe, probe, probe, null))) {
            return null;
        }
        int rows = (int) rowCount;
        Tensor in = x.detach().contiguous().reshape(rows, d);
        Tensor w = weight == null ? null : weight.detach().contiguous();
        Tensor b = bias == null ? null : bias.detach().contiguous();
        Tensor out = Tensor.empty(x.backend, x.dtype(), Shape.of(rows, d));
        Tensor mean = Tensor.empty(x.backend, x.dtype(), Shape.of(rows));
        Tensor rstd = Tensor.empty(x.backend, x.dtype(), Shape.of(rows));
        try {
            Ops.run(x.backend, new Kernel.LayerNorm(out.operand(), mean.operand(), rstd.operand(), in.operand(), Ops.operandOrNull(w), Ops.operandOrNull(b), eps));
        } catch (RuntimeException | Error e) {
            Ops.free(e, out, mean, rstd);
            throw e;
        }
        Tensor y = out.reshape(x.shape.raw());
        if (!Ops.recording(x, weight, bias)) {
            mean.close();
            rstd.close();
            return y;
        }
        List<Tensor> inputs = new ArrayList<>(List.of(x));
        if (weight != null) inputs.add(weight);
        if (bias != null) inputs.add(bias);
        List<Tensor> saved = new ArrayList<>(List.of(in, mean, rstd));
        if (w != null) saved.add(w);
        return Ops.trackSaving(y, "layerNorm", saved.toArray(Tensor[]::new),
                (g, need) -> backward(g, need, in, mean, rstd, w, weight != null, bias != null, x.shape), inputs.toArray(Tensor[]::new));
    }

    /** The gradients of the node's inputs (x, then the weight and the bias where given) in one kernel. */
    private static Tensor[] backward(Tensor g, boolean[] need, Tensor in, Tensor mean, Tensor rstd, Tensor w, boolean hasWeight,
            boolean hasBias, Shape shape) {
        int rows = in.dim(0), d = in.dim(1);
        Tensor dy = (g.dtype() == in.dtype() ? g : g.cast(in.dtype())).contiguous().reshape(rows, d);
        boolean wantWeight = hasWeight && need[1], wantBias = hasBias && need[hasWeight ? 2 : 1];
        Tensor dx = Tensor.empty(in.backend, in.dtype(), Shape.of(rows, d));
        Tensor dw = wantWeight ? Tensor.empty(in.backend, in.dtype(), Shape.of(d)) : null;
        Tensor db = wantBias ? Tensor.empty(in.backend, in.dtype(), Shape.of(d)) : null;
        try {
            Ops.run(in.backend, new Kernel.LayerNormGrad(dx.operand(), Ops.operandOrNull(dw), Ops.operandOrNull(db), dy.operand(), in.operand(), mean.operand(),
                    rstd.operand(), Ops.operandOrNull(w)));
        } catch (RuntimeException | Error e) {
            Ops.free(e, dx, dw, db);
            throw e;
        }
        return Ops.normGradients(dx, shape, dw, hasWeight, db, hasBias);
    }
}

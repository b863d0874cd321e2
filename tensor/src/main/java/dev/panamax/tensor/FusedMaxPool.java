package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/**
 * Max pooling as one {@link Kernel.MaxPool2d} (each window's largest element and its position) and
 * its backward as one {@link Kernel.MaxPool2dGrad} (the gradient added at those positions), in place
 * of the composite's patches, argmax, comparison against an arange, where and sum and their
 * gradients. The input and the incoming gradient are made contiguous first (a copy only when they
 * are not); f16 is pooled in f32.
 */
final class FusedMaxPool {
    private FusedMaxPool() {}

    /**
     * {@code x (n, c, h, w)} pooled over {@code window} (the caller checked it; floating, some
     * elements), or null when the backend declines either kernel (the caller composes it).
     */
    static Tensor apply(Tensor x, Window2d window) {
        Operand probe = x.operand();
        if (!x.backend.supports(kernel(probe, probe, probe, window)) || !x.backend.supports(new Kernel.MaxPool2dGrad(probe, probe, probe))) {
            return null;
        }
        if (x.dtype() == DType.F16) return apply(x.cast(DType.F32), window).cast(DType.F16);
        Tensor in = x.detach().contiguous();
        Shape outShape = Shape.of(x.dim(0), x.dim(1), window.outH(), window.outW());
        Tensor out = Tensor.empty(x.backend, x.dtype(), outShape);
        Tensor indices = Tensor.empty(x.backend, DType.I64, outShape);
        try {
            Ops.run(x.backend, kernel(out.operand(), indices.operand(), in.operand(), window));
        } catch (RuntimeException | Error e) {
            Ops.free(e, out, indices);
            throw e;
        }
        if (!Ops.recording(x)) {
            indices.close();
            return out;
        }
        Shape inShape = x.shape;
        DType dtype = x.dtype();
        return Ops.trackSaving(out, "maxPool2d", new Tensor[] {indices}, (g, need) -> new Tensor[] {backward(g, indices, inShape, dtype)}, x);
    }

    /** The input's gradient: {@code g} added at the positions the forward picked. */
    private static Tensor backward(Tensor g, Tensor indices, Shape inShape, DType dtype) {
        Tensor dy = (g.dtype() == dtype ? g : g.cast(dtype)).contiguous();
        Tensor dx = Tensor.empty(indices.backend, dtype, inShape);
        try {
            Ops.run(indices.backend, new Kernel.MaxPool2dGrad(dx.operand(), dy.operand(), indices.operand()));
        } catch (RuntimeException | Error e) {
            Ops.free(e, dx);
            throw e;
        }
        return dx;
    }

    private static Kernel.MaxPool2d kernel(Operand out, Operand indices, Operand in, Window2d w) {
        return new Kernel.MaxPool2d(out, indices, in, w.kernelH(), w.kernelW(), w.strideH(), w.strideW(), w.padH(), w.padW(), w.dilationH(),
                w.dilationW());
    }
}

package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/**
 * Lowers {@link Kernel.BatchNorm} and {@link Kernel.BatchNormGrad} to {@code batchnorm.c} (one
 * descriptor layout, a word for the direction): f32 operands, every one contiguous (what the
 * frontend sends: it makes them so); anything else runs on the reference.
 */
final class BatchNorms {
    private BatchNorms() {}

    static boolean forward(Kernel.BatchNorm k, Recorder r) {
        if (!f32AndContiguous(k.out(), k.mean(), k.var(), k.in(), k.weight(), k.bias())) return false;
        Descriptor w = r.descriptor(Descriptor.BATCH_NORM_WORDS);
        common(w, 0, k.out(), k.in(), k.mean(), k.var(), k.weight(), k.eps());
        w.put(9, Lowering.address(k.bias())).put(10, 0).put(11, 0);
        r.submit(CpuKernel.BATCH_NORM, w, 4L * k.in().elements(), k);
        return true;
    }

    static boolean backward(Kernel.BatchNormGrad k, Recorder r) {
        if (!f32AndContiguous(k.dx(), k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.var(), k.weight())) return false;
        Descriptor w = r.descriptor(Descriptor.BATCH_NORM_WORDS);
        common(w, 1, k.dx(), k.in(), k.mean(), k.var(), k.weight(), k.eps());
        w.put(9, Lowering.address(k.dweight())).put(10, Lowering.address(k.dy())).put(11, Lowering.address(k.dbias()));
        r.submit(CpuKernel.BATCH_NORM, w, 8L * k.in().elements(), k);
        return true;
    }

    private static void common(Descriptor w, int direction, Operand out, Operand in, Operand mean, Operand var, Operand weight, double eps) {
        w.put(0, direction).put(1, in.shape()[0]).put(2, in.shape()[1]).put(3, in.shape()[2])
                .put(4, Lowering.address(out)).put(5, Lowering.address(in))
                .put(6, Lowering.address(mean)).put(7, Lowering.address(var)).put(8, Lowering.address(weight)).putDouble(12, eps);
    }

    private static boolean f32AndContiguous(Operand... operands) {
        for (Operand o : operands) if (o != null && (o.dtype() != DType.F32 || !o.isContiguous())) return false;
        return true;
    }
}

package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/**
 * Lowers {@link Kernel.LayerNorm} and {@link Kernel.LayerNormGrad} to {@code layernorm.c} (one
 * descriptor layout, a word for the direction): f32 operands whose rows may lie at any distance but
 * whose elements are adjacent (what the frontend sends: it makes them contiguous), the weight, bias
 * and their gradients contiguous; anything else runs on the reference.
 */
final class LayerNorms {
    private LayerNorms() {}

    static boolean forward(Kernel.LayerNorm k, Recorder r) {
        if (!f32(k.out(), k.mean(), k.rstd(), k.in(), k.weight(), k.bias())) return false;
        int d = k.in().shape()[1];
        if (!rowsAdjacent(d, k.out(), k.in()) || !vectorAdjacent(d, k.weight(), k.bias())) return false;
        Descriptor w = r.descriptor(Descriptor.LAYER_NORM_WORDS);
        common(w, 0, k.out(), k.in(), k.mean(), k.rstd(), k.weight());
        w.put(12, Lowering.address(k.bias())).put(13, 0).put(14, 0).put(15, 0).putDouble(16, k.eps());
        r.submit(CpuKernel.LAYER_NORM, w, 4L * k.in().elements(), k);
        return true;
    }

    static boolean backward(Kernel.LayerNormGrad k, Recorder r) {
        if (!f32(k.dx(), k.dweight(), k.dbias(), k.dy(), k.in(), k.mean(), k.rstd(), k.weight())) return false;
        int d = k.in().shape()[1];
        if (!rowsAdjacent(d, k.dx(), k.dy(), k.in()) || !vectorAdjacent(d, k.weight(), k.dweight(), k.dbias())) return false;
        Descriptor w = r.descriptor(Descriptor.LAYER_NORM_WORDS);
        common(w, 1, k.dx(), k.in(), k.mean(), k.rstd(), k.weight());
        w.put(12, Lowering.address(k.dweight())).put(13, Lowering.address(k.dy())).put(14, k.dy().strides()[0])
                .put(15, Lowering.address(k.dbias())).put(16, 0);
        r.submit(CpuKernel.LAYER_NORM, w, 8L * k.in().elements(), k);
        return true;
    }

    private static void common(Descriptor w, int direction, Operand out, Operand in, Operand mean, Operand rstd, Operand weight) {
        w.put(0, direction).put(1, in.shape()[0]).put(2, in.shape()[1])
                .put(3, Lowering.address(out)).put(4, out.strides()[0])
                .put(5, Lowering.address(in)).put(6, in.strides()[0])
                .put(7, Lowering.address(mean)).put(8, mean.strides()[0])
                .put(9, Lowering.address(rstd)).put(10, rstd.strides()[0])
                .put(11, Lowering.address(weight));
    }

    private static boolean f32(Operand... operands) {
        for (Operand o : operands) if (o != null && o.dtype() != DType.F32) return false;
        return true;
    }

    /** Whether each (n, d) operand's elements within a row are adjacent. */
    private static boolean rowsAdjacent(int d, Operand... matrices) {
        for (Operand o : matrices) if (d > 1 && o.strides()[1] != 1) return false;
        return true;
    }

    /** Whether each (d) operand, where given, is contiguous. */
    private static boolean vectorAdjacent(int d, Operand... vectors) {
        for (Operand o : vectors) if (o != null && d > 1 && o.strides()[0] != 1) return false;
        return true;
    }
}

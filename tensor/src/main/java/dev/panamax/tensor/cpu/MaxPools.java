package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/**
 * Lowers {@link Kernel.MaxPool2d} and {@link Kernel.MaxPool2dGrad} to {@code maxpool.c} (one
 * descriptor layout, a word for the direction): f32 values and i64 indices, every operand contiguous
 * (what the frontend sends); anything else runs on the reference.
 */
final class MaxPools {
    private MaxPools() {}

    static boolean forward(Kernel.MaxPool2d k, Recorder r) {
        if (k.in().dtype() != DType.F32 || k.out().dtype() != DType.F32 || !contiguous(k.out(), k.indices(), k.in())) return false;
        Descriptor w = r.descriptor(Descriptor.MAX_POOL_WORDS);
        common(w, 0, k.in(), k.out(), k.indices());
        w.put(9, k.kernelH()).put(10, k.kernelW()).put(11, k.strideH()).put(12, k.strideW()).put(13, k.padH()).put(14, k.padW())
                .put(15, k.dilationH()).put(16, k.dilationW());
        r.submit(CpuKernel.MAX_POOL, w, 4L * k.out().elements() * k.kernelH() * k.kernelW(), k);
        return true;
    }

    static boolean backward(Kernel.MaxPool2dGrad k, Recorder r) {
        if (k.dx().dtype() != DType.F32 || k.dy().dtype() != DType.F32 || !contiguous(k.dx(), k.dy(), k.indices())) return false;
        Descriptor w = r.descriptor(Descriptor.MAX_POOL_WORDS);
        common(w, 1, k.dx(), k.dy(), k.indices());
        for (int i = 9; i < Descriptor.MAX_POOL_WORDS; i++) w.put(i, 0);
        r.submit(CpuKernel.MAX_POOL, w, 4L * (k.dx().elements() + k.dy().elements()), k);
        return true;
    }

    /** Words 0 to 8: the direction, the planes' sizes and the three operands. */
    private static void common(Descriptor w, int direction, Operand plane, Operand pooled, Operand indices) {
        int[] in = plane.shape(), out = pooled.shape();
        w.put(0, direction).put(1, (long) in[0] * in[1]).put(2, in[2]).put(3, in[3]).put(4, out[2]).put(5, out[3])
                .put(6, Lowering.address(plane)).put(7, Lowering.address(pooled)).put(8, Lowering.address(indices));
    }

    private static boolean contiguous(Operand... operands) {
        for (Operand o : operands) if (!o.isContiguous()) return false;
        return true;
    }
}

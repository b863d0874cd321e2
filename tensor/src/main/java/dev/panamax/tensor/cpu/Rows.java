package dev.panamax.tensor.cpu;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

/**
 * Lowers the row-wise fused kernels, {@link Kernel.Softmax} and {@link Kernel.SoftmaxGrad}, to
 * {@code softmax.c} (one descriptor layout, a word for the direction): f32 operands of any strides;
 * anything else runs on the reference.
 */
final class Rows {
    private Rows() {}

    static boolean softmax(Kernel.Softmax k, Recorder r) {
        Operand out = k.out(), in = k.in();
        if (out.dtype() != DType.F32 || in.dtype() != DType.F32) return false;
        Descriptor w = r.descriptor(Descriptor.SOFTMAX_WORDS);
        layout(w, 0, out, in, null);
        w.put(12, k.causalRows());
        r.submit(CpuKernel.SOFTMAX, w, 8 * in.elements(), k);
        return true;
    }

    static boolean softmaxGrad(Kernel.SoftmaxGrad k, Recorder r) {
        Operand out = k.out(), y = k.y(), dy = k.dy();
        if (out.dtype() != DType.F32 || y.dtype() != DType.F32 || dy.dtype() != DType.F32) return false;
        Descriptor w = r.descriptor(Descriptor.SOFTMAX_WORDS);
        layout(w, 1, out, y, dy);
        w.put(12, 0);
        r.submit(CpuKernel.SOFTMAX, w, 4 * y.elements(), k);
        return true;
    }

    private static void layout(Descriptor w, int direction, Operand out, Operand a, Operand b) {
        w.put(0, direction).put(1, a.shape()[0]).put(2, a.shape()[1])
                .put(3, Lowering.address(out)).put(4, out.strides()[0]).put(5, out.strides()[1])
                .put(6, Lowering.address(a)).put(7, a.strides()[0]).put(8, a.strides()[1])
                .put(9, Lowering.address(b)).put(10, b == null ? 0 : b.strides()[0]).put(11, b == null ? 0 : b.strides()[1]);
    }
}

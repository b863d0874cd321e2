package dev.panamax.tensor;

/**
 * PyTorch's {@code max_pool2d} and {@code avg_pool2d} (ceil_mode off) over the windows of
 * {@link Window2d#patches}: max picks each window's first largest element (its gradient goes to
 * that one element, as PyTorch's does), avg divides by the whole window, padding included
 * ({@code count_include_pad=True}). Max pooling runs as one fused kernel each way where the
 * backend has them ({@link FusedMaxPool}).
 */
final class Pooling {
    private Pooling() {}

    static Tensor maxPool2d(Tensor input, int[] kernel, int[] stride, int[] padding, int[] dilation) {
        Window2d window = window("maxPool2d", input, kernel, stride, padding, dilation);
        if (input.rank() == 3) return maxPool2d(input.unsqueeze(0), kernel, stride, padding, dilation).squeeze(0);
        if (input.elements() > 0) {
            Tensor fused = FusedMaxPool.apply(input, window);
            if (fused != null) return fused;
        }
        Tensor patches = window.patches(input, Double.NEGATIVE_INFINITY);
        Tensor first = patches.argmax(2, true);
        Tensor offsets = Creation.arange(input.backend, DType.I64, 0, window.kernelSize(), 1).reshape(1, 1, window.kernelSize(), 1);
        Tensor zero = Creation.full(input.backend, input.dtype(), 0, Shape.scalar());
        Tensor picked = Tensor.where(first.eq(offsets), patches, zero).sum(2, false);
        return picked.reshape(input.dim(0), input.dim(1), window.outH(), window.outW());
    }

    static Tensor avgPool2d(Tensor input, int[] kernel, int[] stride, int[] padding) {
        Window2d window = window("avgPool2d", input, kernel, stride, padding, new int[] {1, 1});
        if (input.rank() == 3) return avgPool2d(input.unsqueeze(0), kernel, stride, padding).squeeze(0);
        if (input.dtype() == DType.F16) return avgPool2d(input.cast(DType.F32), kernel, stride, padding).cast(DType.F16);
        Tensor mean = window.patches(input, 0).sum(2, false).mul(1.0 / window.kernelSize());
        return mean.reshape(input.dim(0), input.dim(1), window.outH(), window.outW());
    }

    /** Checks what both pools take: (n, c, h, w) or (c, h, w), floating, padding at most half the (dilated) kernel. */
    private static Window2d window(String op, Tensor input, int[] kernel, int[] stride, int[] padding, int[] dilation) {
        Ops.check(op, input);
        Ops.floating(op, input);
        if (input.rank() != 3 && input.rank() != 4) throw TensorException.of(op, "expected input (n, c, h, w) or (c, h, w)", input);
        int h = input.dim(-2), w = input.dim(-1);
        Window2d window = Window2d.of(op, h, w, kernel, stride, padding, dilation, input);
        long spanH = (long) dilation[0] * (kernel[0] - 1) + 1, spanW = (long) dilation[1] * (kernel[1] - 1) + 1;
        if (padding[0] > spanH / 2 || padding[1] > spanW / 2) {
            throw TensorException.of(op, "padding " + padding[0] + "x" + padding[1] + " with kernel " + kernel[0] + "x" + kernel[1]
                    + (op.equals("maxPool2d") ? " (dilation " + dilation[0] + "x" + dilation[1] + ")" : "")
                    + "; expected padding at most half the kernel's span (" + spanH / 2 + "x" + spanW / 2 + ")", input);
        }
        return window;
    }
}

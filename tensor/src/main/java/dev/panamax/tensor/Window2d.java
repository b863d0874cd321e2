package dev.panamax.tensor;

import java.util.Arrays;

/**
 * Where a 2-D sliding window (convolution, pooling) reads: the input's spatial size, the kernel,
 * stride, padding and dilation per dimension (height, width), and the output size they give,
 * PyTorch's {@code floor((size + 2 padding - dilation (kernel - 1) - 1) / stride) + 1}.
 *
 * <p>{@link #patches} gathers every window's elements with one {@code indexSelect} over the flattened
 * input: windows that overlap read an element several times, and the gradient of {@code indexSelect}
 * adds those reads back up, which a strided view (whose slice gradient overwrites) could not.
 *
 * <pre>{@code
 * Window2d w = Window2d.of("conv2d", 5, 5, new int[] {3, 3}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, x);
 * Tensor p = w.patches(x, 0);    // x (n, c, 5, 5) -> (n, c, 9, 25): kernel offset, then output position
 * }</pre>
 */
record Window2d(int height, int width, int kernelH, int kernelW, int strideH, int strideW, int padH, int padW,
                int dilationH, int dilationW, int outH, int outW) {

    /** The window over a {@code height x width} input; refuses sizes that give no output, naming {@code operands}. */
    static Window2d of(String op, int height, int width, int[] kernel, int[] stride, int[] padding, int[] dilation, Tensor... operands) {
        pair(op, "kernel", kernel, 1, operands);
        pair(op, "stride", stride, 1, operands);
        pair(op, "padding", padding, 0, operands);
        pair(op, "dilation", dilation, 1, operands);
        long effectiveH = (long) dilation[0] * (kernel[0] - 1) + 1, effectiveW = (long) dilation[1] * (kernel[1] - 1) + 1;
        long paddedH = height + 2L * padding[0], paddedW = width + 2L * padding[1];
        if (effectiveH > paddedH || effectiveW > paddedW) {
            throw TensorException.of(op, "kernel " + kernel[0] + "x" + kernel[1] + " (dilation " + dilation[0] + "x" + dilation[1]
                    + ", spanning " + effectiveH + "x" + effectiveW + ") is larger than the padded input " + paddedH + "x" + paddedW
                    + " (input " + height + "x" + width + ", padding " + padding[0] + "x" + padding[1]
                    + "); expected a kernel that fits the padded input", operands);
        }
        long outH = (paddedH - effectiveH) / stride[0] + 1, outW = (paddedW - effectiveW) / stride[1] + 1;
        if (outH * outW * kernel[0] * kernel[1] > Integer.MAX_VALUE) {
            throw TensorException.of(op, "output " + outH + "x" + outW + " with kernel " + kernel[0] + "x" + kernel[1]
                    + " gathers more than " + Integer.MAX_VALUE + " elements per channel; expected fewer", operands);
        }
        return new Window2d(height, width, kernel[0], kernel[1], stride[0], stride[1], padding[0], padding[1],
                dilation[0], dilation[1], (int) outH, (int) outW);
    }

    private static void pair(String op, String name, int[] values, int least, Tensor... operands) {
        if (values == null || values.length != 2 || values[0] < least || values[1] < least) {
            throw TensorException.of(op, name + " " + (values == null ? "null" : Arrays.toString(values)) + "; expected two values (height, width), each at least "
                    + least, operands);
        }
    }

    /** Elements in one window. */
    int kernelSize() {
        return kernelH * kernelW;
    }

    /** Output positions per channel. */
    int outputSize() {
        return outH * outW;
    }

    boolean padded() {
        return padH > 0 || padW > 0;
    }

    /**
     * {@code x (n, c, height, width)} as {@code (n, c, kernelSize, outputSize)}: element {@code [.., k, l]}
     * is kernel offset {@code k} (row-major over the kernel) of the window at output position
     * {@code l} (row-major over the output), or {@code padValue} where that falls in the padding.
     * Gradients flow back to {@code x}, summed over the windows that read each element.
     */
    Tensor patches(Tensor x, double padValue) {
        int n = x.dim(0), c = x.dim(1);
        Tensor flat = x.reshape(n, c, height * width);
        if (padded()) {
            // one extra element after the image holds the padding value; padded positions read it
            Tensor pad = Creation.full(x.backend, x.dtype(), padValue, Shape.of(n, c, 1));
            flat = Tensor.concat(java.util.List.of(flat, pad), 2);
        }
        Tensor index = Creation.fromArray(x.backend, DType.I64, index(), kernelSize() * outputSize(), new int[0]);
        // in range by construction (index() makes positions in the flattened, extended input): not read back
        return Movement.indexSelectInRange(flat, 2, index).reshape(n, c, kernelSize(), outputSize());
    }

    /** Positions in the flattened (and, when padded, extended) input, kernel offset major. */
    long[] index() {
        long padSlot = (long) height * width;
        long[] index = new long[kernelSize() * outputSize()];
        int i = 0;
        for (int kh = 0; kh < kernelH; kh++) {
            for (int kw = 0; kw < kernelW; kw++) {
                for (int oh = 0; oh < outH; oh++) {
                    int ih = oh * strideH - padH + kh * dilationH;
                    for (int ow = 0; ow < outW; ow++) {
                        int iw = ow * strideW - padW + kw * dilationW;
                        index[i++] = ih >= 0 && ih < height && iw >= 0 && iw < width ? (long) ih * width + iw : padSlot;
                    }
                }
            }
        }
        return index;
    }
}

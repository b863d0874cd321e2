package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/**
 * 2-D max pooling ({@link Tensor#maxPool2d(int, int, int)}); the stride defaults to the kernel size.
 *
 * <pre>{@code
 * Tensor y = new MaxPool2d(2).forward(x);    // x (8, 16, 32, 32) -> y (8, 16, 16, 16)
 * }</pre>
 */
public final class MaxPool2d implements Module {
    private final int kernel;
    private final int stride;
    private final int padding;

    public MaxPool2d(int kernel) {
        this(kernel, kernel, 0);
    }

    public MaxPool2d(int kernel, int stride, int padding) {
        if (kernel <= 0 || stride <= 0 || padding < 0) {
            throw new IllegalArgumentException("MaxPool2d(kernel=" + kernel + ", stride=" + stride + ", padding=" + padding
                    + "): expected positive kernel and stride, padding >= 0");
        }
        this.kernel = kernel;
        this.stride = stride;
        this.padding = padding;
    }

    @Override
    public Tensor forward(Tensor input) {
        return input.maxPool2d(kernel, stride, padding);
    }
}

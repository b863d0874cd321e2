package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.lang.foreign.MemorySegment;

/**
 * Max pooling over (n, c, h, w) operands of any strides with each window's position, and its
 * gradient as a scatter-add over each plane in output order, as PyTorch's CPU kernels.
 */
final class MaxPools {
    private MaxPools() {}

    static void forward(Kernel.MaxPool2d k) {
        View in = new View(k.in()), out = new View(k.out()), indices = new View(k.indices());
        int n = k.in().shape()[0], c = k.in().shape()[1], h = k.in().shape()[2], w = k.in().shape()[3];
        int outH = k.out().shape()[2], outW = k.out().shape()[3];
        for (int b = 0; b < n; b++) {
            for (int ch = 0; ch < c; ch++) {
                for (int oy = 0; oy < outH; oy++) {
                    int y0 = oy * k.strideH() - k.padH();
                    for (int ox = 0; ox < outW; ox++) {
                        int x0 = ox * k.strideW() - k.padW();
                        double max = Double.NEGATIVE_INFINITY;
                        long at = -1;
                        for (int ky = 0; ky < k.kernelH(); ky++) {
                            int y = y0 + ky * k.dilationH();
                            if (y < 0 || y >= h) continue;
                            for (int kx = 0; kx < k.kernelW(); kx++) {
                                int x = x0 + kx * k.dilationW();
                                if (x < 0 || x >= w) continue;
                                double v = in.get(b, ch, y, x);
                                if (at < 0) at = (long) y * w + x; // a window of only -inf picks its first position
                                if (v > max || Double.isNaN(v)) {
                                    max = v;
                                    at = (long) y * w + x;
                                }
                            }
                        }
                        out.set(b, ch, oy, ox, max);
                        indices.setLong(b, ch, oy, ox, at);
                    }
                }
            }
        }
    }

    static void backward(Kernel.MaxPool2dGrad k) {
        View dx = new View(k.dx()), dy = new View(k.dy()), indices = new View(k.indices());
        int n = k.dx().shape()[0], c = k.dx().shape()[1], w = k.dx().shape()[3];
        int outH = k.dy().shape()[2], outW = k.dy().shape()[3];
        for (int b = 0; b < n; b++) {
            for (int ch = 0; ch < c; ch++) {
                for (int y = 0; y < k.dx().shape()[2]; y++) {
                    for (int x = 0; x < w; x++) dx.set(b, ch, y, x, 0);
                }
                for (int oy = 0; oy < outH; oy++) {
                    for (int ox = 0; ox < outW; ox++) {
                        long at = indices.getLong(b, ch, oy, ox);
                        if (at < 0) continue; // a window that held no input position
                        int y = (int) (at / w), x = (int) (at % w);
                        dx.set(b, ch, y, x, dx.get(b, ch, y, x) + dy.get(b, ch, oy, ox));
                    }
                }
            }
        }
    }

    /** A rank-4 operand read and written by position. */
    private record View(MemorySegment segment, DType dtype, long offset, long[] strides) {
        View(Operand o) {
            this(HostStorage.of(o.storage()).segment(), o.dtype(), o.offset(), o.strides());
        }

        private long at(int a, int b, int c, int d) {
            return offset + a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3];
        }

        double get(int a, int b, int c, int d) {
            return Elements.get(segment, dtype, at(a, b, c, d));
        }

        long getLong(int a, int b, int c, int d) {
            return Elements.getLong(segment, dtype, at(a, b, c, d));
        }

        void set(int a, int b, int c, int d, double v) {
            Elements.set(segment, dtype, at(a, b, c, d), v);
        }

        void setLong(int a, int b, int c, int d, long v) {
            Elements.setLong(segment, dtype, at(a, b, c, d), v);
        }
    }
}

package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.lang.foreign.MemorySegment;

/** Batch normalization in training over the channels of (n, c, s) operands of any strides, and its gradient, in double. */
final class BatchNorms {
    private BatchNorms() {}

    static void forward(Kernel.BatchNorm k) {
        int n = k.in().shape()[0], c = k.in().shape()[1], s = k.in().shape()[2];
        View x = new View(k.in()), out = new View(k.out()), mean = new View(k.mean()), var = new View(k.var());
        View w = k.weight() == null ? null : new View(k.weight()), b = k.bias() == null ? null : new View(k.bias());
        double m = (double) n * s;
        for (int ch = 0; ch < c; ch++) {
            double sum = 0;
            for (int i = 0; i < n; i++) for (int j = 0; j < s; j++) sum += x.get(i, ch, j);
            double mu = sum / m, squares = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < s; j++) {
                    double e = x.get(i, ch, j) - mu;
                    squares += e * e;
                }
            }
            double variance = squares / m, r = 1 / Math.sqrt(variance + k.eps());
            double scale = w == null ? 1 : w.get(ch), shift = b == null ? 0 : b.get(ch);
            mean.set(ch, mu);
            var.set(ch, variance);
            for (int i = 0; i < n; i++) for (int j = 0; j < s; j++) out.set(i, ch, j, (x.get(i, ch, j) - mu) * r * scale + shift);
        }
    }

    static void backward(Kernel.BatchNormGrad k) {
        int n = k.in().shape()[0], c = k.in().shape()[1], s = k.in().shape()[2];
        View x = new View(k.in()), dy = new View(k.dy()), dx = new View(k.dx()), mean = new View(k.mean()), var = new View(k.var());
        View w = k.weight() == null ? null : new View(k.weight());
        double m = (double) n * s;
        for (int ch = 0; ch < c; ch++) {
            double mu = mean.get(ch), r = 1 / Math.sqrt(var.get(ch) + k.eps()), scale = w == null ? 1 : w.get(ch);
            double sumDy = 0, sumDyX = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < s; j++) {
                    sumDy += dy.get(i, ch, j);
                    sumDyX += dy.get(i, ch, j) * (x.get(i, ch, j) - mu) * r;
                }
            }
            double meanG = scale * sumDy / m, meanGx = scale * sumDyX / m;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < s; j++) {
                    double xhat = (x.get(i, ch, j) - mu) * r;
                    dx.set(i, ch, j, r * (scale * dy.get(i, ch, j) - meanG - xhat * meanGx));
                }
            }
            if (k.dweight() != null) new View(k.dweight()).set(ch, sumDyX);
            if (k.dbias() != null) new View(k.dbias()).set(ch, sumDy);
        }
    }

    /** An operand of rank 1 or 3 read and written by position. */
    private record View(MemorySegment segment, DType dtype, long offset, long[] strides) {
        View(Operand o) {
            this(HostStorage.of(o.storage()).segment(), o.dtype(), o.offset(), o.strides());
        }

        double get(int i) {
            return Elements.get(segment, dtype, offset + i * strides[0]);
        }

        double get(int i, int k, int j) {
            return Elements.get(segment, dtype, offset + i * strides[0] + k * strides[1] + j * strides[2]);
        }

        void set(int i, double v) {
            Elements.set(segment, dtype, offset + i * strides[0], v);
        }

        void set(int i, int k, int j, double v) {
            Elements.set(segment, dtype, offset + i * strides[0] + k * strides[1] + j * strides[2], v);
        }
    }
}

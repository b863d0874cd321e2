package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;

import java.lang.foreign.MemorySegment;

/** Layer normalization over the rows of (n, d) operands of any strides, and its gradient, in double. */
final class LayerNorms {
    private LayerNorms() {}

    static void forward(Kernel.LayerNorm k) {
        Operand in = k.in(), out = k.out();
        int n = in.shape()[0], d = in.shape()[1];
        View x = new View(in), o = new View(out), mean = new View(k.mean()), rstd = new View(k.rstd());
        View w = k.weight() == null ? null : new View(k.weight()), b = k.bias() == null ? null : new View(k.bias());
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (int j = 0; j < d; j++) sum += x.get(i, j);
            double mu = sum / d;
            double squares = 0;
            for (int j = 0; j < d; j++) {
                double c = x.get(i, j) - mu;
                squares += c * c;
            }
            double r = 1 / Math.sqrt(squares / d + k.eps());
            mean.set(i, mu);
            rstd.set(i, r);
            for (int j = 0; j < d; j++) {
                double y = (x.get(i, j) - mu) * r;
                if (w != null) y *= w.get(j);
                if (b != null) y += b.get(j);
                o.set(i, j, y);
            }
        }
    }

    static void backward(Kernel.LayerNormGrad k) {
        Operand in = k.in();
        int n = in.shape()[0], d = in.shape()[1];
        View x = new View(in), dy = new View(k.dy()), dx = new View(k.dx()), mean = new View(k.mean()), rstd = new View(k.rstd());
        View w = k.weight() == null ? null : new View(k.weight());
        double[] dw = new double[d], db = new double[d];
        for (int i = 0; i < n; i++) {
            double mu = mean.get(i), r = rstd.get(i);
            double sumG = 0, sumGx = 0;
            for (int j = 0; j < d; j++) {
                double g = dy.get(i, j) * (w == null ? 1 : w.get(j)), xhat = (x.get(i, j) - mu) * r;
                sumG += g;
                sumGx += g * xhat;
                dw[j] += dy.get(i, j) * xhat;
                db[j] += dy.get(i, j);
            }
            double meanG = sumG / d, meanGx = sumGx / d;
            for (int j = 0; j < d; j++) {
                double g = dy.get(i, j) * (w == null ? 1 : w.get(j)), xhat = (x.get(i, j) - mu) * r;
                dx.set(i, j, r * (g - meanG - xhat * meanGx));
            }
        }
        if (k.dweight() != null) {
            View out = new View(k.dweight());
            for (int j = 0; j < d; j++) out.set(j, dw[j]);
        }
        if (k.dbias() != null) {
            View out = new View(k.dbias());
            for (int j = 0; j < d; j++) out.set(j, db[j]);
        }
    }

    /** An operand of rank 1 or 2 read and written by position. */
    private record View(MemorySegment segment, DType dtype, long offset, long[] strides) {
        View(Operand o) {
            this(HostStorage.of(o.storage()).segment(), o.dtype(), o.offset(), o.strides());
        }

        double get(int i) {
            return Elements.get(segment, dtype, offset + i * strides[0]);
        }

        double get(int i, int j) {
            return Elements.get(segment, dtype, offset + i * strides[0] + j * strides[1]);
        }

        void set(int i, double v) {
            Elements.set(segment, dtype, offset + i * strides[0], v);
        }

        void set(int i, int j, double v) {
            Elements.set(segment, dtype, offset + i * strides[0] + j * strides[1], v);
        }
    }
}

package dev.panamax.tensor.reference;

import dev.panamax.tensor.DType;
import dev.panamax.tensor.spi.HostStorage;
import dev.panamax.tensor.spi.Operand;

import java.lang.foreign.MemorySegment;

/** The row-wise fused kernels (softmax, causal or not, and its gradient) over (n, c) operands of any strides, in double. */
final class Rows {
    private Rows() {}

    static void softmax(Operand out, Operand in, int causalRows) {
        MemorySegment x = HostStorage.of(in.storage()).segment(), o = HostStorage.of(out.storage()).segment();
        DType t = in.dtype();
        int n = in.shape()[0], c = in.shape()[1];
        long[] s = in.strides(), so = out.strides();
        for (int i = 0; i < n; i++) {
            long row = in.offset() + i * s[0], orow = out.offset() + i * so[0];
            int seen = causalRows > 0 ? Math.min(c, i % causalRows + 1) : c;
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < seen; j++) {
                double e = Elements.get(x, t, row + j * s[1]);
                if (e > max || Double.isNaN(e)) max = e;
            }
            double sum = 0;
            for (int j = 0; j < seen; j++) sum += Math.exp(Elements.get(x, t, row + j * s[1]) - max);
            for (int j = 0; j < c; j++) {
                double y = j < seen ? Math.exp(Elements.get(x, t, row + j * s[1]) - max) / sum : 0;
                Elements.set(o, out.dtype(), orow + j * so[1], y);
            }
        }
    }

    static void softmaxGrad(Operand out, Operand y, Operand dy) {
        MemorySegment ys = HostStorage.of(y.storage()).segment(), gs = HostStorage.of(dy.storage()).segment();
        MemorySegment o = HostStorage.of(out.storage()).segment();
        DType t = y.dtype();
        int n = y.shape()[0], c = y.shape()[1];
        long[] sy = y.strides(), sg = dy.strides(), so = out.strides();
        for (int i = 0; i < n; i++) {
            long yrow = y.offset() + i * sy[0], grow = dy.offset() + i * sg[0], orow = out.offset() + i * so[0];
            double dot = 0;
            for (int j = 0; j < c; j++) dot += Elements.get(ys, t, yrow + j * sy[1]) * Elements.get(gs, t, grow + j * sg[1]);
            for (int j = 0; j < c; j++) {
                double yj = Elements.get(ys, t, yrow + j * sy[1]);
                Elements.set(o, out.dtype(), orow + j * so[1], yj * (Elements.get(gs, t, grow + j * sg[1]) - dot));
            }
        }
    }
}

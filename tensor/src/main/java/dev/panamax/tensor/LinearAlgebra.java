package dev.panamax.tensor;

import dev.panamax.tensor.spi.Kernel;
import dev.panamax.tensor.spi.Operand;
import dev.panamax.tensor.spi.UnaryOp;

/**
 * matmul with NumPy's rules, lowered to one rank-3 batched kernel, or to one per index of the
 * shorter batch dimension when a two-dimensional batch has no single stride (attention's heads).
 */
final class LinearAlgebra {
    private LinearAlgebra() {}

    static Tensor matmul(Tensor a, Tensor b) {
        Ops.check("matmul", a, b);
        Ops.floating("matmul", a, b);
        Ops.sameDtype("matmul", a, b);
        if (a.rank() == 0 || b.rank() == 0) throw TensorException.of("matmul", "expected operands of rank 1 or more", a, b);
        if (a.rank() == 1 && b.rank() == 1) return matmul(a.unsqueeze(0), b.unsqueeze(1)).reshape();
        if (a.rank() == 1) return matmul(a.unsqueeze(0), b).squeeze(-2);
        if (b.rank() == 1) return matmul(a, b.unsqueeze(1)).squeeze(-1);
        int m = a.dim(-2), k = a.dim(-1), k2 = b.dim(-2), n = b.dim(-1);
        if (k != k2) {
            throw TensorException.of("matmul", "inner dimensions differ (" + k + " and " + k2 + "); expected a (..., m, k) and b (..., k, n)", a, b);
        }
        Shape batchA = Shape.of(java.util.Arrays.copyOf(a.shape.raw(), a.rank() - 2));
        Shape batchB = Shape.of(java.util.Arrays.copyOf(b.shape.raw(), b.rank() - 2));
        Shape batch = Shape.broadcast(batchA, batchB);
        if (batch == null) throw TensorException.of("matmul", "batch dimensions do not broadcast", a, b);
        int batchCount = Math.toIntExact(batch.elements());
        int[] outDims = java.util.Arrays.copyOf(batch.raw(), batch.rank() + 2);
        outDims[batch.rank()] = m;
        outDims[batch.rank() + 1] = n;
        Tensor out = Tensor.empty(a.backend, a.dtype(), Shape.of(outDims));
        if (!productsPerIndex(out, a, b, batch, m, k, n)) {
            Operand o = new Operand(out.storage, new int[] {batchCount, m, n}, new long[] {(long) m * n, n, 1}, 0);
            Ops.execute(out, new Kernel.MatMul(o, asBatch(a, batch, m, k), asBatch(b, batch, k, n), false));
        }
        return Ops.trackSaving(out, "matmul", new Tensor[] {a, b}, (g, need) -> new Tensor[] {
                need[0] ? Reduction.sumTo(g.matmul(b.transpose(-1, -2)), a.shape) : null,
                need[1] ? rightGradient(a, b, g) : null}, a, b);
    }

    static Tensor linear(Tensor x, Tensor w, Tensor b) {
        Ops.check("linear", x, w);
        if (b == null || x.rank() != 2 || w.rank() != 2 || b.rank() != 1 || b.dim(0) != w.dim(0) || x.dim(1) != w.dim(1)
                || x.dtype() != w.dtype() || b.dtype() != w.dtype() || b.backend != x.backend || !x.dtype().isFloating()) {
            // the general path names whatever is wrong (shapes, dtypes, backends) as matmul and add do
            Tensor y = matmul(x, w.t());
            return b == null ? y : y.add(b);
        }
        Ops.check("linear", x, w, b);
        int n = x.dim(0), out = w.dim(0), in = w.dim(1);
        Tensor y = Tensor.empty(x.backend, x.dtype(), Shape.of(n, out));
        Ops.execute(y, new Kernel.Unary(UnaryOp.COPY, y.operand(), b.operandAs(y.shape)));
        Operand o = new Operand(y.storage, new int[] {1, n, out}, new long[] {(long) n * out, out, 1}, 0);
        Ops.execute(y, new Kernel.MatMul(o, asBatch(x, Shape.scalar(), n, in), asBatch(w.t(), Shape.scalar(), in, out), true));
        return Ops.trackSaving(y, "linear", new Tensor[] {x, w}, (g, need) -> new Tensor[] {
                need[0] ? g.matmul(w) : null,
                need[1] ? g.transpose(0, 1).matmul(x) : null,
                need[2] ? g.sum(0, false) : null}, x, w, b);
    }

    /**
     * d/db of {@code a b}: {@code a^T g}, summed to b's shape. When b is a column-major matrix (a
     * transposed view, as {@code x.matmul(weight.t())} makes) the product is computed as
     * {@code (g^T a)^T}, so it comes out in b's own layout and the weight's gradient behind the view
     * is row-major: stored as a plain copy rather than a transposing one.
     */
    private static Tensor rightGradient(Tensor a, Tensor b, Tensor g) {
        if (a.rank() == 2 && b.rank() == 2 && g.rank() == 2 && b.strides[0] == 1 && b.strides[1] == b.dim(0) && b.dim(0) > 1) {
            return g.transpose(-1, -2).matmul(a).transpose(-1, -2);
        }
        return Reduction.sumTo(a.transpose(-1, -2).matmul(g), b.shape);
    }

    /** At most this many kernels stand in for one product whose batch strides do not collapse. */
    private static final int MAX_KERNELS_PER_PRODUCT = 16;

    /**
     * A product over a two-dimensional batch whose strides do not collapse into one in {@code a} or
     * {@code b} (attention's heads: {@code (N, heads, T, d)} views of {@code (N, T, heads * d)}) as one
     * kernel per index of the shorter batch dimension, each a batch over the longer one with its own
     * stride, so neither operand is copied contiguous first; false (nothing run) for any other product.
     */
    private static boolean productsPerIndex(Tensor out, Tensor a, Tensor b, Shape batch, int m, int k, int n) {
        if (batch.rank() != 2 || batch.dim(0) < 2 || batch.dim(1) < 2) return false;
        long[] sa = Movement.broadcastStrides(a, withMatrix(batch, m, k)), sb = Movement.broadcastStrides(b, withMatrix(batch, k, n));
        if (collapsedStride(sa, batch) != null && collapsedStride(sb, batch) != null) return false;
        int loop = batch.dim(0) <= batch.dim(1) ? 0 : 1, keep = 1 - loop;
        if (batch.dim(loop) > MAX_KERNELS_PER_PRODUCT) return false;
        long[] so = {(long) batch.dim(1) * m * n, (long) m * n};
        int count = batch.dim(keep);
        for (int i = 0; i < batch.dim(loop); i++) {
            Operand o = new Operand(out.storage, new int[] {count, m, n}, new long[] {so[keep], n, 1}, i * so[loop]);
            Operand ai = new Operand(a.storage, new int[] {count, m, k}, new long[] {sa[keep], sa[2], sa[3]}, a.offset + i * sa[loop]);
            Operand bi = new Operand(b.storage, new int[] {count, k, n}, new long[] {sb[keep], sb[2], sb[3]}, b.offset + i * sb[loop]);
            Ops.execute(out, new Kernel.MatMul(o, ai, bi, false));
        }
        return true;
    }

    private static Shape withMatrix(Shape batch, int rows, int cols) {
        int[] dims = java.util.Arrays.copyOf(batch.raw(), batch.rank() + 2);
        dims[batch.rank()] = rows;
        dims[batch.rank() + 1] = cols;
        return Shape.of(dims);
    }

    /** The one stride that steps through {@code batch} in strides {@code s} (its batch dimensions first), or null when there is none. */
    private static Long collapsedStride(long[] s, Shape batch) {
        long batchStride = 0;
        int inner = -1;
        for (int i = batch.rank() - 1; i >= 0; i--) {
            if (batch.dim(i) == 1) continue;
            if (inner < 0) batchStride = s[i];
            else if (s[i] != s[inner] * batch.dim(inner)) return null;
            inner = i;
        }
        return batchStride;
    }

    /** {@code t} broadcast to {@code batch + (rows, cols)} as a rank-3 operand; copies only when its batch strides do not collapse. */
    private static Operand asBatch(Tensor t, Shape batch, int rows, int cols) {
        Shape full = withMatrix(batch, rows, cols);
        long[] s = Movement.broadcastStrides(t, full);
        int nb = batch.rank();
        Long batchStride = collapsedStride(s, batch);
        int count = Math.toIntExact(batch.elements());
        if (batchStride != null) {
            return new Operand(t.storage, new int[] {count, rows, cols}, new long[] {batchStride, s[nb], s[nb + 1]}, t.offset);
        }
        Tensor dense = Movement.copyAs(new Tensor(t.backend, t.storage, full, s, t.offset), t.dtype());
        return new Operand(dense.storage, new int[] {count, rows, cols}, new long[] {(long) rows * cols, cols, 1}, 0);
    }
}

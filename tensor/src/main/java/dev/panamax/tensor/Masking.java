package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;

/** Ops that keep some elements and replace the others: {@code maskedFill}, {@code tril}, {@code triu}. */
final class Masking {
    private Masking() {}

    /**
     * PyTorch's {@code masked_fill}: {@code value} where {@code mask} is nonzero, else {@code x}; the
     * mask broadcasts to x's shape (not the other way), the result keeps x's dtype.
     */
    static Tensor maskedFill(Tensor x, Tensor mask, double value) {
        Ops.check("maskedFill", x, mask);
        Shape s = Shape.broadcast(x.shape, mask.shape);
        if (s == null || !s.equals(x.shape)) {
            throw TensorException.of("maskedFill", "mask shape " + mask.shape + " does not broadcast to the tensor's shape " + x.shape
                    + "; expected equal sizes or 1 in each dimension aligned from the right", x, mask);
        }
        Creation.checkValue("maskedFill", x.dtype(), value, "value " + value);
        Tensor fill = Creation.full(x.backend, x.dtype(), value, Shape.scalar());
        return Elementwise.where(mask, fill, x);
    }

    /**
     * PyTorch's {@code tril(k)} ({@code lower}) or {@code triu(k)}: the last two dimensions as
     * matrices, keeping element (i, j) where {@code j - i <= k} (tril) or {@code j - i >= k} (triu),
     * zero elsewhere; any leading dimensions are a batch.
     */
    static Tensor triangle(String op, Tensor x, int k, boolean lower) {
        Ops.check(op, x);
        if (x.rank() < 2) throw TensorException.of(op, "expected rank 2 or more (matrices in the last two dimensions)", x);
        int rows = x.dim(-2), cols = x.dim(-1);
        Tensor keep;
        try (var _ = Autograd.noGrad()) {
            Tensor i = Creation.arange(x.backend, DType.I64, 0, rows, 1).reshape(rows, 1);
            Tensor j = Creation.arange(x.backend, DType.I64, 0, cols, 1).reshape(1, cols);
            keep = Elementwise.scalar(op, lower ? BinaryOp.LE : BinaryOp.GE, j.sub(i), (long) k);
        }
        return Elementwise.where(keep, x, Creation.full(x.backend, x.dtype(), 0, Shape.scalar()));
    }
}

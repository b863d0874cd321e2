package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;

import java.util.Arrays;

/**
 * Scaled dot-product attention as PyTorch's {@code scaled_dot_product_attention} computes it on its
 * math path: {@code softmax(q k^T * scale + mask) v}, built from matmul, where, add and softmax, so
 * its gradients follow from theirs and every backend runs it with no kernel of its own.
 */
final class Attention {
    private Attention() {}

    private static final String OP = "scaledDotProductAttention";
    private static final String SHAPES = "expected query (..., L, E), key (..., S, E) and value (..., S, Ev) of one floating dtype, "
            + "batch dimensions that broadcast";

    /**
     * @param mask   null; an integer tensor (nonzero: the query may attend to that key, PyTorch's bool
     *               mask); or a floating one of the query's dtype added to the scores; broadcast to (..., L, S)
     * @param causal query i attends to keys 0..i only (PyTorch's {@code is_causal}: {@code tril(ones(L, S))})
     * @param scale  the factor of the scores, or null for {@code 1 / sqrt(E)}
     */
    static Tensor scaledDotProduct(Tensor q, Tensor k, Tensor v, Tensor mask, boolean causal, Double scale) {
        if (mask == null) Ops.check(OP, q, k, v);
        else Ops.check(OP, q, k, v, mask);
        if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2) throw TensorException.of(OP, "an operand has rank below 2; " + SHAPES, q, k, v);
        Ops.floating(OP, q, k, v);
        Ops.sameDtype(OP, q, k, v);
        int l = q.dim(-2), e = q.dim(-1), s = k.dim(-2);
        if (k.dim(-1) != e || v.dim(-2) != s) {
            throw TensorException.of(OP, "key has " + k.dim(-1) + " features for the query's " + e + " and value " + v.dim(-2)
                    + " rows for the key's " + s + "; " + SHAPES, q, k, v);
        }
        Shape qk = Shape.broadcast(batchOf(q), batchOf(k));
        Shape batch = qk == null ? null : Shape.broadcast(qk, batchOf(v));
        if (batch == null) throw TensorException.of(OP, "batch dimensions do not broadcast; " + SHAPES, q, k, v);
        if (s == 0) throw TensorException.of(OP, "no keys (S = 0); expected at least one key to attend to", q, k, v);
        if (mask != null && causal) {
            throw TensorException.of(OP, "both a mask and causal given; expected one of them (PyTorch's is_causal replaces attn_mask)",
                    q, k, v, mask);
        }
        int[] scoreDims = Arrays.copyOf(batch.raw(), batch.rank() + 2);
        scoreDims[batch.rank()] = l;
        scoreDims[batch.rank() + 1] = s;
        Shape scoreShape = Shape.of(scoreDims);
        if (mask != null) {
            if (mask.dtype().isFloating() && mask.dtype() != q.dtype()) {
                throw TensorException.of(OP, "a floating mask is added to the scores; expected it in the query's dtype "
                        + q.dtype().label() + " (or an integer mask: nonzero attends)", q, k, v, mask);
            }
            if (!scoreShape.equals(mask.rank() <= scoreShape.rank() ? Shape.broadcast(mask.shape, scoreShape) : null)) {
                throw TensorException.of(OP, "mask does not broadcast to the scores' shape " + scoreShape + " (..., L, S)", q, k, v, mask);
            }
        }
        double factor = scale != null ? scale : 1 / Math.sqrt(e);
        if (Double.isNaN(factor)) throw TensorException.of(OP, "scale is NaN; expected a number (or null for 1/sqrt(E))", q, k, v);

        // the scale applied to the queries, (..., L, E), rather than to the scores, (..., L, S): one
        // pass over the smaller tensor, forward and backward, for the same product up to rounding
        Tensor scores = q.mul(factor).matmul(k.transpose(-2, -1));
        if (q.dtype() == DType.F16) scores = scores.cast(DType.F32); // softmax statistics in f32, as Composite.softmax
        // causal: the mask inside the softmax kernel (no mask tensor, no where forward or backward),
        // unless the backend declines the fused softmax
        Tensor fused = causal ? Composite.causalSoftmax(scores) : null;
        if (fused != null) return fused.cast(q.dtype()).matmul(v);
        if (causal) {
            // f32 positions (exact below 2^24) compare natively, so a captured step (StepCapture) can hold the mask
            Tensor rows = Creation.arange(q.backend, DType.F32, 0, l, 1).reshape(l, 1);
            Tensor cols = Creation.arange(q.backend, DType.F32, 0, s, 1).reshape(1, s);
            scores = excluded(scores, rows.ge(cols));
        } else if (mask != null) {
            scores = mask.dtype().isFloating() ? scores.add(mask.cast(scores.dtype())) : excluded(scores, mask);
        }
        // a causal row always attends to key 0, so only a mask can leave a row with nothing to attend to
        Tensor weights = mask != null ? safeSoftmax(scores) : scores.softmax(-1);
        return weights.cast(q.dtype()).matmul(v);
    }

    private static Shape batchOf(Tensor t) {
        return Shape.of(Arrays.copyOf(t.shape.raw(), t.rank() - 2));
    }

    /** {@code scores} where {@code allowed} is nonzero, else -inf. */
    private static Tensor excluded(Tensor scores, Tensor allowed) {
        Tensor minusInfinity = Creation.full(scores.backend, scores.dtype(), Double.NEGATIVE_INFINITY, Shape.scalar());
        return Tensor.where(allowed, scores, minusInfinity);
    }

    /**
     * Softmax over the last axis that gives 0, not NaN, in a row whose every score is -inf (a query
     * masked from every key), as PyTorch's {@code _safe_softmax} in its math attention path.
     */
    private static Tensor safeSoftmax(Tensor scores) {
        Tensor max = scores.max(-1, true).detach();
        Tensor zero = Creation.full(scores.backend, scores.dtype(), 0, Shape.scalar());
        Tensor one = Creation.full(scores.backend, scores.dtype(), 1, Shape.scalar());
        Tensor shift = Tensor.where(Elementwise.scalar("eq", BinaryOp.EQ, max, Double.NEGATIVE_INFINITY), zero, max);
        Tensor exp = scores.sub(shift).exp();
        Tensor sum = exp.sum(-1, true);
        return exp.div(Tensor.where(Elementwise.scalar("eq", BinaryOp.EQ, sum, 0L), one, sum));
    }
}

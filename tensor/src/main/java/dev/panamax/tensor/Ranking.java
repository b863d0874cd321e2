package dev.panamax.tensor;

import dev.panamax.tensor.spi.BinaryOp;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link TopK}: {@code k} rounds of argmax, each over the elements not yet picked, from primitives
 * only (so every backend runs it; a round costs a few elementwise passes and two reductions).
 */
final class Ranking {
    private Ranking() {}

    /**
     * The k largest along {@code axis}, largest first; NaN ranks above every number (as PyTorch) and
     * of equal values the lower index comes first.
     */
    static TopK topk(Tensor x, int k, int axis) {
        Ops.check("topk", x);
        int a = Reduction.normalize("topk", x, new int[] {axis})[0];
        int n = x.dim(a);
        if (k < 0 || k > n) throw TensorException.of("topk", "k=" + k + " out of range; expected 0 <= k <= " + n + " (axis " + axis + ")", x);
        Tensor indices;
        if (k == 0) {
            indices = Creation.full(x.backend, DType.I64, 0, x.shape.with(a, 0));
        } else {
            try (var _ = Autograd.noGrad()) {
                indices = pickIndices(x.detach(), k, a, n);
            }
        }
        return new TopK(Gather.gatherInRange(x, a, indices), indices); // indices made here, in range: not read back
    }

    private static Tensor pickIndices(Tensor x, int k, int a, int n) {
        int[] along = new int[x.rank()];
        java.util.Arrays.fill(along, 1);
        along[a] = n;
        Tensor positions = Creation.arange(x.backend, DType.I64, 0, n, 1).reshape(along);
        // what a picked element is replaced by so it cannot win again: -inf for floats, the row's minimum for integers
        // (an unpicked -inf or minimum still ties with it, so the winner is chosen among the unpicked ones below)
        Tensor floor = x.dtype().isFloating() ? Creation.full(x.backend, x.dtype(), Double.NEGATIVE_INFINITY, Shape.scalar())
                : x.min(a, true);
        Tensor picked = Creation.full(x.backend, DType.I64, 0, x.shape);
        List<Tensor> rounds = new ArrayList<>(k);
        for (int round = 0; round < k; round++) {
            Tensor best = Tensor.where(picked, floor, x).max(a, true);
            Tensor isBest = x.eq(best);
            if (x.dtype().isFloating()) isBest = isBest.add(x.ne(x).mul(best.ne(best))); // NaN equals a NaN maximum
            Tensor candidate = isBest.mul(Elementwise.scalar("topk", BinaryOp.EQ, picked, 0L));
            Tensor index = candidate.argmax(a, true);
            rounds.add(index);
            picked = picked.add(positions.eq(index));
        }
        return Tensor.concat(rounds, a);
    }
}

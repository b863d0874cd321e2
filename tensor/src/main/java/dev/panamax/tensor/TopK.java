package dev.panamax.tensor;

/**
 * The {@code k} largest values along an axis, largest first, and their indices (i64), as PyTorch's
 * {@code topk} returns them.
 *
 * <pre>{@code
 * TopK best = logits.topk(5, -1);       // logits (batch, vocab)
 * Tensor values = best.values();         // (batch, 5), differentiable
 * Tensor tokens = best.indices();        // (batch, 5) i64
 * }</pre>
 *
 * @param values  the values, the axis shortened to {@code k}; gradients flow back to their positions
 * @param indices where each value was along the axis
 */
public record TopK(Tensor values, Tensor indices) {}

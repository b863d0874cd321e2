package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

/**
 * Loss functions, each a mean over the batch.
 *
 * <pre>{@code
 * Tensor loss = Loss.crossEntropy(logits, labels);   // logits (n, classes), labels (n) i64/i32
 * }</pre>
 */
public final class Loss {
    private Loss() {}

    /** Mean cross-entropy of raw scores against class indices (PyTorch's {@code cross_entropy}). */
    public static Tensor crossEntropy(Tensor logits, Tensor labels) {
        return Tensor.crossEntropy(logits, labels);
    }

    /** Mean squared error. */
    public static Tensor mse(Tensor prediction, Tensor target) {
        Tensor d = prediction.sub(target);
        return d.mul(d).mean();
    }
}

package dev.panamax.tensor.spi;

/**
 * The closed set of primitive operations every tensor op lowers to: elementwise (unary, binary,
 * binary with a scalar, where), reduce, matmul, fill, and the two gather/scatter moves behind
 * {@code indexSelect} and embedding gradients, and two fused kernels a training step spends most of
 * its elementwise passes on (an Adam update; softmax with cross-entropy; softmax and its gradient;
 * layer normalization and its gradient; max pooling and its gradient; batch normalization in training
 * and its gradient). Movement ops (reshape, transpose, slice, broadcast)
 * never reach a backend: they are new {@link Operand} strides over the same storage.
 *
 * <p>The frontend has already checked every kernel it sends (shapes, dtypes, indices in range), so
 * a backend may trust them. Output operands never overlap inputs except element for element (an
 * in-place update such as {@code p -= lr * g} writes {@code out == a}); outputs have no zero strides.
 */
public sealed interface Kernel {
    /** Every element of {@code out} set to {@code value} (converted to out's dtype). */
    record Fill(Operand out, double value) implements Kernel {}

    /** out = op(in); same shape (in may have zero strides). */
    record Unary(UnaryOp op, Operand out, Operand in) implements Kernel {}

    /** out = a op b; a and b already broadcast to out's shape, one dtype. */
    record Binary(BinaryOp op, Operand out, Operand a, Operand b) implements Kernel {}

    /** out = a op scalar (scalar converted to a's dtype first); same shape. */
    record BinaryScalar(BinaryOp op, Operand out, Operand a, double scalar) implements Kernel {}

    /** out = cond != 0 ? a : b; all broadcast to out's shape; a, b and out share a dtype. */
    record Where(Operand out, Operand cond, Operand a, Operand b) implements Kernel {}

    /**
     * out = reduce of in along {@code axis}: same rank, {@code out.shape[axis] == 1}, every other
     * dimension equal.
     */
    record Reduce(ReduceOp op, Operand out, Operand in, int axis) implements Kernel {}

    /**
     * Batched matrix product, rank 3: out[B, m, n] = a[B, m, k] x b[B, k, n], floating, one dtype
     * (a batch stride may be 0: one matrix shared by the batch). {@code accumulate} adds to out
     * instead of overwriting it.
     */
    record MatMul(Operand out, Operand a, Operand b, boolean accumulate) implements Kernel {}

    /**
     * out = in with dimension {@code axis} picked by {@code index} (rank 1, I32 or I64, every value in
     * range): {@code out[..., i, ...] = in[..., index[i], ...]}.
     */
    record IndexSelect(Operand out, Operand in, Operand index, int axis) implements Kernel {}

    /**
     * The adjoint of {@link IndexSelect}: {@code out[..., index[i], ...] += src[..., i, ...]},
     * accumulating where an index repeats.
     */
    record IndexAdd(Operand out, Operand index, Operand src, int axis) implements Kernel {}

    /**
     * One Adam (or AdamW) update of a parameter, its two moments and its gradient in one pass, every
     * operand one shape and dtype ({@code param}, {@code m}, {@code v} written in place), with
     * {@code c1 = 1 - beta1^step}, {@code c2 = 1 - beta2^step}:
     * <pre>{@code
     * g = grad + weightDecay * param           (L2, when not decoupled)
     * param *= 1 - lr * weightDecay            (AdamW, when decoupled)
     * m = beta1 * m + (1 - beta1) * g
     * v = beta2 * v + (1 - beta2) * g * g
     * param -= (lr / c1) * m / (sqrt(v / c2) + eps)
     * }</pre>
     *
     * <p>{@code stepScalars}, when not null, is a contiguous f32 operand of three elements that the
     * kernel reads when it runs, in place of {@code lr} and {@code step}: {@code [lr, lr / c1, 1 / c2]}
     * (each computed in double, then rounded to f32, as a kernel rounds {@code lr} and
     * {@code step}'s factors itself). A captured step ({@code StepCapture}) replays the same kernel
     * every step while these values change: the optimizer writes them before each replay.
     */
    record AdamStep(Operand param, Operand grad, Operand m, Operand v, double lr, double beta1, double beta2, double eps,
                    double weightDecay, boolean decoupled, int step, Operand stepScalars) implements Kernel {
        /** An update whose lr and step count are the kernel's own ({@code stepScalars} null). */
        public AdamStep(Operand param, Operand grad, Operand m, Operand v, double lr, double beta1, double beta2, double eps,
                        double weightDecay, boolean decoupled, int step) {
            this(param, grad, m, v, lr, beta1, beta2, eps, weightDecay, decoupled, step, null);
        }

        /** The three step scalars {@code [lr, lr / c1, 1 / c2]} for {@code lr} at step {@code step}, as f32. */
        public static float[] stepScalars(double lr, double beta1, double beta2, int step) {
            double c1 = 1 - Math.pow(beta1, step), c2 = 1 - Math.pow(beta2, step);
            return new float[] {(float) lr, (float) (lr / c1), (float) (1.0 / c2)};
        }
    }

    /**
     * Mean cross-entropy of {@code logits (n, c)} (floating) against integer {@code labels (n)}, every
     * label already checked in {@code [0, c)}: {@code loss} (a one-element scalar) is
     * {@code mean_i(logsumexp(logits[i]) - logits[i, labels[i]])}; when {@code grad} is not null it
     * receives the loss's gradient with respect to the logits, {@code (softmax(logits[i]) - onehot(labels[i])) / n},
     * shaped like the logits.
     */
    record CrossEntropy(Operand loss, Operand grad, Operand logits, Operand labels) implements Kernel {}

    /**
     * Softmax of each row of {@code in (n, c)} (floating) into {@code out (n, c)}, one dtype:
     * {@code out[i, j] = exp(in[i, j] - max_j in[i]) / sum_j exp(in[i, j] - max_j in[i])}, the
     * statistics accumulated in at least f32. A row holding a NaN, or whose every element is -inf,
     * gives NaN throughout, as the same sum of max, subtract, exp, sum and divide kernels does.
     *
     * <p>{@code causalRows}, when above 0, masks each row as causal attention does: the rows are
     * groups of {@code causalRows} queries, and row {@code i} sees the elements {@code j <= i % causalRows}
     * only, the others taken as -inf (their output 0), as a {@code where} of the scores against the
     * mask {@code query >= key} before the softmax would.
     */
    record Softmax(Operand out, Operand in, int causalRows) implements Kernel {
        /** A plain softmax of every element of each row. */
        public Softmax(Operand out, Operand in) {
            this(out, in, 0);
        }
    }

    /**
     * The gradient of {@link Softmax}: from its output {@code y (n, c)} and the gradient reaching it
     * {@code dy (n, c)}, {@code out[i, j] = y[i, j] * (dy[i, j] - sum_k dy[i, k] * y[i, k])}; all
     * three floating, one dtype and shape.
     */
    record SoftmaxGrad(Operand out, Operand y, Operand dy) implements Kernel {}
    /**
     * Layer normalization of each row of {@code in (n, d)} (floating; f16 is normalized in f32 by the
     * frontend): {@code mean[i] = sum_j in[i, j] / d}, {@code rstd[i] = 1 / sqrt(sum_j (in[i, j] - mean[i])^2 / d + eps)}
     * (the biased variance, as PyTorch's {@code layer_norm}), and
     * {@code out[i, j] = (in[i, j] - mean[i]) * rstd[i] * weight[j] + bias[j]}. {@code mean (n)} and
     * {@code rstd (n)} are written for {@link LayerNormGrad}; {@code weight (d)} and {@code bias (d)}
     * are each optional (null: 1 and 0). All operands one dtype; the statistics accumulated in at
     * least f32. A row holding a NaN or an infinity gives NaN throughout, and a constant row with
     * {@code eps = 0} gives NaN (0 / 0), as the composite of mean, subtract, multiply and divide does.
     */
    record LayerNorm(Operand out, Operand mean, Operand rstd, Operand in, Operand weight, Operand bias, double eps) implements Kernel {}

    /**
     * The gradient of {@link LayerNorm} from the gradient {@code dy (n, d)} reaching its output, its
     * input {@code in (n, d)}, the {@code mean (n)} and {@code rstd (n)} it wrote and its optional
     * {@code weight (d)}. With {@code xhat = (in - mean) * rstd} and {@code g = dy * weight} (or
     * {@code dy}): {@code dx[i, j] = rstd[i] * (g[i, j] - mean_k g[i, k] - xhat[i, j] * mean_k (g[i, k] * xhat[i, k]))};
     * {@code dweight[j] = sum_i dy[i, j] * xhat[i, j]} and {@code dbias[j] = sum_i dy[i, j]} when not
     * null (each written whole, not added to). All operands one dtype.
     */
    record LayerNormGrad(Operand dx, Operand dweight, Operand dbias, Operand dy, Operand in, Operand mean, Operand rstd,
            Operand weight) implements Kernel {}

    /**
     * PyTorch's {@code max_pool2d} with {@code return_indices} (ceil_mode off) over {@code in (n, c, h, w)}
     * (floating; f16 goes through f32 in the frontend): for each window of {@code kernelH x kernelW}
     * positions, {@code dilationH x dilationW} apart, starting at {@code (oh * strideH - padH, ow * strideW - padW)},
     * {@code out (n, c, oh, ow)} is its largest element and {@code indices (n, c, oh, ow)} (i64) that
     * element's flat position {@code y * w + x} in its (h, w) plane. Padding counts as -inf and never
     * wins (each window holds at least one position of the input: the frontend keeps the padding at
     * most half the window's span); the first largest wins a tie; a NaN wins over everything, the last
     * NaN of a window over earlier ones (PyTorch's {@code val > max || isnan(val)}); a window of only
     * -inf picks its first position in the input, and a window whose dilated positions all miss the
     * input (a plane narrower than the dilation) gives -inf at position -1.
     */
    record MaxPool2d(Operand out, Operand indices, Operand in, int kernelH, int kernelW, int strideH, int strideW, int padH, int padW,
            int dilationH, int dilationW) implements Kernel {}

    /**
     * The gradient of {@link MaxPool2d}: {@code dx (n, c, h, w)} is zeroed, then each {@code dy (n, c, oh, ow)}
     * element is added at the flat position {@code indices (n, c, oh, ow)} names within its plane (so
     * overlapping windows that pick one element add up; a position of -1 adds nothing). {@code dx} and {@code dy} one floating dtype,
     * {@code indices} i64 as {@link MaxPool2d} wrote them. A backend adds a plane's gradients in a fixed
     * order (no atomics), so the result does not vary from run to run.
     */
    record MaxPool2dGrad(Operand dx, Operand dy, Operand indices) implements Kernel {}

    /**
     * Batch normalization in training of {@code in (n, c, s)} (floating; the frontend views an
     * {@code (n, c, ...)} input so, and normalizes f16 in f32) by each channel's statistics over its
     * {@code n * s} values: {@code mean[k]} and the biased {@code var[k]} are written (summed in at
     * least f32; the frontend moves the running statistics from them), and
     * {@code out[i, k, j] = (in[i, k, j] - mean[k]) / sqrt(var[k] + eps) * weight[k] + bias[k]};
     * {@code weight (c)} and {@code bias (c)} are each optional (null: 1 and 0). All operands one
     * dtype. A channel holding a NaN or an infinity gives NaN throughout it.
     */
    record BatchNorm(Operand out, Operand mean, Operand var, Operand in, Operand weight, Operand bias, double eps) implements Kernel {}

    /**
     * The gradient of {@link BatchNorm} from the gradient {@code dy (n, c, s)} reaching its output,
     * its input {@code in (n, c, s)}, the {@code mean (c)} and {@code var (c)} it wrote, its optional
     * {@code weight (c)} and its {@code eps}. With {@code rstd = 1 / sqrt(var + eps)},
     * {@code xhat = (in - mean) * rstd} and {@code g = dy * weight} (or {@code dy}), over each
     * channel's {@code m = n * s} values: {@code dx = rstd * (g - sum(g) / m - xhat * sum(g * xhat) / m)};
     * {@code dweight[k] = sum dy * xhat} and {@code dbias[k] = sum dy} when not null (each written
     * whole, not added to). All operands one dtype.
     */
    record BatchNormGrad(Operand dx, Operand dweight, Operand dbias, Operand dy, Operand in, Operand mean, Operand var, Operand weight,
            double eps) implements Kernel {}
}

package dev.panamax.bench.tensor;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Gpt;
import dev.panamax.tensor.nn.GptConfig;
import dev.panamax.tensor.nn.KvCache;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.Gradients;

import java.util.SplittableRandom;

/**
 * The transformer demo's model, as {@code peers.py} builds it in PyTorch: a {@link Gpt} of vocabulary
 * 62, context 128, dim 128, 4 heads, 2 layers, trained with AdamW (lr 3e-3, weight decay 0.01, the
 * gradients clipped to global norm 1) on one fixed batch of seeded random token windows, and
 * generating greedily at batch 1 with a key/value cache ({@link #generate}; {@link #generateWithoutCache}
 * runs the whole window again for every token, as PyTorch's side does).
 *
 * <pre>{@code
 * try (var gpt = new GptWorkload(32)) { gpt.step(); gpt.generate(32); }
 * }</pre>
 */
final class GptWorkload implements AutoCloseable {
    /** The demo's shape: vocabulary 62, context 128, dim 128, 4 heads, 2 layers. */
    static final GptConfig CONFIG = new GptConfig(62, 128, 128, 4, 2);
    /** The demo's peak learning rate and AdamW's weight decay. */
    static final double LEARNING_RATE = 3e-3, WEIGHT_DECAY = 0.01;
    /** Tokens of the prompt generation starts from: the forward for the k-th generated token sees {@code PROMPT + k} tokens (at most the context). */
    static final int PROMPT = 96;

    private final Gpt gpt;
    private final Adam adam;
    private final Tensor inputs;
    private final Tensor targets;
    private final long[] prompt;

    /** A model and one batch of {@code batch} windows of the full context. */
    GptWorkload(int batch) {
        if (batch < 1) throw new IllegalArgumentException("GptWorkload(batch=" + batch + "): expected at least 1 window per batch");
        var rng = new SplittableRandom(3);
        gpt = TensorScope.unscoped(() -> new Gpt(CONFIG, rng));
        adam = TensorScope.unscoped(() -> Adam.w(gpt.parameters(), LEARNING_RATE, WEIGHT_DECAY));
        int t = CONFIG.contextLength(), v = CONFIG.vocabSize();
        long[] in = new long[batch * t], out = new long[batch * t];
        for (int i = 0; i < in.length; i++) {
            in[i] = rng.nextInt(v);
            out[i] = rng.nextInt(v);
        }
        inputs = TensorScope.unscoped(() -> Tensor.of(in, batch, t));
        targets = TensorScope.unscoped(() -> Tensor.of(out, batch, t));
        prompt = new long[PROMPT];
        for (int i = 0; i < PROMPT; i++) prompt[i] = rng.nextInt(v);
    }

    /** One training step in a scope of its own: forward, cross-entropy, backward, clipping, AdamW; the loss read. */
    double step() {
        try (var _ = TensorScope.open()) {
            return stepBody().item();
        }
    }

    /** The step without the loss read, in the caller's scope (what a {@code StepCapture} records); returns the loss. */
    Tensor stepBody() {
        Tensor logits = gpt.forward(inputs);
        Tensor loss = Tensor.crossEntropy(logits.reshape(-1, CONFIG.vocabSize()), targets.reshape(-1));
        adam.zeroGrad();
        loss.backward();
        Gradients.clipByGlobalNorm(gpt.parameters(), 1.0);
        adam.step();
        return loss;
    }

    /**
     * Generates {@code count} tokens after the prompt at batch 1, greedily (the last position's
     * argmax), with a key/value cache ({@link Gpt#forwardIncremental}): the first token runs the
     * prompt's positions, each later one only its own position against the cached keys and values
     * (once the window would slide past the context length, the cache restarts from the window, as
     * the demo does); returns the last token. The cache is made per call, inside the timing.
     */
    long generate(int count) {
        if (count < 1) throw new IllegalArgumentException("GptWorkload.generate(count=" + count + "): expected at least 1 token");
        int context = CONFIG.contextLength(), v = CONFIG.vocabSize();
        long[] tokens = java.util.Arrays.copyOf(prompt, PROMPT + count);
        try (var _ = Autograd.noGrad(); KvCache cache = gpt.newCache(1)) {
            int cacheStart = 0;                // tokens[cacheStart + p] sits at cached position p
            for (int i = PROMPT; i < tokens.length; i++) {
                int from = Math.max(0, i - context);
                if (from != cacheStart) {
                    cache.clear();
                    cacheStart = from;
                }
                long[] fresh = java.util.Arrays.copyOfRange(tokens, cacheStart + cache.length(), i);
                try (var _ = TensorScope.open()) {
                    Tensor logits = gpt.forwardIncremental(Tensor.of(fresh, 1, fresh.length), cache)
                            .slice(1, fresh.length - 1, fresh.length).reshape(v);
                    tokens[i] = logits.argmax(0).toLongArray()[0];
                }
            }
        }
        return tokens[tokens.length - 1];
    }

    /**
     * {@link #generate} without the cache: each token runs the model over the whole window so far
     * (what PyTorch's side does); the same tokens, up to float rounding.
     */
    long generateWithoutCache(int count) {
        if (count < 1) throw new IllegalArgumentException("GptWorkload.generateWithoutCache(count=" + count + "): expected at least 1 token");
        int context = CONFIG.contextLength(), v = CONFIG.vocabSize();
        long[] tokens = java.util.Arrays.copyOf(prompt, PROMPT + count);
        try (var _ = Autograd.noGrad()) {
            for (int i = PROMPT; i < tokens.length; i++) {
                int from = Math.max(0, i - context);
                long[] window = java.util.Arrays.copyOfRange(tokens, from, i);
                try (var _ = TensorScope.open()) {
                    Tensor logits = gpt.forward(Tensor.of(window, 1, window.length)).slice(1, window.length - 1, window.length).reshape(v);
                    tokens[i] = logits.argmax(0).toLongArray()[0];
                }
            }
        }
        return tokens[tokens.length - 1];
    }

    @Override
    public void close() {
        adam.zeroGrad();
        adam.close();
        gpt.close();
        inputs.close();
        targets.close();
    }
}

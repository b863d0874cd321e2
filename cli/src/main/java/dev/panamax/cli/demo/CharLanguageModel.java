package dev.panamax.cli.demo;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Gpt;
import dev.panamax.tensor.nn.GptConfig;
import dev.panamax.tensor.nn.KvCache;
import dev.panamax.tensor.nn.Module;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A character-level language model: a {@link Gpt} over a vocabulary of Unicode code points. The
 * vocabulary is a buffer ({@code vocabulary}, int32 code points, ascending), so a checkpoint holds
 * the characters its token ids stand for beside the weights.
 */
final class CharLanguageModel implements Module {
    static final String VOCABULARY = "vocabulary";

    final Gpt gpt;
    private final Tensor vocabulary;

    CharLanguageModel(GptConfig config, int[] vocabulary, RandomGenerator rng) {
        if (vocabulary.length != config.vocabSize()) {
            throw new IllegalArgumentException("vocabulary of " + vocabulary.length + " characters for vocabSize=" + config.vocabSize());
        }
        this.gpt = TensorScope.unscoped(() -> new Gpt(config, rng));
        this.vocabulary = TensorScope.unscoped(() -> Tensor.of(vocabulary, vocabulary.length));
    }

    GptConfig config() {
        return gpt.config();
    }

    @Override
    public Tensor forward(Tensor ids) {
        return gpt.forward(ids);
    }

    /** Mean cross-entropy (nats per character) of predicting {@code targets (N, T)} from {@code inputs (N, T)}. */
    Tensor loss(Tensor inputs, Tensor targets) {
        Tensor logits = gpt.forward(inputs);
        return Tensor.crossEntropy(logits.reshape(-1, config().vocabSize()), targets.reshape(-1));
    }

    /**
     * Continues {@code prompt} by {@code count} tokens, each drawn from the softmax of the last
     * position's logits divided by {@code temperature}, among the {@code topK} likeliest (0: all),
     * given the last context window of tokens. A key/value cache makes each new token cost one
     * position while the window still starts where the cache does; once the window slides past the
     * context length, the cache restarts from the window (a full pass, as the positions shift).
     */
    int[] generate(int[] prompt, int count, double temperature, int topK, RandomGenerator rng) {
        int context = config().contextLength(), v = config().vocabSize();
        int[] tokens = Arrays.copyOf(prompt, prompt.length + count);
        try (var _ = Autograd.noGrad(); KvCache cache = gpt.newCache(1)) {
            int cacheStart = 0;                // tokens[cacheStart + p] sits at cached position p
            for (int i = prompt.length; i < tokens.length; i++) {
                int from = Math.max(0, i - context);
                if (from != cacheStart) {
                    cache.clear();
                    cacheStart = from;
                }
                int first = cacheStart + cache.length();
                long[] fresh = new long[i - first];
                for (int j = first; j < i; j++) fresh[j - first] = tokens[j];
                try (var _ = TensorScope.open()) {
                    Tensor logits = gpt.forwardIncremental(Tensor.of(fresh, 1, fresh.length), cache)
                            .slice(1, fresh.length - 1, fresh.length).reshape(v).div(temperature);
                    tokens[i] = sample(logits, topK, rng);
                }
            }
        }
        return Arrays.copyOfRange(tokens, prompt.length, tokens.length);
    }

    /**
     * {@link #generate} without a cache: each token runs the model over the whole last context
     * window again. Draws the same tokens from the same {@code rng}, up to float rounding.
     */
    int[] generateWithoutCache(int[] prompt, int count, double temperature, int topK, RandomGenerator rng) {
        int context = config().contextLength(), v = config().vocabSize();
        int[] tokens = Arrays.copyOf(prompt, prompt.length + count);
        try (var _ = Autograd.noGrad()) {
            for (int i = prompt.length; i < tokens.length; i++) {
                int from = Math.max(0, i - context);
                long[] window = new long[i - from];
                for (int j = from; j < i; j++) window[j - from] = tokens[j];
                try (var _ = TensorScope.open()) {
                    Tensor logits = gpt.forward(Tensor.of(window, 1, window.length)).slice(1, window.length - 1, window.length)
                            .reshape(v).div(temperature);
                    tokens[i] = sample(logits, topK, rng);
                }
            }
        }
        return Arrays.copyOfRange(tokens, prompt.length, tokens.length);
    }

    /** A token drawn from the softmax of {@code logits (vocab)}, among the {@code topK} likeliest (0: all). */
    private int sample(Tensor logits, int topK, RandomGenerator rng) {
        int v = config().vocabSize();
        if (topK > 0 && topK < v) {
            var top = logits.topk(topK, 0);
            int pick = (int) Tensor.multinomial(top.values().softmax(0), 1, rng).toLongArray()[0];
            return (int) top.indices().toLongArray()[pick];
        }
        return (int) Tensor.multinomial(logits.softmax(0), 1, rng).toLongArray()[0];
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        return gpt.namedParameters();
    }

    @Override
    public Map<String, Tensor> namedBuffers() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put(VOCABULARY, vocabulary);
        return m;
    }
}

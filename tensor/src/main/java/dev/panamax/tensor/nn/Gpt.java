package dev.panamax.tensor.nn;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A GPT-style decoder-only language model: token and learned position embeddings (normal, std 0.02),
 * {@link GptConfig#layers()} pre-LayerNorm {@link TransformerBlock}s, a final LayerNorm and an untied
 * linear head giving one logit per token of the vocabulary. Parameters are named
 * {@code tokens.weight}, {@code positions.weight}, {@code blocks.<i>.*}, {@code ln_f.*} and {@code head.weight}.
 *
 * <pre>{@code
 * var gpt = new Gpt(new GptConfig(65, 128, 128, 4, 4), new SplittableRandom(0));
 * Tensor logits = gpt.forward(ids);   // ids (N, T) integers, T <= 128 -> (N, T, 65)
 * }</pre>
 */
public final class Gpt implements Module {
    private final GptConfig config;
    private final Tensor tokens;
    private final Tensor positions;
    private final List<TransformerBlock> blocks;
    private final LayerNorm lnF;
    private final Linear head;

    public Gpt(GptConfig config, RandomGenerator rng) {
        this.config = config;
        this.tokens = Parameters.normal(rng, 0.02, config.vocabSize(), config.dim());
        this.positions = Parameters.normal(rng, 0.02, config.contextLength(), config.dim());
        List<TransformerBlock> b = new ArrayList<>();
        for (int i = 0; i < config.layers(); i++) b.add(new TransformerBlock(config.dim(), config.heads(), rng));
        this.blocks = List.copyOf(b);
        this.lnF = new LayerNorm(config.dim());
        this.head = new Linear(config.dim(), config.vocabSize(), false, rng);
    }

    public GptConfig config() {
        return config;
    }

    /** Token ids {@code (N, T)} (integers below the vocabulary size, {@code T} at most the context length) to logits {@code (N, T, vocab)}. */
    @Override
    public Tensor forward(Tensor ids) {
        if (ids.rank() != 2 || ids.dtype().isFloating() || ids.dim(1) < 1 || ids.dim(1) > config.contextLength()) {
            throw new TensorException("Gpt", "ids " + ids.shape() + " " + ids.dtype().label() + "; expected integer token ids (N, T) with 1 <= T <= "
                    + config.contextLength());
        }
        int n = ids.dim(0), t = ids.dim(1), e = config.dim();
        Tensor x = tokens.indexSelect(0, ids.reshape(-1)).reshape(n, t, e).add(positions.slice(0, 0, t));
        for (TransformerBlock block : blocks) x = block.forward(x);
        Tensor rows = lnF.forward(x).reshape(-1, e);
        return head.forward(rows).reshape(n, t, config.vocabSize());
    }

    /**
     * A key/value cache for decoding {@code batch} sequences with {@link #forwardIncremental}, on
     * this model's backend; the caller closes it.
     */
    public KvCache newCache(int batch) {
        return new KvCache(config, batch, tokens.dtype(), tokens.backend());
    }

    /**
     * Logits {@code (N, T, vocab)} of token ids {@code (N, T)} placed at positions
     * {@code cache.length()} onward, attending to the positions already in {@code cache}, to which
     * it adds these: the same logits as {@link #forward} of the whole sequence at those positions,
     * at the cost of the new positions only. Records no gradient. When the cache is full (the
     * context length), {@link KvCache#clear() clear} it and decode the last window again.
     */
    public Tensor forwardIncremental(Tensor ids, KvCache cache) {
        String op = "Gpt.forwardIncremental";
        if (cache == null || cache.config() != config && !cache.config().equals(config)) {
            throw new TensorException(op, "cache " + (cache == null ? "null" : "for " + cache.config()) + "; expected one from newCache of this "
                    + config);
        }
        if (ids.rank() != 2 || ids.dtype().isFloating() || ids.dim(0) != cache.batch() || ids.dim(1) < 1) {
            throw new TensorException(op, "ids " + ids.shape() + " " + ids.dtype().label() + "; expected integer token ids (" + cache.batch()
                    + ", T) with T >= 1 (the cache's batch)");
        }
        if (dev.panamax.tensor.StepCapture.isCapturing()) {
            throw new TensorException(op, "cannot be captured by StepCapture: the KvCache's position is Java state a replay would"
                    + " not advance; capture a forward over a fixed window instead, or decode eagerly");
        }
        int n = ids.dim(0), t = ids.dim(1), e = config.dim(), start = cache.length();
        cache.checkRoom(op, t);
        try (var _ = Autograd.noGrad()) {
            Tensor x = tokens.indexSelect(0, ids.reshape(-1)).reshape(n, t, e).add(positions.slice(0, start, start + t));
            for (int i = 0; i < blocks.size(); i++) x = blocks.get(i).forwardIncremental(x, cache.keys(i), cache.values(i), start);
            cache.advance(t);
            Tensor rows = lnF.forward(x).reshape(-1, e);
            return head.forward(rows).reshape(n, t, config.vocabSize());
        }
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> m = new LinkedHashMap<>();
        m.put("tokens.weight", tokens);
        m.put("positions.weight", positions);
        for (int i = 0; i < blocks.size(); i++) TransformerBlock.put(m, "blocks." + i + ".", blocks.get(i));
        TransformerBlock.put(m, "ln_f.", lnF);
        TransformerBlock.put(m, "head.", head);
        return m;
    }
}

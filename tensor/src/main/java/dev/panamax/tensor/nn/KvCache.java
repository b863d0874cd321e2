package dev.panamax.tensor.nn;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.spi.Backend;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys and values a {@link Gpt}'s attention layers computed for the positions decoded so far,
 * so that {@link Gpt#forwardIncremental} runs only the new positions. Each layer holds a key and a
 * value tensor of {@code (batch, contextLength, dim)}, allocated once (outside any tensor scope, on
 * the model's backend) and written in place; positions {@code 0..length()-1} are filled.
 * Close it to free them.
 *
 * <pre>{@code
 * try (var off = Autograd.noGrad(); KvCache cache = gpt.newCache(1)) {
 *     Tensor first = gpt.forwardIncremental(promptIds, cache);   // (1, P) -> (1, P, vocab)
 *     Tensor next = gpt.forwardIncremental(nextId, cache);       // (1, 1) at position P -> (1, 1, vocab)
 * }
 * }</pre>
 */
public final class KvCache implements AutoCloseable {
    private final GptConfig config;
    private final int batch;
    private final List<Tensor> keys;
    private final List<Tensor> values;
    private int length;

    KvCache(GptConfig config, int batch, DType dtype, Backend backend) {
        if (batch < 1) throw new IllegalArgumentException("KvCache(batch=" + batch + "): expected at least one sequence");
        this.config = config;
        this.batch = batch;
        List<Tensor> k = new ArrayList<>(), v = new ArrayList<>();
        TensorScope.unscoped(() -> {
            try (var _ = Backends.using(backend)) {
                for (int layer = 0; layer < config.layers(); layer++) {
                    k.add(Tensor.zeros(dtype, batch, config.contextLength(), config.dim()));
                    v.add(Tensor.zeros(dtype, batch, config.contextLength(), config.dim()));
                }
            }
            return null;
        });
        this.keys = List.copyOf(k);
        this.values = List.copyOf(v);
    }

    /** Positions filled so far: the next {@link Gpt#forwardIncremental} starts at this position. */
    public int length() {
        return length;
    }

    /** Positions the cache holds at most: the model's context length. */
    public int capacity() {
        return config.contextLength();
    }

    /** Sequences decoded side by side. */
    public int batch() {
        return batch;
    }

    /** Forgets every position (the memory stays allocated): the next decode starts at position 0. */
    public void clear() {
        length = 0;
    }

    GptConfig config() {
        return config;
    }

    /** Layer {@code layer}'s keys, {@code (batch, contextLength, dim)}. */
    Tensor keys(int layer) {
        return keys.get(layer);
    }

    /** Layer {@code layer}'s values, {@code (batch, contextLength, dim)}. */
    Tensor values(int layer) {
        return values.get(layer);
    }

    /** Checks that {@code count} more positions fit. */
    void checkRoom(String op, int count) {
        if (length + count > capacity()) {
            throw new TensorException(op, "cache holds " + length + " of " + capacity() + " positions; " + count
                    + " more do not fit (clear it and decode the last window again)");
        }
    }

    void advance(int count) {
        length += count;
    }

    @Override
    public void close() {
        for (Tensor t : keys) t.close();
        for (Tensor t : values) t.close();
    }
}

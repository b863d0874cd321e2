package dev.panamax.tensor.nn;

import dev.panamax.tensor.Tensor;

import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A table of {@code count} vectors of {@code dim} values (normal(0, 1), as PyTorch); looks up
 * integer ids of any shape, giving {@code ids.shape + (dim)}.
 */
public final class Embedding implements Module {
    private final Tensor weight;

    public Embedding(int count, int dim, RandomGenerator rng) {
        this.weight = Parameters.normal(rng, 1, count, dim);
    }

    @Override
    public Tensor forward(Tensor ids) {
        int[] dims = java.util.Arrays.copyOf(ids.dims(), ids.rank() + 1);
        dims[ids.rank()] = weight.dim(1);
        return weight.indexSelect(0, ids.reshape(-1)).reshape(dims);
    }

    public Tensor weight() {
        return weight;
    }

    @Override
    public Map<String, Tensor> namedParameters() {
        return Map.of("weight", weight);
    }
}

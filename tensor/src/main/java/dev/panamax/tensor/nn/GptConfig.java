package dev.panamax.tensor.nn;

/**
 * The shape of a {@link Gpt}: {@code vocabSize} tokens, at most {@code contextLength} positions,
 * {@code dim} features split into {@code heads} attention heads, {@code layers} transformer blocks.
 */
public record GptConfig(int vocabSize, int contextLength, int dim, int heads, int layers) {
    public GptConfig {
        if (vocabSize < 1 || contextLength < 1 || dim < 1 || heads < 1 || layers < 1 || dim % heads != 0) {
            throw new IllegalArgumentException("GptConfig(vocabSize=" + vocabSize + ", contextLength=" + contextLength + ", dim=" + dim
                    + ", heads=" + heads + ", layers=" + layers + "): expected positive sizes, dim divisible by heads");
        }
    }

    /** Trainable values: embeddings, blocks, final norm and output head. */
    public long parameterCount() {
        long block = 4L * dim + (3L * dim * dim + 3L * dim) + (dim * (long) dim + dim) + (4L * dim * dim + 4L * dim) + (4L * dim * dim + dim);
        return (long) vocabSize * dim + (long) contextLength * dim + layers * block + 2L * dim + (long) vocabSize * dim;
    }
}

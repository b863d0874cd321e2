package dev.panamax.cli.demo;

/**
 * How the demo trains: {@code steps} Adam steps at {@code learningRate} on batches of
 * {@code batchSize} training rows, an MLP with two hidden layers of {@code hidden} units (ReLU),
 * validation accuracy measured {@code evaluations} times along the way, everything seeded.
 */
public record TrainingSettings(int steps, int batchSize, int hidden, double learningRate, long seed, int evaluations) {
    public TrainingSettings {
        if (steps < 1) throw new IllegalArgumentException("steps=" + steps + ": expected at least 1");
        if (batchSize < 1) throw new IllegalArgumentException("batch size=" + batchSize + ": expected at least 1");
        if (hidden < 1) throw new IllegalArgumentException("hidden units=" + hidden + ": expected at least 1");
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("learning rate=" + learningRate + ": expected a finite value > 0");
        }
        if (evaluations < 1) throw new IllegalArgumentException("evaluations=" + evaluations + ": expected at least 1");
    }
}

package dev.panamax.cli.demo;

/**
 * How the transformer demo trains: {@code steps} AdamW steps on batches of {@code batchSize}
 * random windows of the training text, the learning rate warming up over {@code warmupSteps} to
 * {@code learningRate} and decaying on a cosine to a tenth of it, gradients clipped to a global norm of 1,
 * a sample of {@code sampleLength} characters at temperature {@code temperature} (among the
 * {@code topK} likeliest; 0: all) every {@code sampleEvery} steps (0: only at the end); each step
 * captured and replayed ({@code StepCapture}) unless {@code eager}.
 */
record TextTrainingSettings(int steps, int batchSize, double learningRate, int warmupSteps, int sampleEvery, int sampleLength,
                            double temperature, int topK, boolean eager) {
    TextTrainingSettings {
        if (steps < 0) throw new IllegalArgumentException("--steps=" + steps + ": expected 0 or more");
        if (batchSize < 1) throw new IllegalArgumentException("--batch=" + batchSize + ": expected at least 1");
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("--lr=" + learningRate + ": expected a finite value > 0");
        }
        if (sampleEvery < 0) throw new IllegalArgumentException("--sample-every=" + sampleEvery + ": expected 0 or more");
        if (sampleLength < 0) throw new IllegalArgumentException("--sample-length=" + sampleLength + ": expected 0 or more");
        if (!(temperature > 0) || Double.isInfinite(temperature)) {
            throw new IllegalArgumentException("--temperature=" + temperature + ": expected a finite value > 0");
        }
        if (topK < 0) throw new IllegalArgumentException("--top-k=" + topK + ": expected 0 (all) or more");
    }
}

package dev.panamax.cli.demo;

/**
 * What a training run produced: the model, the loss of every step, the validation accuracy at
 * {@code evaluatedAt} steps, and the seconds spent in training steps (evaluations excluded).
 */
record TrainingRun(Classifier classifier, double[] losses, int[] evaluatedAt, double[] accuracies, double trainingSeconds)
        implements AutoCloseable {
    /** The validation accuracy at the end. */
    double finalAccuracy() {
        return accuracies[accuracies.length - 1];
    }

    /** Training steps per second. */
    double stepsPerSecond() {
        return losses.length / trainingSeconds;
    }

    /** Frees the model's parameters. */
    @Override
    public void close() {
        classifier.close();
    }
}

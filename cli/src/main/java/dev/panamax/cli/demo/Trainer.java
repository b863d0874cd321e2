package dev.panamax.cli.demo;

import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.data.DataLoader;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.optim.Adam;

import java.util.Iterator;
import java.util.SplittableRandom;

/**
 * Trains a {@link Classifier} on the training rows with Adam, one {@link TensorScope} per step (so
 * each step's intermediates are freed when it ends), measuring validation accuracy along the way.
 *
 * <pre>{@code
 * LabeledData.Split split = LabeledData.spirals(0).split(0.2, 0);
 * try (TrainingRun run = Trainer.train(split, settings, TrainingListener.NONE)) { ... }
 * }</pre>
 */
final class Trainer {
    /** Mixed into the seed so the weights and batches draw from streams of their own, not the data's. */
    static final long SEED_SALT = 0x7EA1_17B0_0057L;

    private Trainer() {}

    static TrainingRun train(LabeledData.Split split, TrainingSettings s, TrainingListener listener) {
        LabeledData train = split.train(), validation = split.validation();
        // one stream for the initial weights, another for the order of the batches
        var seeds = new SplittableRandom(s.seed() ^ SEED_SALT);
        Standardizer standardizer = Standardizer.of(train);
        Classifier classifier = new Classifier(train.d(), s.hidden(), train.classes(), standardizer, seeds.split());
        double[] losses = new double[s.steps()];
        int[] evaluatedAt = new int[s.evaluations()];
        double[] accuracies = new double[s.evaluations()];
        long stepNanos = 0;
        try (var _ = TensorScope.open();
             Adam adam = TensorScope.unscoped(() -> new Adam(classifier.model.parameters(), s.learningRate()))) {
            Tensor x = Tensor.of(standardizer.apply(train.x()), train.n(), train.d());
            Tensor y = train.labels();
            DataLoader loader = new DataLoader(x, y, Math.min(s.batchSize(), train.n()), seeds.split());
            Iterator<DataLoader.Batch> batches = loader.iterator();
            int evaluation = 0;
            for (int step = 1; step <= s.steps(); step++) {
                if (!batches.hasNext()) batches = loader.iterator();
                DataLoader.Batch batch = batches.next();
                long t0 = System.nanoTime();
                double loss;
                try (var _ = TensorScope.open()) {
                    Tensor l = Loss.crossEntropy(classifier.model.forward(batch.input()), batch.target());
                    adam.zeroGrad();
                    l.backward();
                    adam.step();
                    loss = l.item();
                }
                stepNanos += System.nanoTime() - t0;
                losses[step - 1] = loss;
                listener.stepDone(step, loss);
                // evaluations spread evenly, the last one after the last step
                if (evaluation < s.evaluations() && step >= (long) s.steps() * (evaluation + 1) / s.evaluations()) {
                    double accuracy = classifier.accuracy(validation);
                    evaluatedAt[evaluation] = step;
                    accuracies[evaluation++] = accuracy;
                    listener.evaluated(step, accuracy);
                }
            }
            adam.zeroGrad();
        } catch (RuntimeException | Error e) {
            classifier.close();
            throw e;
        }
        return new TrainingRun(classifier, losses, evaluatedAt, accuracies, stepNanos / 1e9);
    }
}

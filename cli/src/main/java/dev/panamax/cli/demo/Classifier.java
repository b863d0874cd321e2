package dev.panamax.cli.demo;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;

import java.util.random.RandomGenerator;

/**
 * The demo's model: an MLP {@code d -> hidden -> hidden -> classes} with ReLU, fed standardized
 * features. Owns its parameters until {@link #close()}.
 */
final class Classifier implements AutoCloseable {
    /** Rows per forward pass when predicting many points (the plot's grid). */
    private static final int CHUNK = 4096;

    final Module model;
    final Standardizer standardizer;
    final int features;
    final int classes;

    Classifier(int features, int hidden, int classes, Standardizer standardizer, RandomGenerator rng) {
        this.model = TensorScope.unscoped(() -> {
            // layer by layer, so a layer too big for memory (or for a tensor) frees the ones made before it
            java.util.List<Linear> made = new java.util.ArrayList<>();
            try {
                made.add(new Linear(features, hidden, rng));
                made.add(new Linear(hidden, hidden, rng));
                made.add(new Linear(hidden, classes, rng));
            } catch (RuntimeException | Error e) {
                for (Linear l : made) l.close();
                throw e;
            }
            return new Sequential(made.get(0), new ReLU(), made.get(1), new ReLU(), made.get(2));
        });
        this.standardizer = standardizer;
        this.features = features;
        this.classes = classes;
    }

    /** {@code features -> hidden -> hidden -> classes}. */
    String describe(int hidden) {
        return "MLP " + features + "-" + hidden + "-" + hidden + "-" + classes + " (ReLU)";
    }

    /** The predicted class of each of the {@code x.length / features} rows of raw (not standardized) features. */
    int[] predict(float[] x) {
        int n = x.length / features;
        int[] out = new int[n];
        float[] standardized = standardizer.apply(x);
        for (int start = 0; start < n; start += CHUNK) {
            int rows = Math.min(CHUNK, n - start);
            float[] chunk = new float[rows * features];
            System.arraycopy(standardized, start * features, chunk, 0, chunk.length);
            try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
                int[] predicted = model.forward(Tensor.of(chunk, rows, features)).argmax(1).toIntArray();
                System.arraycopy(predicted, 0, out, start, rows);
            }
        }
        return out;
    }

    /** The fraction of {@code data}'s rows predicted right. */
    double accuracy(LabeledData data) {
        int[] predicted = predict(data.x());
        long right = 0;
        for (int i = 0; i < predicted.length; i++) if (predicted[i] == data.y()[i]) right++;
        return (double) right / predicted.length;
    }

    @Override
    public void close() {
        model.close();
    }
}

package dev.panamax.bench.tensor;

import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;

import java.util.SplittableRandom;

/**
 * The tensor suite's spiral training step on Panamax, as PyTorch's side runs it: 2->256->256->3 with
 * ReLU, batches of 256, cross-entropy from logits, backward, Adam (lr 1e-3). The batches are fixed
 * random points with random labels: the step's cost does not depend on what the points are.
 */
final class SpiralStep implements AutoCloseable {
    private final Sequential model;
    private final Adam adam;
    private final Tensor x;
    private final Tensor y;

    SpiralStep() {
        var rng = new SplittableRandom(1);
        model = new Sequential(new Linear(2, 256, rng), new ReLU(), new Linear(256, 256, rng), new ReLU(), new Linear(256, 3, rng));
        adam = new Adam(model.parameters(), 1e-3);
        float[] points = new float[256 * 2];
        long[] labels = new long[256];
        for (int i = 0; i < points.length; i++) points[i] = (float) rng.nextDouble(-1, 1);
        for (int i = 0; i < labels.length; i++) labels[i] = rng.nextInt(3);
        x = TensorScope.unscoped(() -> Tensor.of(points, 256, 2));
        y = TensorScope.unscoped(() -> Tensor.of(labels, 256));
    }

    /** One training step; its intermediates are freed when it ends. */
    void step() {
        try (var _ = TensorScope.open()) {
            step(x, y);
        }
    }

    /** The step's body on the batch {@code x}, {@code y}, in the caller's scope (what a capture records); returns the loss. */
    Tensor step(Tensor x, Tensor y) {
        Tensor loss = Loss.crossEntropy(model.forward(x), y);
        adam.zeroGrad();
        loss.backward();
        adam.step();
        return loss;
    }

    /** The fixed batch's points. */
    Tensor x() {
        return x;
    }

    /** The fixed batch's labels. */
    Tensor y() {
        return y;
    }

    /** The loss now (a read: everything recorded runs). */
    double loss() {
        try (var _ = TensorScope.open()) {
            return Loss.crossEntropy(model.forward(x), y).item();
        }
    }

    @Override
    public void close() {
        adam.zeroGrad();
        adam.close();
        model.close();
        x.close();
        y.close();
    }
}

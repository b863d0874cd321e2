package dev.panamax.bench.tensor;

import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.BatchNorm2d;
import dev.panamax.tensor.nn.Conv2d;
import dev.panamax.tensor.nn.Flatten;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.MaxPool2d;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;

import java.util.SplittableRandom;

/**
 * A training step of the CNN demo's model, as {@code peers.py} runs it in PyTorch:
 * conv3x3(1->8)-batchnorm-ReLU-maxpool2, conv3x3(8->16)-batchnorm-ReLU-maxpool2, linear(256->4) on
 * 16x16 one-channel images, cross-entropy, backward, Adam (lr 0.01), in training mode (batch
 * statistics). The batch is seeded random images and labels.
 *
 * <pre>{@code
 * try (var cnn = new CnnStep(32)) { cnn.step(); }
 * }</pre>
 */
final class CnnStep implements AutoCloseable {
    /** The demo's image side and number of shapes. */
    static final int SIZE = 16, CLASSES = 4;

    private final Sequential model;
    private final Adam adam;
    private final Tensor x;
    private final Tensor y;

    CnnStep(int batch) {
        if (batch < 1) throw new IllegalArgumentException("CnnStep(batch=" + batch + "): expected at least 1 image per batch");
        var rng = new SplittableRandom(4);
        model = TensorScope.unscoped(() -> new Sequential(
                new Conv2d(1, 8, 3, 1, 1, rng), new BatchNorm2d(8), new ReLU(), new MaxPool2d(2),
                new Conv2d(8, 16, 3, 1, 1, rng), new BatchNorm2d(16), new ReLU(), new MaxPool2d(2),
                new Flatten(), new Linear(16 * 4 * 4, CLASSES, rng)));
        model.setTraining(true);
        adam = TensorScope.unscoped(() -> new Adam(model.parameters(), 0.01));
        float[] pixels = new float[batch * SIZE * SIZE];
        long[] labels = new long[batch];
        for (int i = 0; i < pixels.length; i++) pixels[i] = (float) rng.nextGaussian();
        for (int i = 0; i < batch; i++) labels[i] = rng.nextInt(CLASSES);
        x = TensorScope.unscoped(() -> Tensor.of(pixels, batch, 1, SIZE, SIZE));
        y = TensorScope.unscoped(() -> Tensor.of(labels, batch));
    }

    /** One step in a scope of its own, the loss read at the end (as PyTorch's side reads it). */
    double step() {
        try (var _ = TensorScope.open()) {
            return stepBody().item();
        }
    }

    /** The step without the loss read, in the caller's scope (what a {@code StepCapture} records); returns the loss. */
    Tensor stepBody() {
        Tensor loss = Tensor.crossEntropy(model.forward(x), y);
        adam.zeroGrad();
        loss.backward();
        adam.step();
        return loss;
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

package dev.panamax.bench.tensor;

import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A training step of an MLP of any layer sizes on one fixed batch, as {@code peers.py} runs it in
 * PyTorch: ReLU between the layers, cross-entropy from logits, backward, Adam (lr 1e-3). The batch
 * is seeded random inputs and labels (the step's cost does not depend on the values).
 *
 * <pre>{@code
 * try (var big = new MlpStep(1024, 784, 1024, 1024, 10)) { big.step(); }
 * }</pre>
 */
final class MlpStep implements AutoCloseable {
    private final Module model;
    private final Adam adam;
    private final Tensor x;
    private final Tensor y;

    /** {@code sizes[0]} inputs, then each layer's outputs; {@code batch} rows per step. */
    MlpStep(int batch, int... sizes) {
        var rng = new SplittableRandom(1);
        List<Module> layers = new ArrayList<>();
        for (int i = 0; i + 1 < sizes.length; i++) {
            if (i > 0) layers.add(new ReLU());
            layers.add(new Linear(sizes[i], sizes[i + 1], rng));
        }
        model = TensorScope.unscoped(() -> new Sequential(layers.toArray(Module[]::new)));
        adam = TensorScope.unscoped(() -> new Adam(model.parameters(), 1e-3));
        int in = sizes[0], classes = sizes[sizes.length - 1];
        float[] points = new float[batch * in];
        long[] labels = new long[batch];
        for (int i = 0; i < points.length; i++) points[i] = (float) rng.nextGaussian();
        for (int i = 0; i < labels.length; i++) labels[i] = rng.nextInt(classes);
        x = TensorScope.unscoped(() -> Tensor.of(points, batch, in));
        y = TensorScope.unscoped(() -> Tensor.of(labels, batch));
    }

    /** One step in a scope of its own, the loss read at the end (as PyTorch's side reads it). */
    double step() {
        try (var _ = TensorScope.open()) {
            return unscopedStep();
        }
    }

    /** One step with no scope: its intermediates are left to the GC. */
    double unscopedStep() {
        Tensor loss = Loss.crossEntropy(model.forward(x), y);
        adam.zeroGrad();
        loss.backward();
        adam.step();
        return loss.item();
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

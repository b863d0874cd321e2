package dev.panamax.cli.demo;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Backends;
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
import dev.panamax.tensor.spi.Backend;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * {@code panamax demo cnn}: a small convolutional network (conv, batch norm, ReLU, max pooling,
 * twice, then a linear layer) learns to tell procedurally drawn shapes apart ({@link ShapeImages}),
 * in a few seconds; prints the validation accuracy.
 */
@Command(name = "cnn", sortOptions = false, description = {
        "Train a small CNN on generated pictures of shapes (conv2d, batch norm, max pooling, linear).",
        "Square, circle, triangle and cross outlines of random size and place in 16x16 images; prints validation accuracy."})
public final class CnnDemoCommand implements Callable<Integer> {
    @Option(names = "--steps", paramLabel = "N", defaultValue = "60", description = "Training steps (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "32", description = "Images per batch (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--backend", paramLabel = "NAME", description = "Tensor backend: reference, cpu or opencl. Default: the best available.")
    String backend;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed of the images, weights and batches (default: ${DEFAULT-VALUE}).")
    long seed;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (steps < 1 || batch < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--steps=" + steps + " --batch=" + batch + ": expected at least 1 each");
        }
        Backend selected;
        try {
            String unavailable = backend == null ? null : DemoOptions.unavailable(backend);
            if (unavailable != null) {
                System.err.println("panamax demo cnn: " + unavailable);
                return 1;
            }
            selected = backend == null ? Backends.current() : Backends.use(backend);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("panamax demo cnn: " + e.getMessage());
            return 1;
        }
        try (Backends.Selection _ = Backends.using(selected)) {
            return train(selected);
        }
    }

    private int train(Backend selected) {
        PrintStream out = System.out;
        var rng = new SplittableRandom(seed);
        ShapeImages train = ShapeImages.draw(steps * batch, rng.split()), validation = ShapeImages.draw(400, rng.split());
        out.printf(Locale.ROOT, "data      %d generated %dx%d images of %d shapes (%s), %d for validation%n", train.n(), ShapeImages.SIZE,
                ShapeImages.SIZE, ShapeImages.CLASSES, String.join(", ", ShapeImages.NAMES), validation.n());
        out.println("model     conv3x3(8)-bn-relu-pool, conv3x3(16)-bn-relu-pool, linear(" + 16 * 4 * 4 + "->" + ShapeImages.CLASSES + "); Adam lr 0.01");
        out.printf(Locale.ROOT, "backend   %s%n", MlpDemoCommand.placeOf(selected));
        var weights = rng.split();
        Sequential model = TensorScope.unscoped(() -> new Sequential(
                new Conv2d(1, 8, 3, 1, 1, weights), new BatchNorm2d(8), new ReLU(), new MaxPool2d(2),
                new Conv2d(8, 16, 3, 1, 1, weights), new BatchNorm2d(16), new ReLU(), new MaxPool2d(2),
                new Flatten(), new Linear(16 * 4 * 4, ShapeImages.CLASSES, weights)));
        long t0 = System.nanoTime();
        double loss = Double.NaN, accuracy;
        try (Adam adam = TensorScope.unscoped(() -> new Adam(model.parameters(), 0.01))) {
            model.setTraining(true);
            for (int step = 0; step < steps; step++) {
                try (var _ = TensorScope.open()) {
                    Tensor l = Tensor.crossEntropy(model.forward(train.images(step * batch, batch)), train.labels(step * batch, batch));
                    adam.zeroGrad();
                    l.backward();
                    adam.step();
                    loss = l.item();
                }
            }
            adam.zeroGrad();
            model.setTraining(false);
            try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
                Tensor predicted = model.forward(validation.images(0, validation.n())).argmax(1);
                long[] p = predicted.toLongArray();
                int right = 0;
                for (int i = 0; i < p.length; i++) right += p[i] == validation.label(i) ? 1 : 0;
                accuracy = (double) right / p.length;
            }
        } finally {
            model.close();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT, "loss      %.3f (last batch)%n", loss);
        out.printf(Locale.ROOT, "accuracy  %.1f%% on validation (%d images; chance is %.0f%%)%n", 100 * accuracy, validation.n(), 100.0 / ShapeImages.CLASSES);
        out.printf(Locale.ROOT, "speed     %d steps in %.1f s%n", steps, seconds);
        return 0;
    }
}

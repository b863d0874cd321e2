package dev.panamax.tensor;

import dev.panamax.tensor.data.DataLoader;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's tensor example, as written, on a spiral archive: it must learn. */
class ReadmeExampleTest {
    @Test
    void trainsTheSpiralFromAnNpzArchive(@TempDir Path dir) throws Exception {
        var spirals = new Spirals(100, 3, 1);
        Path file = dir.resolve("spiral.npz");
        try (var _ = TensorScope.open()) {
            Npy.writeNpz(file, Map.of("x", Tensor.of(spirals.x, 300, 2), "y", Tensor.of(spirals.y)));
        }
        try (var _ = TensorScope.open()) {
            Map<String, Tensor> data = Npy.readNpz(file);
            Tensor x = data.get("x"), y = data.get("y");
            var rng = new SplittableRandom(42);
            var model = new Sequential(new Linear(2, 64, rng), new ReLU(), new Linear(64, 3, rng));
            var adam = new Adam(model.parameters(), 0.01);
            var loader = new DataLoader(x, y, 64, rng);
            for (int epoch = 0; epoch < 50; epoch++) {
                for (DataLoader.Batch batch : loader) {
                    try (var _ = TensorScope.open()) {
                        Tensor loss = Loss.crossEntropy(model.forward(batch.input()), batch.target());
                        adam.zeroGrad();
                        loss.backward();
                        adam.step();
                    }
                }
            }
            double accuracy;
            try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
                accuracy = model.forward(x).argmax(1).eq(y).cast(DType.F32).mean().item();
            }
            assertTrue(accuracy >= 0.9, "accuracy " + accuracy);
            adam.zeroGrad();
            adam.close();
            model.close();
        }
    }

    @Test
    void trainsTheSpiralWithACapturedStep() {
        var spirals = new Spirals(100, 3, 1);
        try (var _ = TensorScope.open()) {
            Tensor x = Tensor.of(spirals.x, 300, 2), y = Tensor.of(spirals.y);
            var rng = new SplittableRandom(42);
            var model = new Sequential(new Linear(2, 64, rng), new ReLU(), new Linear(64, 3, rng));
            var adam = new Adam(model.parameters(), 0.01);
            var loader = new DataLoader(x, y, 64, rng);
            try (StepCapture step = StepCapture.ofTensor(in -> {
                    adam.zeroGrad();
                    Tensor loss = Loss.crossEntropy(model.forward(in[0]), in[1]);
                    loss.backward();
                    adam.step();
                    return loss;
                })) {
                for (int epoch = 0; epoch < 50; epoch++) {
                    for (DataLoader.Batch batch : loader) step.run(batch.input(), batch.target());
                }
            }
            double accuracy;
            try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
                accuracy = model.forward(x).argmax(1).eq(y).cast(DType.F32).mean().item();
            }
            assertTrue(accuracy >= 0.9, "accuracy " + accuracy);
            adam.zeroGrad();
            adam.close();
            model.close();
        }
    }
}

package dev.panamax.tensor.io;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.ScopedTest;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Dropout;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.Optimizer;
import dev.panamax.tensor.optim.SGD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run resumed from a checkpoint computes the very losses the uninterrupted run computed. */
class CheckpointTest extends ScopedTest {
    @TempDir
    Path dir;

    private static Module model(RestorableRandom rng, int hidden) {
        return new Sequential(new Linear(2, hidden, rng), new ReLU(), new Dropout(0.25, rng), new Linear(hidden, 3, rng));
    }

    /** One training step on a fixed batch; dropout draws from the model's generator. */
    private static float step(Module model, Optimizer optimizer, Tensor x, Tensor y) {
        try (var _ = TensorScope.open()) {
            Tensor loss = Loss.crossEntropy(model.forward(x), y);
            optimizer.zeroGrad();
            loss.backward();
            optimizer.step();
            return (float) loss.item();
        }
    }

    private static float[] train(Module model, Optimizer optimizer, Tensor x, Tensor y, int steps) {
        float[] losses = new float[steps];
        for (int i = 0; i < steps; i++) losses[i] = step(model, optimizer, x, y);
        return losses;
    }

    private void resumesBitForBit(Function<Module, Optimizer> optimizerFor) throws IOException {
        try (var _ = Backends.using("cpu")) {
            Tensor x = Tensor.normal(new SplittableRandom(3), 0, 1, 32, 2);
            long[] labels = new long[32];
            for (int i = 0; i < labels.length; i++) labels[i] = i % 3;
            Tensor y = Tensor.of(labels);
            Path file = dir.resolve("run.safetensors");

            var rng = new RestorableRandom(7);
            Module original = model(rng, 16);
            Optimizer first = optimizerFor.apply(original);
            float[] before = train(original, first, x, y, 5);
            Checkpoint.save(file, original, first, 5, rng);
            float[] expected = train(original, first, x, y, 5);

            var otherRng = new RestorableRandom(12345); // other weights, other dropout masks until restored
            Module resumed = model(otherRng, 16);
            Optimizer second = optimizerFor.apply(resumed);
            assertEquals(5, Checkpoint.load(file, resumed, second, otherRng));
            float[] actual = train(resumed, second, x, y, 5);

            assertFalse(Arrays.equals(before, expected), "the run goes on learning");
            assertArrayEquals(expected, actual, "the resumed run's losses, bit for bit");
            first.close();
            second.close();
            original.close();
            resumed.close();
        }
    }

    @Test
    void adamResumesWithTheSameLosses() throws IOException {
        resumesBitForBit(m -> new Adam(m.parameters(), 0.01));
    }

    @Test
    void sgdWithMomentumResumesWithTheSameLosses() throws IOException {
        resumesBitForBit(m -> new SGD(m.parameters(), 0.1, 0.9, 1e-4));
    }

    @Test
    void namesFollowPytorchStateDicts() throws IOException {
        var rng = new RestorableRandom(1);
        Module model = model(rng, 4);
        var adam = new Adam(model.parameters(), 0.01);
        Tensor x = Tensor.normal(rng, 0, 1, 4, 2);
        step(model, adam, x, Tensor.of(new long[] {0, 1, 2, 0}));
        Path file = dir.resolve("names.safetensors");
        Checkpoint.save(file, model, adam, 1, rng);
        SafeTensorsHeader header = SafeTensors.header(file);
        assertEquals(java.util.List.of("0.weight", "0.bias", "3.weight", "3.bias", "optimizer.state.0.exp_avg",
                "optimizer.state.0.exp_avg_sq", "optimizer.state.1.exp_avg", "optimizer.state.1.exp_avg_sq",
                "optimizer.state.2.exp_avg", "optimizer.state.2.exp_avg_sq", "optimizer.state.3.exp_avg", "optimizer.state.3.exp_avg_sq"),
                header.entries().stream().map(SafeTensorsEntry::name).toList());
        assertEquals("1", header.metadata().get("step"));
        assertEquals("Adam", header.metadata().get("optimizer"));
        assertEquals("1", header.metadata().get("optimizer.step"));
        assertEquals("pt", header.metadata().get("format"));
        assertTrue(header.metadata().get("rng").matches("splitmix64:[0-9a-f]{16}"));
        adam.close();
        model.close();
    }

    @Test
    void anotherArchitectureIsRefusedNamingTheTensors() throws IOException {
        var rng = new RestorableRandom(1);
        Module saved = model(rng, 4);
        var adam = new Adam(saved.parameters(), 0.01);
        Path file = dir.resolve("small.safetensors");
        Checkpoint.save(file, saved, adam, 0, rng);

        Module wider = model(rng, 8);
        var widerAdam = new Adam(wider.parameters(), 0.01);
        float[] before = wider.parameters().getFirst().toFloatArray();
        var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(file, wider, widerAdam, rng));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("tensor '0.weight' has shape (4, 2); the model's parameter has (8, 2)"), e.getMessage());
        assertArrayEquals(before, wider.parameters().getFirst().toFloatArray(), "nothing changed");

        Module deeper = new Sequential(new Linear(2, 4, rng), new ReLU(), new Linear(4, 3, rng), new ReLU(), new Linear(3, 3, rng));
        var d = assertThrows(IllegalArgumentException.class, () -> Checkpoint.loadModule(file, deeper));
        assertTrue(d.getMessage().contains("parameter '2.weight' (3, 4) is missing"), d.getMessage());
        assertTrue(d.getMessage().contains("parameter '4.weight' (3, 3) is missing"), d.getMessage());
        assertTrue(d.getMessage().contains("tensor '3.weight' (3, 4) is no parameter of the model"), d.getMessage());

        var sgd = new SGD(saved.parameters(), 0.1);
        var k = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(file, saved, sgd, rng));
        assertTrue(k.getMessage().contains("holds Adam state; this optimizer is SGD"), k.getMessage());
        for (var m : new Module[] {saved, wider, deeper}) m.close();
        adam.close();
        widerAdam.close();
    }

    @Test
    void aWeightsOnlyFileIsNoCheckpoint() throws IOException {
        var rng = new RestorableRandom(1);
        Module model = model(rng, 4);
        Path file = dir.resolve("weights.safetensors");
        SafeTensors.write(file, model.namedParameters(), java.util.Map.of());
        var adam = new Adam(model.parameters(), 0.01);
        var e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(file, model, adam, rng));
        assertTrue(e.getMessage().contains("metadata 'step' is missing"), e.getMessage());
        Checkpoint.loadModule(file, model); // the weights alone load
        adam.close();
        model.close();
    }

    @Test
    void aTruncatedCheckpointFailsBeforeAnythingChanges() throws IOException {
        var rng = new RestorableRandom(1);
        Module model = model(rng, 4);
        var adam = new Adam(model.parameters(), 0.01);
        Path file = dir.resolve("cut.safetensors");
        Checkpoint.save(file, model, adam, 3, rng);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 6));
        var e = assertThrows(IOException.class, () -> Checkpoint.load(file, model, adam, rng));
        assertTrue(e.getMessage().contains("tensor '3.bias'") && e.getMessage().contains("run past the data"), e.getMessage());
        adam.close();
        model.close();
    }
}

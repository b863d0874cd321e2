package dev.panamax.tensor;

import dev.panamax.tensor.data.DataLoader;
import dev.panamax.tensor.nn.Dropout;
import dev.panamax.tensor.nn.Embedding;
import dev.panamax.tensor.nn.LayerNorm;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Parameters;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.SGD;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NnTest extends ScopedTest {

    /** d/dw of sum(w^2 * c) is 2 w c. */
    private static void quadraticBackward(Tensor w, Tensor c) {
        try (var _ = TensorScope.open()) {
            w.mul(w).mul(c).sum().backward();
        }
    }

    @Test
    void sgdWithMomentumAndWeightDecayFollowsPytorch() {
        Tensor w = Parameters.full(1, 2);
        Tensor c = Tensor.of(new float[] {1, 3});
        var sgd = new SGD(List.of(w), 0.1, 0.9, 0.01);
        double[] p = {1, 1}, buf = new double[2];
        double[] cs = {1, 3};
        for (int step = 0; step < 3; step++) {
            sgd.zeroGrad();
            quadraticBackward(w, c);
            sgd.step();
            for (int i = 0; i < 2; i++) {
                double g = 2 * p[i] * cs[i] + 0.01 * p[i];
                buf[i] = step == 0 ? g : 0.9 * buf[i] + g;
                p[i] -= 0.1 * buf[i];
            }
        }
        assertArrayEquals(new float[] {(float) p[0], (float) p[1]}, w.toFloatArray(), 1e-5f);
        sgd.zeroGrad();
        sgd.close();
        w.close();
    }

    @Test
    void adamAndAdamWFollowTheirFormulas() {
        for (boolean decoupled : new boolean[] {false, true}) {
            Tensor w = Parameters.full(1, 2);
            Tensor c = Tensor.of(new float[] {1, -2});
            var adam = new Adam(List.of(w), 0.05, 0.9, 0.999, 1e-8, 0.1, decoupled);
            double[] p = {1, 1}, m = new double[2], v = new double[2];
            double[] cs = {1, -2};
            for (int t = 1; t <= 4; t++) {
                adam.zeroGrad();
                quadraticBackward(w, c);
                adam.step();
                for (int i = 0; i < 2; i++) {
                    double g = 2 * p[i] * cs[i];
                    if (decoupled) p[i] *= 1 - 0.05 * 0.1;
                    else g += 0.1 * p[i];
                    m[i] = 0.9 * m[i] + 0.1 * g;
                    v[i] = 0.999 * v[i] + 0.001 * g * g;
                    double mHat = m[i] / (1 - Math.pow(0.9, t)), vHat = v[i] / (1 - Math.pow(0.999, t));
                    p[i] -= 0.05 * mHat / (Math.sqrt(vHat) + 1e-8);
                }
            }
            assertArrayEquals(new float[] {(float) p[0], (float) p[1]}, w.toFloatArray(), 1e-5f, "decoupled=" + decoupled);
            adam.zeroGrad();
            adam.close();
            w.close();
        }
    }

    @Test
    void layersHaveThePytorchShapesAndNames() {
        var rng = new SplittableRandom(1);
        var model = new Sequential(new Linear(5, 4, rng), new ReLU(), new LayerNorm(4), new Linear(4, 2, false, rng));
        assertEquals(List.of("0.weight", "0.bias", "2.weight", "2.bias", "3.weight"), List.copyOf(model.namedParameters().keySet()));
        assertEquals(Shape.of(4, 5), model.namedParameters().get("0.weight").shape());
        for (float v : model.namedParameters().get("0.weight").toFloatArray()) assertTrue(Math.abs(v) <= 1 / Math.sqrt(5));
        Tensor y = model.forward(Tensor.ones(3, 5));
        assertEquals(Shape.of(3, 2), y.shape());
        Tensor normalized = new Sequential(model.layers().subList(0, 3).toArray(dev.panamax.tensor.nn.Module[]::new)).forward(
                Tensor.normal(rng, 0, 1, 6, 5));
        float[] means = normalized.mean(-1, false).toFloatArray();
        for (float mean : means) assertEquals(0, mean, 1e-5);
        var emb = new Embedding(10, 3, rng);
        Tensor looked = emb.forward(Tensor.of(new long[] {1, 9, 1, 0}, 2, 2));
        assertEquals(Shape.of(2, 2, 3), looked.shape());
        assertArrayEquals(Arrays.copyOfRange(emb.weight().toFloatArray(), 3, 6), Arrays.copyOfRange(looked.toFloatArray(), 0, 3));
        model.close();
        emb.close();
    }

    @Test
    void dropoutScalesSurvivorsWhileTrainingAndIsTheIdentityOtherwise() {
        var dropout = new Dropout(0.25, new SplittableRandom(3));
        Tensor x = Tensor.ones(10_000);
        float[] y = dropout.forward(x).toFloatArray();
        int zeros = 0;
        for (float v : y) {
            if (v == 0) zeros++;
            else assertEquals(1 / 0.75f, v, 1e-6);
        }
        assertEquals(2500, zeros, 200);
        dropout.setTraining(false);
        assertArrayEquals(x.toFloatArray(), dropout.forward(x).toFloatArray());
    }

    @Test
    void parametersSaveAndLoadAsNpz(@TempDir Path dir) throws IOException {
        var a = new Sequential(new Linear(3, 2, new SplittableRandom(1)));
        var b = new Sequential(new Linear(3, 2, new SplittableRandom(2)));
        Path file = dir.resolve("model.npz");
        Parameters.save(a, file);
        Parameters.load(b, file);
        for (String name : a.namedParameters().keySet()) {
            assertArrayEquals(a.namedParameters().get(name).toFloatArray(), b.namedParameters().get(name).toFloatArray(), name);
        }
        var other = new Sequential(new Linear(3, 4, new SplittableRandom(1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Parameters.load(other, file));
        assertTrue(e.getMessage().endsWith("array '0.weight' has shape (2, 3); expected (4, 3)"), e.getMessage());

        // a directory in the file's place is refused and kept; saving again replaces the file whole
        Path folder = java.nio.file.Files.createDirectory(dir.resolve("folder.npz"));
        IOException refused = assertThrows(IOException.class, () -> Parameters.save(a, folder));
        assertTrue(refused.getMessage().contains("it exists and is a directory"), refused.getMessage());
        assertTrue(java.nio.file.Files.isDirectory(folder));
        try (var _ = Autograd.noGrad()) {
            b.namedParameters().values().forEach(p -> p.fill(0.5));
        }
        Parameters.save(b, file);
        java.util.Map<String, Tensor> back = Npy.readNpz(file);
        assertEquals(a.namedParameters().keySet(), back.keySet());
        for (Tensor t : back.values()) {
            for (float v : t.toFloatArray()) assertEquals(0.5f, v);
            t.close();
        }
        a.close();
        b.close();
        other.close();
    }

    @Test
    void dataLoaderVisitsEveryRowOncePerPassInAShuffledOrder() {
        Tensor x = Tensor.arange(DType.F32, 0, 20, 1).reshape(10, 2);
        Tensor y = Tensor.arange(10);
        var loader = new DataLoader(x, y, 4, new SplittableRandom(9));
        assertEquals(3, loader.batches());
        List<List<Long>> passes = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            List<Long> seen = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            for (DataLoader.Batch b : loader) {
                try (var _ = TensorScope.open()) {
                    long[] rows = b.target().toLongArray();
                    float[] in = b.input().toFloatArray();
                    for (int i = 0; i < rows.length; i++) {
                        assertEquals(2 * rows[i], in[2 * i]);
                        seen.add(rows[i]);
                    }
                    sizes.add(b.size());
                }
            }
            assertEquals(List.of(4, 4, 2), sizes);
            Set<Long> unique = new HashSet<>(seen);
            assertEquals(10, unique.size());
            passes.add(seen);
        }
        assertNotEquals(passes.get(0), passes.get(1), "reshuffled each pass");
        var ordered = new DataLoader(x, y, 10);
        DataLoader.Batch only = ordered.iterator().next();
        assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, only.target().toLongArray());
    }

    @Test
    void layersAndLoadersFollowTheirInputsBackend() {
        Tensor x, y;
        var deferring = new dev.panamax.tensor.cpu.CpuBackend(false, 1); // any backend other than the current one
        try (var _ = Backends.using(deferring)) {
            x = Tensor.ones(6, 2);
            y = Tensor.arange(6);
        }
        // made on another backend than the current one: what they make stays on theirs
        DataLoader.Batch batch = new DataLoader(x, y, 4).iterator().next();
        Tensor dropped = new Dropout(0.5, new SplittableRandom(1)).forward(batch.input());
        assertEquals(deferring, dropped.backend());
        assertEquals(deferring, batch.target().backend());
        assertEquals(4, batch.target().elements());
    }

    @Test
    void backendsAreFoundAndSelected() {
        assertTrue(Backends.names().contains("reference"));
        assertTrue(Backends.available().contains("reference"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backends.get("tpu"));
        assertTrue(e.getMessage().startsWith("no tensor backend named 'tpu'; found: "), e.getMessage());
        try (var _ = Backends.using("reference")) {
            Tensor t = Tensor.ones(2);
            assertEquals("reference", t.backend().name());
            TensorException mixed = assertThrows(TensorException.class, () -> {
                try (var _ = Backends.using("cpu")) {
                    t.add(Tensor.ones(2));
                }
            });
            assertTrue(mixed.getMessage().startsWith("add: operands live on different devices (reference on host memory and cpu on host memory)"),
                    mixed.getMessage());
        }
        Map<String, Long> none = Backends.get("reference").counters();
        assertTrue(none.isEmpty());
    }
}

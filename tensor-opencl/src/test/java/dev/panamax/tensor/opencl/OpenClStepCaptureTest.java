package dev.panamax.tensor.opencl;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorException;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.BatchNorm2d;
import dev.panamax.tensor.nn.Conv2d;
import dev.panamax.tensor.nn.LayerNorm;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.MaxPool2d;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.Gradients;
import dev.panamax.tensor.optim.SGD;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StepCapture on the opencl backend: a captured step is one recorded command buffer that each
 * replay submits; it computes what the eager step computes, and refuses at capture time what a
 * replay could not repeat, as on cpu.
 */
class OpenClStepCaptureTest {
    private static final int STEPS = 12, BATCH = 32;
    private OpenClTensorBackend backend;
    private TensorScope scope;
    private Backends.Selection use;

    @BeforeEach
    void open() {
        DeviceChoice chosen = DeviceChoice.fromSettings();
        backend = new OpenClTensorBackend(chosen.device(), chosen.index());
        scope = TensorScope.open();
        use = Backends.using(backend);
    }

    @AfterEach
    void close() {
        use.close();
        scope.close();
        backend.close();
    }

    /** The spiral classifier, seeded, trained by SGD with momentum and a clipped gradient. */
    private record Trainer(Sequential model, SGD sgd) implements AutoCloseable {
        static Trainer of() {
            var rng = new SplittableRandom(7);
            var model = new Sequential(new Linear(2, 16, rng), new ReLU(), new Linear(16, 16, rng), new ReLU(), new Linear(16, 3, rng));
            return new Trainer(model, new SGD(model.parameters(), 0.1, 0.9, 1e-4));
        }

        Tensor step(Tensor x, Tensor y) {
            sgd.zeroGrad();
            Tensor loss = Loss.crossEntropy(model.forward(x), y);
            loss.backward();
            Gradients.clipByGlobalNorm(model.parameters(), 1.0);
            sgd.step();
            return loss;
        }

        @Override
        public void close() {
            sgd.zeroGrad();
            sgd.close();
            model.close();
        }
    }

    /** Minibatch {@code step} of three spirals: points (BATCH, 2) and labels (BATCH). */
    private static Tensor[] batch(int step) {
        float[] x = new float[BATCH * 2];
        long[] y = new long[BATCH];
        var rng = new SplittableRandom(100 + step);
        for (int i = 0; i < BATCH; i++) {
            int k = rng.nextInt(3);
            double f = rng.nextDouble(), t = 4.0 * k + 4.0 * f;
            x[2 * i] = (float) (f * Math.sin(t));
            x[2 * i + 1] = (float) (f * Math.cos(t));
            y[i] = k;
        }
        return new Tensor[] {Tensor.of(x, BATCH, 2), Tensor.of(y, BATCH)};
    }

    @Test
    void capturedSpiralTrainingGivesTheEagerLosses() {
        float[] eager = new float[STEPS];
        try (Trainer t = Trainer.of()) {
            for (int s = 0; s < STEPS; s++) {
                try (var _ = TensorScope.open()) {
                    Tensor[] b = batch(s);
                    eager[s] = (float) t.step(b[0], b[1]).item();
                }
            }
        }
        float[] captured = new float[STEPS];
        try (Trainer t = Trainer.of(); StepCapture step = StepCapture.of(in -> new Tensor[] {t.step(in[0], in[1])})) {
            for (int s = 0; s < STEPS; s++) {
                try (var _ = TensorScope.open()) {
                    captured[s] = (float) step.run(batch(s))[0].item();
                }
            }
            assertEquals(1, step.programs());
            assertEquals(STEPS - 1, backend.counters().get("replays"), "the capture's run and every later one is one replay");
        }
        for (int s = 0; s < STEPS; s++) {
            assertEquals(eager[s], captured[s], 1e-6 * Math.max(1, Math.abs(eager[s])), "step " + s + ": eager " + eager[s]
                    + ", captured " + captured[s]);
        }
        assertTrue(captured[STEPS - 1] < captured[0], "the loss falls: " + captured[0] + " -> " + captured[STEPS - 1]);
    }

    @Test
    void aReplayIsOneSubmissionAndOverwritesTheSameOutputs() {
        try (StepCapture step = StepCapture.ofTensor(in -> in[0].mul(2).add(in[1]).relu())) {
            step.run(Tensor.of(new float[] {1, -3}, 2), Tensor.ones(2));
            Tensor first = step.run(Tensor.of(new float[] {1, -3}, 2), Tensor.ones(2))[0];
            assertArrayEquals(new float[] {3, 0}, first.toFloatArray());
            long kernels = backend.counters().get("programs"), replays = backend.counters().get("replays");
            for (int i = 0; i < 5; i++) {
                Tensor out = step.run(Tensor.of(new float[] {i, i}, 2), Tensor.full(-1, 2))[0];
                assertSame(first, out, "the program's static output");
                assertArrayEquals(new float[] {Math.max(0, 2 * i - 1), Math.max(0, 2 * i - 1)}, out.toFloatArray(), "run " + i);
            }
            assertEquals(replays + 5, backend.counters().get("replays"));
            assertEquals(kernels, backend.counters().get("programs"), "nothing compiled again");
        }
    }

    @Test
    void readingAValueInsideTheStepIsRefusedAtCaptureAndTheBackendGoesOn() {
        try (StepCapture step = StepCapture.ofTensor(in -> in[0].mul(in[0].sum().item()))) {
            assertArrayEquals(new float[] {3, 6}, step.run(Tensor.of(new float[] {1, 2}, 2))[0].toFloatArray());
            TensorException e = assertThrows(TensorException.class, () -> step.run(Tensor.of(new float[] {1, 2}, 2)));
            assertTrue(e.getMessage().contains("cannot read values mid-step"), e.getMessage());
            assertEquals(0, step.programs());
        }
        assertEquals(6, Tensor.of(new float[] {5}, 1).add(1).item());
    }

    @Test
    void writingFromJavaIntoATensorInUseIsRefusedButAConstantMadeInTheStepIsKept() {
        Tensor existing = TensorScope.unscoped(() -> Tensor.zeros(2));
        try (StepCapture bad = StepCapture.ofTensor(in -> {
            existing.backend().write(existing.storage(), 0, MemorySegment.ofArray(new float[] {1, 1}));
            return in[0].add(existing);
        })) {
            bad.run(Tensor.zeros(2));
            TensorException e = assertThrows(TensorException.class, () -> bad.run(Tensor.zeros(2)));
            assertTrue(e.getMessage().contains("cannot write values from Java mid-step"), e.getMessage());
        }
        existing.close();
        try (StepCapture good = StepCapture.ofTensor(in -> in[0].add(Tensor.of(new float[] {10, 20}, 2)))) {
            for (int i = 0; i < 4; i++) assertArrayEquals(new float[] {10 + i, 20 + i}, good.run(Tensor.full(i, 2))[0].toFloatArray());
        }
    }

    @Test
    void anIndexOutOfRangeInAReplayIsATensorExceptionNamingTheOp() {
        try (StepCapture step = StepCapture.ofTensor(in -> in[0].indexSelect(0, in[1]))) {
            Tensor table = Tensor.of(new float[] {1, 2, 3}, 3);
            step.run(table, Tensor.of(new long[] {2, 0}, 2));
            assertArrayEquals(new float[] {2, 3}, step.run(table, Tensor.of(new long[] {1, 2}, 2))[0].toFloatArray());
            TensorException e = assertThrows(TensorException.class, () -> step.run(table, Tensor.of(new long[] {1, 7}, 2))[0].toFloatArray());
            assertTrue(e.getMessage().startsWith("indexSelect: index 7 out of bounds"), e.getMessage());
            assertArrayEquals(new float[] {3, 1}, step.run(table, Tensor.of(new long[] {2, 0}, 2))[0].toFloatArray(), "replays go on");
        }
    }

    @Test
    void capturedAdamTrainingFollowsTheEagerLossesAsItsStepScalarsChange() {
        for (boolean decoupled : new boolean[] {false, true}) {
            float[] eager = adamLosses(decoupled, false), captured = adamLosses(decoupled, true);
            for (int s = 0; s < STEPS; s++) {
                assertEquals(eager[s], captured[s], 1e-4 * Math.max(1, Math.abs(eager[s])), "decoupled=" + decoupled + " step " + s
                        + ": eager " + eager[s] + ", captured " + captured[s]);
            }
            assertTrue(captured[STEPS - 1] < captured[0], "the loss falls: " + captured[0] + " -> " + captured[STEPS - 1]);
        }
    }

    /** The spiral classifier's losses under Adam (AdamW when decoupled) with a learning rate changed every step. */
    private static float[] adamLosses(boolean decoupled, boolean capture) {
        var rng = new SplittableRandom(7);
        Sequential model = new Sequential(new Linear(2, 16, rng), new ReLU(), new Linear(16, 3, rng));
        float[] losses = new float[STEPS];
        try (Adam adam = decoupled ? Adam.w(model.parameters(), 2e-2, 0.01) : new Adam(model.parameters(), 2e-2)) {
            StepCapture.Step train = in -> {
                adam.zeroGrad();
                Tensor loss = Loss.crossEntropy(model.forward(in[0]), in[1]);
                loss.backward();
                adam.step();
                return new Tensor[] {loss};
            };
            try (StepCapture step = StepCapture.of(train)) {
                for (int s = 0; s < STEPS; s++) {
                    try (var _ = TensorScope.open()) {
                        adam.setLr(2e-2 * (1 - 0.05 * s));
                        Tensor[] b = batch(s);
                        losses[s] = (float) (capture ? step.run(b) : train.apply(b))[0].item();
                    }
                }
                if (capture) assertEquals(1, step.programs());
            }
            adam.zeroGrad();
        } finally {
            model.close();
        }
        return losses;
    }

    @Test
    void closingFreesTheOutputsAndTheProgram() {
        Tensor output;
        try (StepCapture step = StepCapture.ofTensor(in -> in[0].relu())) {
            step.run(Tensor.ones(4));
            output = step.run(Tensor.ones(4))[0];
            assertFalse(output.isFreed());
        }
        assertTrue(output.isFreed());
    }
    @Test
    void aCapturedLayerNormAndItsGradientsGiveTheEagerValues() {
        Linear lin = new Linear(5, 9, new SplittableRandom(3));
        LayerNorm norm = new LayerNorm(9);
        java.util.function.Function<Tensor[], Tensor[]> f = in -> {
            lin.weight().zeroGrad();
            for (Tensor p : norm.parameters()) p.zeroGrad();
            Tensor loss = norm.forward(lin.forward(in[0])).mul(in[1]).sum();
            loss.backward();
            return new Tensor[] {loss, lin.weight().grad().mul(1), norm.parameters().get(0).grad().mul(1),
                    norm.parameters().get(1).grad().mul(1)};
        };
        Tensor x = Tensor.uniform(new SplittableRandom(4), -2, 2, 6, 5), w = Tensor.uniform(new SplittableRandom(5), -1, 1, 6, 9);
        float[][] eager = new float[4][];
        try (var _ = TensorScope.open()) {
            Tensor[] out = f.apply(new Tensor[] {x, w});
            for (int i = 0; i < 4; i++) eager[i] = out[i].toFloatArray();
        }
        try (StepCapture step = StepCapture.of(f::apply)) {
            for (int run = 0; run < 3; run++) { // eager, captured, replayed
                Tensor[] out = step.run(x, w);
                for (int i = 0; i < 4; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), "run " + run + ": result " + i);
            }
            assertEquals(1, step.programs());
        }
        lin.weight().zeroGrad();
        for (Tensor p : norm.parameters()) p.zeroGrad();
        lin.close();
        norm.close();
    }
    @Test
    void aCapturedMaxPoolAndItsGradientGiveTheEagerValues() {
        Conv2d conv = new Conv2d(2, 3, 3, 1, 1, new SplittableRandom(3));
        MaxPool2d pool = new MaxPool2d(2);
        java.util.function.Function<Tensor[], Tensor[]> f = in -> {
            conv.weight().zeroGrad();
            Tensor loss = pool.forward(conv.forward(in[0]).relu()).mul(in[1]).sum();
            loss.backward();
            return new Tensor[] {loss, conv.weight().grad().mul(1)};
        };
        Tensor x = Tensor.uniform(new SplittableRandom(4), -2, 2, 2, 2, 7, 6);
        Tensor w = Tensor.uniform(new SplittableRandom(5), -1, 1, 2, 3, 3, 3);
        float[][] eager = new float[2][];
        try (var _ = TensorScope.open()) {
            Tensor[] out = f.apply(new Tensor[] {x, w});
            for (int i = 0; i < 2; i++) eager[i] = out[i].toFloatArray();
        }
        try (StepCapture step = StepCapture.of(f::apply)) {
            for (int run = 0; run < 3; run++) { // eager, captured, replayed
                Tensor[] out = step.run(x, w);
                for (int i = 0; i < 2; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), "run " + run + ": result " + i);
            }
            assertEquals(1, step.programs());
        }
        conv.weight().zeroGrad();
        conv.close();
    }
    @Test
    void aCapturedConvolutionBatchNormAndMaxPoolGiveTheEagerValues() {
        Conv2d conv = new Conv2d(2, 3, 3, 1, 1, new SplittableRandom(6));
        BatchNorm2d norm = new BatchNorm2d(3);
        java.util.function.Function<Tensor[], Tensor[]> f = in -> {
            conv.weight().zeroGrad();
            for (Tensor p : norm.parameters()) p.zeroGrad();
            Tensor loss = norm.forward(conv.forward(in[0])).relu().maxPool2d(2).mul(in[1]).sum();
            loss.backward();
            return new Tensor[] {loss, conv.weight().grad().mul(1), norm.parameters().get(0).grad().mul(1),
                    norm.parameters().get(1).grad().mul(1)};
        };
        Tensor x = Tensor.uniform(new SplittableRandom(7), -2, 2, 4, 2, 6, 6), w = Tensor.uniform(new SplittableRandom(8), -1, 1, 4, 3, 3, 3);
        float[][] eager = new float[4][];
        try (var _ = TensorScope.open()) {
            Tensor[] out = f.apply(new Tensor[] {x, w});
            for (int i = 0; i < 4; i++) eager[i] = out[i].toFloatArray();
        }
        try (StepCapture step = StepCapture.of(f::apply)) {
            for (int run = 0; run < 3; run++) { // eager, captured, replayed: training normalizes by the batch each time
                Tensor[] out = step.run(x, w);
                for (int i = 0; i < 4; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), 1e-6f, "run " + run + ": result " + i);
            }
            assertEquals(1, step.programs());
        }
        conv.weight().zeroGrad();
        for (Tensor p : norm.parameters()) p.zeroGrad();
        conv.close();
        norm.close();
    }
}

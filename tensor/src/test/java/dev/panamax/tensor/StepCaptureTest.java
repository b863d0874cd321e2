package dev.panamax.tensor;

import dev.panamax.tensor.cpu.CpuBackend;
import dev.panamax.tensor.nn.BatchNorm2d;
import dev.panamax.tensor.nn.Conv2d;
import dev.panamax.tensor.nn.Gpt;
import dev.panamax.tensor.nn.GptConfig;
import dev.panamax.tensor.nn.KvCache;
import dev.panamax.tensor.nn.LayerNorm;
import dev.panamax.tensor.nn.Linear;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.MaxPool2d;
import dev.panamax.tensor.nn.ReLU;
import dev.panamax.tensor.nn.Sequential;
import dev.panamax.tensor.optim.Adam;
import dev.panamax.tensor.optim.Gradients;
import dev.panamax.tensor.optim.LrSchedule;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** StepCapture on the cpu backend: captured steps compute what eager ones do, and refuse what they cannot repeat. */
class StepCaptureTest extends ScopedTest {
    private static final int STEPS = 20, BATCH = 64;

    /** The spiral classifier, seeded, with Adam (AdamW when {@code decay}) and a changing learning rate. */
    private record Trainer(Sequential model, Adam adam) implements AutoCloseable {
        static Trainer of(boolean decay) {
            var rng = new SplittableRandom(7);
            var model = new Sequential(new Linear(2, 32, rng), new ReLU(), new Linear(32, 32, rng), new ReLU(), new Linear(32, 3, rng));
            return new Trainer(model, decay ? Adam.w(model.parameters(), 1e-2, 0.01) : new Adam(model.parameters(), 1e-2));
        }

        Tensor step(Tensor x, Tensor y) {
            adam.zeroGrad();
            Tensor loss = Loss.crossEntropy(model.forward(x), y);
            loss.backward();
            Gradients.clipByGlobalNorm(model.parameters(), 1.0);
            adam.step();
            return loss;
        }

        float[] parameters() {
            int n = 0;
            for (Tensor p : model.parameters()) n += (int) p.elements();
            float[] all = new float[n];
            int at = 0;
            for (Tensor p : model.parameters()) {
                float[] v = p.toFloatArray();
                System.arraycopy(v, 0, all, at, v.length);
                at += v.length;
            }
            return all;
        }

        @Override
        public void close() {
            adam.zeroGrad();
            adam.close();
            model.close();
        }
    }

    /** Minibatch {@code step} of the spirals: points (BATCH, 2) and labels (BATCH). */
    private static Tensor[] batch(Spirals data, int step) {
        float[] x = new float[BATCH * 2];
        long[] y = new long[BATCH];
        var rng = new SplittableRandom(100 + step);
        for (int i = 0; i < BATCH; i++) {
            int row = rng.nextInt(data.y.length);
            x[2 * i] = data.x[2 * row];
            x[2 * i + 1] = data.x[2 * row + 1];
            y[i] = data.y[row];
        }
        return new Tensor[] {Tensor.of(x, BATCH, 2), Tensor.of(y, BATCH)};
    }

    private static float[] eagerLosses(Spirals data, Trainer t, LrSchedule schedule) {
        float[] losses = new float[STEPS];
        for (int s = 0; s < STEPS; s++) {
            try (var _ = TensorScope.open()) {
                schedule.apply(t.adam(), s);
                Tensor[] b = batch(data, s);
                losses[s] = (float) t.step(b[0], b[1]).item();
            }
        }
        return losses;
    }

    @Test
    void capturedSpiralTrainingGivesTheEagerLossesAndParametersBitForBit() {
        try (var _ = Backends.using("cpu")) {
            var data = new Spirals(100, 3, 1);
            var schedule = new LrSchedule.WarmupCosine(5, STEPS, 1e-3);
            for (boolean decay : new boolean[] {false, true}) {
                float[] eager, eagerParams;
                try (Trainer t = Trainer.of(decay)) {
                    eager = eagerLosses(data, t, schedule);
                    eagerParams = t.parameters();
                }
                try (Trainer t = Trainer.of(decay); StepCapture step = StepCapture.of(in -> new Tensor[] {t.step(in[0], in[1])})) {
                    float[] captured = new float[STEPS];
                    for (int s = 0; s < STEPS; s++) {
                        try (var _ = TensorScope.open()) {
                            schedule.apply(t.adam(), s);
                            Tensor[] b = batch(data, s);
                            captured[s] = (float) step.run(b)[0].item();
                        }
                    }
                    assertEquals(1, step.programs());
                    for (int s = 0; s < STEPS; s++) {
                        assertEquals(Float.floatToRawIntBits(eager[s]), Float.floatToRawIntBits(captured[s]),
                                "decay=" + decay + " step " + s + ": eager " + eager[s] + ", captured " + captured[s]);
                    }
                    assertTrue(captured[STEPS - 1] < captured[0], "the loss falls: " + captured[0] + " -> " + captured[STEPS - 1]);
                    float[] params = t.parameters();
                    for (int i = 0; i < params.length; i++) {
                        assertEquals(Float.floatToRawIntBits(eagerParams[i]), Float.floatToRawIntBits(params[i]), "parameter element " + i);
                    }
                }
            }
        }
    }

    @Test
    void aReplayIsOneNativeCrossingAndOverwritesTheSameOutputs() {
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.of(in -> new Tensor[] {in[0].mul(2).add(1), in[0].sum()})) {
            CpuBackend cpu = (CpuBackend) Backends.current();
            step.run(Tensor.of(new float[] {1, 2, 3}, 3));                      // eager
            Tensor[] first = step.run(Tensor.of(new float[] {4, 5, 6}, 3));     // captured, then run
            assertArrayEquals(new float[] {9, 11, 13}, first[0].toFloatArray());
            assertEquals(15, first[1].item());
            Tensor next = Tensor.of(new float[] {-1, 0, 1}, 3);
            next.sync();
            long before = cpu.counters().get("crossings");
            Tensor[] second = step.run(next);
            assertEquals(before + 1, cpu.counters().get("crossings"), "one crossing per replay");
            assertSame(first[0], second[0], "the capture's own output, overwritten");
            assertArrayEquals(new float[] {-1, 1, 3}, first[0].toFloatArray());
            assertEquals(0, second[1].item());
        }
    }

    @Test
    void aNewShapeCapturesAgainAndTheOldProgramStillRuns() {
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> in[0].exp().sum())) {
            for (int round = 0; round < 3; round++) {
                assertEquals(3, step.run(Tensor.zeros(3))[0].item(), 1e-6);
                assertEquals(5, step.run(Tensor.zeros(5))[0].item(), 1e-6);
                assertEquals(2 + Math.E, step.run(Tensor.of(new float[] {0, 0, 1}, 3))[0].item(), 1e-5);
            }
            assertEquals(2, step.programs());
        }
    }

    @Test
    void aNonContiguousInputIsCopiedIn() {
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> in[0].mul(in[0]))) {
            Tensor m = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
            step.run(m.t());
            step.run(m.t());
            assertArrayEquals(new float[] {1, 9, 4, 16}, step.run(m.t())[0].toFloatArray());
        }
    }

    @Test
    void readingAValueInsideTheStepIsRefusedAtCaptureAndFreesTheCapture() {
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> {
            double total = in[0].sum().item();
            return in[0].mul(total);
        })) {
            assertArrayEquals(new float[] {3, 6}, step.run(Tensor.of(new float[] {1, 2}, 2))[0].toFloatArray()); // eager
            TensorException e = assertThrows(TensorException.class, () -> step.run(Tensor.of(new float[] {1, 2}, 2)));
            assertTrue(e.getMessage().contains("cannot read values mid-step"), e.getMessage());
            assertEquals(0, step.programs());
            Tensor after = Tensor.of(new float[] {5}, 1).add(1); // the thread records and runs as before
            assertEquals(6, after.item());
        }
    }

    @Test
    void writingFromJavaIntoATensorInUseIsRefusedButAConstantMadeInTheStepIsKept() {
        try (var _ = Backends.using("cpu")) {
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
    }

    @Test
    void aKernelWithoutANativeLoweringIsRefusedNamingIt() {
        // arithmetic on f16 has no native cpu kernel (it runs on the reference implementation)
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> in[0].add(in[0]))) {
            Tensor halves = Tensor.of(new float[] {1, 2}, 2).cast(DType.F16);
            assertArrayEquals(new float[] {2, 4}, step.run(halves)[0].toFloatArray());
            TensorException e = assertThrows(TensorException.class, () -> step.run(halves));
            assertTrue(e.getMessage().contains("binary ADD") || e.getMessage().contains("add"), e.getMessage());
            assertTrue(e.getMessage().contains("f16"), e.getMessage());
            assertTrue(e.getMessage().contains("no native cpu kernel"), e.getMessage());
        }
    }

    @Test
    void closingFreesTheOutputsAndTheProgram() {
        Tensor output;
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> in[0].relu())) {
            step.run(Tensor.ones(4));
            output = step.run(Tensor.ones(4))[0];
            assertFalse(output.isFreed());
        }
        assertTrue(output.isFreed());
    }

    @Test
    void anIndexOutOfRangeInAReplayIsATensorExceptionNamingTheKernel() {
        try (var _ = Backends.using("cpu"); StepCapture step = StepCapture.ofTensor(in -> in[0].indexSelect(0, in[1]))) {
            Tensor table = Tensor.of(new float[] {1, 2, 3}, 3);
            step.run(table, Tensor.of(new long[] {2, 0}, 2));
            assertArrayEquals(new float[] {2, 3}, step.run(table, Tensor.of(new long[] {1, 2}, 2))[0].toFloatArray());
            TensorException e = assertThrows(TensorException.class, () -> step.run(table, Tensor.of(new long[] {1, 7}, 2)));
            assertTrue(e.getMessage().contains("index out of range"), e.getMessage());
        }
    }

    @Test
    void backendsThatCannotCaptureSaySo() {
        try (var _ = Backends.using("reference"); StepCapture step = StepCapture.ofTensor(in -> in[0].neg())) {
            step.run(Tensor.ones(2));
            TensorException e = assertThrows(TensorException.class, () -> step.run(Tensor.ones(2)));
            assertTrue(e.getMessage().contains("reference backend cannot capture"), e.getMessage());
        }
    }

    /**
     * Greedy generation over a fixed window (the last {@code contextLength} tokens): one captured
     * program per window length gives the eager tokens. The key/value cache path is refused, since
     * its position is Java state a replay would freeze.
     */
    @Test
    void aGenerationStepOverAFixedWindowIsCaptured() {
        try (var _ = Backends.using("cpu")) {
            var config = new GptConfig(11, 6, 12, 3, 2);
            Gpt gpt = new Gpt(config, new SplittableRandom(3));
            StepCapture.Step next = in -> {
                try (var _ = Autograd.noGrad()) {
                    Tensor logits = gpt.forward(in[0]);                        // (1, T, vocab)
                    int t = logits.dim(1);
                    return new Tensor[] {logits.select(1, t - 1).argmax(1)};   // (1,) i64
                }
            };
            long[] eager = generate(config, next, null);
            try (StepCapture step = StepCapture.of(next)) {
                assertArrayEquals(eager, generate(config, null, step));
                assertEquals(1, step.programs(), "only the full window ran more than once (shorter ones ran eagerly, once each)");
            }
            try (KvCache cache = gpt.newCache(1); StepCapture incremental = StepCapture.ofTensor(in -> gpt.forwardIncremental(in[0], cache))) {
                incremental.run(Tensor.of(new long[] {1}, 1, 1));
                TensorException e = assertThrows(TensorException.class, () -> incremental.run(Tensor.of(new long[] {2}, 1, 1)));
                assertTrue(e.getMessage().contains("KvCache"), e.getMessage());
            }
            gpt.close();
        }
    }

    @Test
    void aCapturedSgdStepRefusesAReplayOnceItsLearningRateChanged() {
        try (var _ = Backends.using("cpu")) {
            var rng = new SplittableRandom(5);
            var model = new Linear(2, 3, rng);
            var sgd = new dev.panamax.tensor.optim.SGD(model.parameters(), 0.1);
            Tensor x = Tensor.of(new float[] {1, 2, -1, 0.5f}, 2, 2), y = Tensor.of(new long[] {0, 2}, 2);
            try (StepCapture step = StepCapture.ofTensor(in -> {
                sgd.zeroGrad();
                Tensor loss = Loss.crossEntropy(model.forward(in[0]), in[1]);
                loss.backward();
                sgd.step();
                return loss;
            })) {
                double first = step.run(x, y)[0].item();
                double second = step.run(x, y)[0].item();
                assertTrue(second < first, first + " -> " + second);
                sgd.paramGroups().get(0).setLr(0.05);
                TensorException e = assertThrows(TensorException.class, () -> step.run(x, y));
                assertTrue(e.getMessage().contains("captured with lr=0.1"), e.getMessage());
            }
            sgd.zeroGrad();
            sgd.close();
            model.close();
        }
    }

    @Test
    void aStepCapturedOnOneThreadReplaysOnAnother() throws Exception {
        try (var _ = Backends.using("cpu")) {
            var cpu = Backends.current();
            assertEquals(4, Tensor.ones(2).add(1).sum().item()); // this thread records too: the cross-thread bookkeeping is on
            StepCapture[] captured = new StepCapture[1];
            Throwable[] failure = new Throwable[1];
            Thread other = new Thread(() -> {
                try (var _ = Backends.using(cpu); var _ = TensorScope.open()) {
                    captured[0] = StepCapture.ofTensor(in -> in[0].mul(3).add(in[1]));
                    captured[0].run(Tensor.ones(2), Tensor.ones(2));
                    assertArrayEquals(new float[] {4, 4}, captured[0].run(Tensor.ones(2), Tensor.ones(2))[0].toFloatArray());
                } catch (Throwable t) {
                    failure[0] = t;
                }
            });
            other.start();
            other.join();
            if (failure[0] != null) throw new AssertionError("capturing thread failed", failure[0]);
            try (StepCapture step = captured[0]) {
                Tensor x = Tensor.of(new float[] {1, 2}, 2).mul(2); // recorded here, run before the replay reads it
                assertArrayEquals(new float[] {7, 13}, step.run(x, Tensor.ones(2))[0].toFloatArray());
            }
        }
    }

    /** Twelve greedy tokens from token 1, by {@code eager} or by {@code captured}, over the last contextLength tokens. */
    private static long[] generate(GptConfig config, StepCapture.Step eager, StepCapture captured) {
        long[] tokens = new long[13];
        tokens[0] = 1;
        for (int i = 1; i < tokens.length; i++) {
            try (var _ = TensorScope.open()) {
                int from = Math.max(0, i - config.contextLength());
                long[] window = java.util.Arrays.copyOfRange(tokens, from, i);
                Tensor ids = Tensor.of(window, 1, window.length);
                Tensor[] out = eager != null ? eager.apply(new Tensor[] {ids}) : captured.run(ids);
                tokens[i] = out[0].toLongArray()[0];
            }
        }
        return tokens;
    }

    @Test
    void aSoftmaxAndItsGradientAreCapturedAndGiveTheEagerValues() {
        try (var _ = Backends.using("cpu")) {
            Linear lin = new Linear(5, 9, new SplittableRandom(3));
            java.util.function.Function<Tensor[], Tensor[]> f = in -> {
                lin.weight().zeroGrad();
                Tensor loss = lin.forward(in[0]).softmax(-1).mul(in[1]).sum();
                loss.backward();
                return new Tensor[] {loss, lin.weight().grad().mul(1)};
            };
            Tensor x = Tensor.uniform(new SplittableRandom(4), -2, 2, 6, 5), w = Tensor.uniform(new SplittableRandom(5), -1, 1, 6, 9);
            float[] eagerLoss, eagerGrad;
            try (var _ = TensorScope.open()) {
                Tensor[] eager = f.apply(new Tensor[] {x, w});
                eagerLoss = eager[0].toFloatArray();
                eagerGrad = eager[1].toFloatArray();
            }
            try (StepCapture step = StepCapture.of(f::apply)) {
                for (int run = 0; run < 3; run++) { // eager, captured, replayed
                    Tensor[] out = step.run(x, w);
                    assertArrayEquals(eagerLoss, out[0].toFloatArray(), "run " + run + ": loss");
                    assertArrayEquals(eagerGrad, out[1].toFloatArray(), "run " + run + ": weight gradient");
                }
                assertEquals(1, step.programs());
            }
            lin.weight().zeroGrad();
            lin.close();
        }
    }
    @Test
    void aLayerNormAndItsGradientsAreCapturedAndGiveTheEagerValues() {
        try (var _ = Backends.using("cpu")) {
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
            long fallbacks = Backends.get("cpu").counters().get("fallbacks");
            try (StepCapture step = StepCapture.of(f::apply)) {
                for (int run = 0; run < 3; run++) { // eager, captured, replayed
                    Tensor[] out = step.run(x, w);
                    for (int i = 0; i < 4; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), "run " + run + ": result " + i);
                }
                assertEquals(1, step.programs());
            }
            assertEquals(fallbacks, Backends.get("cpu").counters().get("fallbacks"), "the layer norm kernels ran natively");
            lin.weight().zeroGrad();
            for (Tensor p : norm.parameters()) p.zeroGrad();
            lin.close();
            norm.close();
        }
    }
    @Test
    void aMaxPoolAndItsGradientAreCapturedAndGiveTheEagerValues() {
        try (var _ = Backends.using("cpu")) {
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
            long fallbacks = Backends.get("cpu").counters().get("fallbacks");
            try (StepCapture step = StepCapture.of(f::apply)) {
                for (int run = 0; run < 3; run++) { // eager, captured, replayed
                    Tensor[] out = step.run(x, w);
                    for (int i = 0; i < 2; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), "run " + run + ": result " + i);
                }
                assertEquals(1, step.programs());
            }
            assertEquals(fallbacks, Backends.get("cpu").counters().get("fallbacks"), "the max pool kernels ran natively");
            conv.weight().zeroGrad();
            conv.close();
        }
    }
    @Test
    void aConvolutionBatchNormAndMaxPoolAreCapturedAndGiveTheEagerValues() {
        try (var _ = Backends.using("cpu")) {
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
            long fallbacks = Backends.get("cpu").counters().get("fallbacks");
            try (StepCapture step = StepCapture.of(f::apply)) {
                for (int run = 0; run < 3; run++) { // eager, captured, replayed: training normalizes by the batch each time
                    Tensor[] out = step.run(x, w);
                    for (int i = 0; i < 4; i++) assertArrayEquals(eager[i], out[i].toFloatArray(), 1e-6f, "run " + run + ": result " + i);
                }
                assertEquals(1, step.programs());
            }
            assertEquals(fallbacks, Backends.get("cpu").counters().get("fallbacks"), "the batch norm kernels ran natively");
            conv.weight().zeroGrad();
            for (Tensor p : norm.parameters()) p.zeroGrad();
            conv.close();
            norm.close();
        }
    }
}

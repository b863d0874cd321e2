package dev.panamax.bench.tensor;

import dev.panamax.bench.BenchSettings;
import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.cpu.ThreadBudget;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The demos' models on the cpu backend beside PyTorch CPU (eager) at 1 to N threads (N: at most 2,
 * the available processors, or {@code -Dpanamax.bench.models.threads}): the transformer demo's
 * training step at batch 32 ({@link GptWorkload}: forward, cross-entropy, backward, clipping, AdamW),
 * its greedy generation at batch 1 (Panamax with its key/value cache, {@link GptWorkload#generate}:
 * the prompt's positions once, then one position per token; PyTorch eager running the whole window
 * again for every token, as {@code nn.MultiheadAttention} keeps no cache) and the CNN demo's
 * training step at its batch of 32 ({@link CnnStep}). One
 * PyTorch child per thread count; every round runs each thread count in turn on both sides (the order
 * rotating from round to round). Figures per thread count {@code T}: {@code tensor.threadsT.gpt.step.ms},
 * {@code tensor.threadsT.gpt.generate.tokensPerS}, {@code tensor.threadsT.cnn.step.ms}, the same
 * under {@code torch.}, and {@code .vsTorch}: Panamax over PyTorch in the same round (for steps below
 * 1 is faster; for tokens/s above 1 is faster). Both training steps are also measured captured
 * ({@code tensor.threadsT.gpt.captured.step.ms}, {@code tensor.threadsT.cnn.captured.step.ms}), each
 * against PyTorch's eager step of the same round.
 */
public final class ModelFigures implements Measurement {
    /** The transformer step's batch. */
    static final int GPT_BATCH = 32;
    /** The CNN demo's batch. */
    static final int CNN_BATCH = 32;

    /**
     * One workload: its figure's name and unit, the peer's command, how to take Panamax's figure.
     * A workload with {@code peerCommand} null is compared with the PyTorch figure of the workload
     * just before it in the same round (a captured step beside PyTorch's eager one).
     */
    record Workload(String name, String unit, String peerCommand, ToDoubleFunction<Models> panamax) {}

    /**
     * Panamax's side of every workload, made once (on the backend in use when made): the models run
     * eagerly, and each training step also captured ({@link StepCapture}: recorded once per thread
     * count, then replayed as one native crossing).
     */
    record Models(GptWorkload gpt, CnnStep cnn, StepCapture gptCaptured, StepCapture cnnCaptured) implements AutoCloseable {
        static Models create() {
            GptWorkload gpt = new GptWorkload(GPT_BATCH);
            CnnStep cnn = new CnnStep(CNN_BATCH);
            return new Models(gpt, cnn, StepCapture.ofTensor(_ -> gpt.stepBody()), StepCapture.ofTensor(_ -> cnn.stepBody()));
        }

        @Override
        public void close() {
            gptCaptured.close();
            cnnCaptured.close();
            gpt.close();
            cnn.close();
        }
    }

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int gptSteps = quick ? 1 : 2, tokens = quick ? 8 : 16, cnnSteps = quick ? 10 : 20;
        List<Workload> workloads = List.of(
                new Workload("gpt.step", "ms", "gpt " + gptSteps, m -> msPer(gptSteps, m.gpt()::step)),
                new Workload("gpt.captured.step", "ms", null, m -> msPer(gptSteps, () -> replay(m.gptCaptured()))),
                new Workload("gpt.generate", "tokensPerS", "gptgen " + tokens, m -> tokensPerSecond(m.gpt(), tokens)),
                new Workload("cnn.step", "ms", "cnn " + cnnSteps, m -> msPer(cnnSteps, m.cnn()::step)),
                new Workload("cnn.captured.step", "ms", null, m -> msPer(cnnSteps, () -> replay(m.cnnCaptured()))));
        int maxThreads = Math.min(ThreadBudget.maximum(),
                BenchSettings.MODELS_THREADS.get());
        int rounds = quick ? 3 : 5;
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        int w = workloads.size();
        double[][][] panamax = new double[w][maxThreads + 1][rounds];
        double[][][] torch = new double[w][maxThreads + 1][rounds];
        List<PeerProcess> peers = new ArrayList<>();
        try (Models models = Models.create()) {
            if (python.isPresent()) {
                peers.add(null); // index 0 unused: peers.get(t) runs t threads
                for (int t = 1; t <= maxThreads; t++) peers.add(PeerProcess.start(python.get(), t));
            }
            for (int t = 1; t <= maxThreads; t++) {
                ThreadBudget.withThreads(t, () -> { // warm-up at every count
                    models.gpt().step();
                    models.gpt().generate(2);
                    models.cnn().step();
                    for (int i = 0; i < 3; i++) { // eager, captured, replayed: the capture at this thread count is made
                        replay(models.gptCaptured());
                        replay(models.cnnCaptured());
                    }
                });
            }
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < maxThreads; i++) {
                    int t = 1 + (i + r) % maxThreads;
                    PythonPeers.say("models: round " + (r + 1) + "/" + rounds + ", " + t + " thread(s)");
                    for (int k = 0; k < w; k++) {
                        Workload wl = workloads.get(k);
                        int round = r, at = k, threads = t;
                        ThreadBudget.withThreads(t, () -> panamax[at][threads][round] = wl.panamax().applyAsDouble(models));
                        if (peers.isEmpty()) continue;
                        torch[k][t][r] = wl.peerCommand() == null ? torch[k - 1][t][r]
                                : peers.get(t).measure(wl.peerCommand()).get("torch." + wl.name() + "." + wl.unit());
                    }
                }
            }
        } finally {
            for (PeerProcess p : peers) if (p != null) p.close();
        }
        List<Result> out = new ArrayList<>();
        for (int k = 0; k < w; k++) {
            Workload wl = workloads.get(k);
            for (int t = 1; t <= maxThreads; t++) {
                String ours = "tensor.threads" + t + "." + wl.name() + "." + wl.unit();
                String theirs = "torch.threads" + t + "." + wl.name() + "." + wl.unit();
                String peerName = wl.peerCommand() == null ? "torch.threads" + t + "." + workloads.get(k - 1).name() + "." + wl.unit() : theirs;
                out.add(Result.of(ours, wl.unit(), panamax[k][t], peers.isEmpty() ? "" : peerName));
                if (peers.isEmpty()) continue;
                if (wl.peerCommand() != null) out.add(Result.of(theirs, wl.unit(), torch[k][t], ""));
                out.add(Result.of(ours + ".vsTorch", "x", DeviceFigures.ratios(panamax[k][t], torch[k][t]), ""));
            }
        }
        return out;
    }

    /** One run of a captured step in a scope of its own (its first, eager run frees its intermediates there), the loss read. */
    static double replay(StepCapture step) {
        try (var _ = TensorScope.open()) {
            return step.run()[0].item();
        }
    }

    static double msPer(int steps, Runnable step) {
        long t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) step.run();
        return (System.nanoTime() - t0) / 1e6 / steps;
    }

    static double tokensPerSecond(GptWorkload gpt, int tokens) {
        long t0 = System.nanoTime();
        gpt.generate(tokens);
        return tokens / ((System.nanoTime() - t0) / 1e9);
    }
}

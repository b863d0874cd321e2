package dev.panamax.bench.tensor;

import dev.panamax.bench.BenchSettings;
import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.cpu.ThreadBudget;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the cpu backend's training steps scale with its thread budget, beside PyTorch at the same
 * thread counts: the spiral step (batch 256, 2-256-256-3, Adam) and the big step (batch 1024,
 * 784-1024-1024-10, Adam), each with its loss read, at 1 to N threads (N: the available processors,
 * or {@code -Dpanamax.bench.scaling.threads}). One PyTorch child per thread count; every round runs
 * each thread count in turn on both sides (the order rotating from round to round), so a noisy
 * neighbour weighs on all of them alike. Figures per thread count {@code T}:
 * {@code tensor.threadsT.spiral.step.ms} and {@code torch.threadsT.spiral.step.ms} (and {@code big}),
 * {@code .vs1} (the step at T threads over the same side's step at 1 thread in the same round: below
 * 1 is a speed-up) and {@code tensor.threadsT.*.vsTorch} (Panamax over PyTorch in the same round).
 */
public final class ThreadScaling implements Measurement {
    static final int SPIRAL_STEPS = 50;
    static final int BIG_STEPS = 2;

    /** One workload: its name in the figures, how to make Panamax's step, the peer's command. */
    private record Workload(String name, int batch, int[] sizes, int steps) {
        String peerCommand() {
            return name + " " + steps;
        }
    }

    private static final List<Workload> WORKLOADS = List.of(
            new Workload("spiral", 256, new int[] {2, 256, 256, 3}, SPIRAL_STEPS),
            new Workload("big", BigStepAlternation.BATCH, BigStepAlternation.SIZES, BIG_STEPS));

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int maxThreads = Math.min(ThreadBudget.maximum(),
                BenchSettings.SCALING_THREADS.get());
        int rounds = quick ? 3 : 7;
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        int w = WORKLOADS.size();
        double[][][] panamax = new double[w][maxThreads + 1][rounds];
        double[][][] torch = new double[w][maxThreads + 1][rounds];
        List<PeerProcess> peers = new ArrayList<>();
        List<MlpStep> steps = new ArrayList<>();
        try {
            if (python.isPresent()) {
                peers.add(null); // index 0 unused: peers.get(t) runs t threads
                for (int t = 1; t <= maxThreads; t++) peers.add(PeerProcess.start(python.get(), t));
            }
            for (Workload wl : WORKLOADS) steps.add(new MlpStep(wl.batch(), wl.sizes()));
            for (int t = 1; t <= maxThreads; t++) {
                int threads = t;
                ThreadBudget.withThreads(threads, () -> steps.forEach(MlpStep::step)); // warm-up at every count
            }
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < maxThreads; i++) {
                    int t = 1 + (i + r) % maxThreads;
                    PythonPeers.say("thread scaling: round " + (r + 1) + "/" + rounds + ", " + t + " thread(s)");
                    for (int k = 0; k < w; k++) {
                        Workload wl = WORKLOADS.get(k);
                        MlpStep step = steps.get(k);
                        int round = r;
                        int[] at = {k, t};
                        ThreadBudget.withThreads(t, () -> panamax[at[0]][at[1]][round] = msPerStep(step, wl.steps()));
                        if (!peers.isEmpty()) {
                            Map<String, Double> f = peers.get(t).measure(wl.peerCommand());
                            torch[k][t][r] = f.get("torch." + wl.name() + ".step.ms");
                        }
                    }
                }
            }
        } finally {
            for (MlpStep s : steps) s.close();
            for (PeerProcess p : peers) if (p != null) p.close();
        }
        List<Result> out = new ArrayList<>();
        for (int k = 0; k < w; k++) {
            String name = WORKLOADS.get(k).name();
            for (int t = 1; t <= maxThreads; t++) {
                String ours = "tensor.threads" + t + "." + name + ".step.ms", theirs = "torch.threads" + t + "." + name + ".step.ms";
                out.add(Result.of(ours, "ms", panamax[k][t], peers.isEmpty() ? "" : theirs));
                if (t > 1) out.add(Result.of(ours + ".vs1", "x", ratios(panamax[k][t], panamax[k][1]), ""));
                if (peers.isEmpty()) continue;
                out.add(Result.of(theirs, "ms", torch[k][t], ""));
                if (t > 1) out.add(Result.of(theirs + ".vs1", "x", ratios(torch[k][t], torch[k][1]), ""));
                out.add(Result.of(ours + ".vsTorch", "x", ratios(panamax[k][t], torch[k][t]), ""));
            }
        }
        return out;
    }

    private static double msPerStep(MlpStep step, int steps) {
        long t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) step.step();
        return (System.nanoTime() - t0) / 1e6 / steps;
    }

    /** Round by round, {@code a[r] / b[r]}. */
    private static double[] ratios(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i] / b[i];
        return r;
    }
}

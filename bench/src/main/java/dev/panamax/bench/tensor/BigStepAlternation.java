package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The big training step (batch 1024, 784->1024->1024->10, Adam) on Panamax and on PyTorch in
 * alternating rounds of the same length, one thread each, so a noisy neighbour weighs on both:
 * {@code tensor.big.step.ms} against {@code torch.big.step.ms}, and the same in the stepping thread's
 * CPU time ({@code .cpu.ms}: on a shared machine, preemption costs wall time, not CPU time; with one
 * kernel thread the step runs on the calling thread on both sides). Without the Python peers only
 * Panamax's figure is reported.
 */
public final class BigStepAlternation implements Measurement {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final int BATCH = 1024;
    static final int[] SIZES = {784, 1024, 1024, 10};
    static final int STEPS_PER_ROUND = 3;

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int rounds = quick ? 5 : 11;
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        double[] panamax = new double[rounds], torch = new double[rounds], panamaxCpu = new double[rounds], torchCpu = new double[rounds];
        try (MlpStep step = new MlpStep(BATCH, SIZES);
             PeerProcess peers = python.isPresent() ? PeerProcess.start(python.get(), 1) : null) {
            step.step(); // warm-up: first-call paths, Adam's state
            for (int r = 0; r < rounds; r++) {
                PythonPeers.say("big step (batch 1024, 784-1024-1024-10): round " + (r + 1) + "/" + rounds);
                if (peers != null) {
                    Map<String, Double> f = peers.measure("big " + STEPS_PER_ROUND);
                    torch[r] = f.get("torch.big.step.ms");
                    torchCpu[r] = f.get("torch.big.step.cpu.ms");
                }
                long t0 = System.nanoTime(), c0 = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < STEPS_PER_ROUND; i++) step.step();
                panamax[r] = (System.nanoTime() - t0) / 1e6 / STEPS_PER_ROUND;
                panamaxCpu[r] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6 / STEPS_PER_ROUND;
            }
        }
        List<Result> out = new ArrayList<>();
        if (python.isPresent()) {
            out.add(Result.of("torch.big.step.ms", "ms", torch, ""));
            out.add(Result.of("torch.big.step.cpu.ms", "ms", torchCpu, ""));
        }
        out.add(Result.of("tensor.big.step.ms", "ms", panamax, python.isPresent() ? "torch.big.step.ms" : ""));
        out.add(Result.of("tensor.big.step.cpu.ms", "ms", panamaxCpu, python.isPresent() ? "torch.big.step.cpu.ms" : ""));
        return out;
    }
}

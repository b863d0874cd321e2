package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.StepCapture;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Captured steps ({@link StepCapture}) on the cpu backend, side by side in one run:
 * <ul>
 *   <li>{@code tensor.capture.add16.perOp.ns}: a step of 1,000 chained adds of 16 floats, captured;
 *   a replay's wall time (copying the two inputs in, one crossing that runs the 1,000 kernels)
 *   divided by 1,000.</li>
 *   <li>{@code tensor.capture.spiral.step.ms}: the tensor suite's spiral training step
 *   (2-256-256-3, batch 256, cross-entropy, backward, Adam lr 1e-3), captured and replayed;
 *   {@code tensor.capture.spiral.eager.ms}: the same step run eagerly (lazy recording, as
 *   {@code SpiralStep}); {@code torch.capture.spiral.step.ms}: PyTorch CPU eager's step in the same
 *   rounds (one intra-op thread, the peer's {@code spiral} command), and
 *   {@code tensor.capture.spiral.step.vsTorch}: captured over PyTorch, round by round.</li>
 * </ul>
 * Each round measures every figure once, in turn; the figures are the rounds' medians and spreads.
 * The {@code .cpu} figures are the same in the measuring thread's CPU time (the peer's
 * {@code time.thread_time_ns}): what a shared machine's preemption does not inflate. Every kernel runs on
 * the measuring thread (one thread, {@code panamax.threads} 1 by default on two cores).
 */
public final class CaptureFigures implements Measurement {
    private static final int ADDS = 1000;

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int rounds = quick ? 3 : 7, replays = quick ? 200 : 2000, steps = quick ? 20 : 100;
        double[] perOp = new double[rounds], captured = new double[rounds], eager = new double[rounds], torch = new double[rounds];
        double[] perOpCpu = new double[rounds], capturedCpu = new double[rounds], eagerCpu = new double[rounds], torchCpu = new double[rounds];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Optional<Path> python = PythonPeers.ensure(PythonPeers.defaultEnvironment());
        PeerProcess peer = python.isPresent() ? PeerProcess.start(python.get(), 1) : null;
        try (var _ = Backends.using("cpu"); var _ = TensorScope.open()) {
            Tensor a = Tensor.uniform(new SplittableRandom(2), 0, 1, 16), b = Tensor.uniform(new SplittableRandom(3), 0, 1, 16);
            try (StepCapture adds = StepCapture.ofTensor(in -> {
                    Tensor x = in[0];
                    for (int i = 0; i < ADDS; i++) x = x.add(in[1]);
                    return x;
                });
                 SpiralStep eagerSpiral = new SpiralStep(); SpiralStep capturedSpiral = new SpiralStep();
                 StepCapture spiralStep = StepCapture.ofTensor(in -> capturedSpiral.step(in[0], in[1]))) {
                for (int i = 0; i < 3; i++) adds.run(a, b); // warm-up, capture, first replay
                for (int i = 0; i < 10; i++) {
                    eagerSpiral.step();
                    spiralStep.run(capturedSpiral.x(), capturedSpiral.y());
                }
                if (peer != null) peer.measure("spiral 10");
                for (int r = 0; r < rounds; r++) {
                    PythonPeers.say("capture: round " + (r + 1) + "/" + rounds);
                    long t0 = System.nanoTime(), c0 = cpu.getCurrentThreadCpuTime();
                    for (int i = 0; i < replays; i++) adds.run(a, b);
                    perOp[r] = (System.nanoTime() - t0) / (double) replays / ADDS;
                    perOpCpu[r] = (cpu.getCurrentThreadCpuTime() - c0) / (double) replays / ADDS;
                    t0 = System.nanoTime();
                    c0 = cpu.getCurrentThreadCpuTime();
                    for (int i = 0; i < steps; i++) spiralStep.run(capturedSpiral.x(), capturedSpiral.y());
                    captured[r] = (System.nanoTime() - t0) / 1e6 / steps;
                    capturedCpu[r] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6 / steps;
                    t0 = System.nanoTime();
                    c0 = cpu.getCurrentThreadCpuTime();
                    for (int i = 0; i < steps; i++) eagerSpiral.step();
                    Backends.syncAll();
                    eager[r] = (System.nanoTime() - t0) / 1e6 / steps;
                    eagerCpu[r] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6 / steps;
                    if (peer != null) {
                        var m = peer.measure("spiral " + steps);
                        torch[r] = m.get("torch.spiral.step.ms");
                        torchCpu[r] = m.get("torch.spiral.step.cpu.ms");
                    }
                }
                double loss = spiralStep.run(capturedSpiral.x(), capturedSpiral.y())[0].item();
                if (!Double.isFinite(loss)) throw new IllegalStateException("captured spiral step: loss " + loss + "; expected a finite loss");
            }
        } finally {
            if (peer != null) peer.close();
        }
        List<Result> out = new ArrayList<>();
        out.add(Result.of("tensor.capture.add16.perOp.ns", "ns", perOp, ""));
        out.add(Result.of("tensor.capture.add16.perOp.cpu.ns", "ns", perOpCpu, ""));
        out.add(Result.of("tensor.capture.spiral.step.ms", "ms", captured, peer == null ? "" : "torch.capture.spiral.step.ms"));
        out.add(Result.of("tensor.capture.spiral.step.cpu.ms", "ms", capturedCpu, peer == null ? "" : "torch.capture.spiral.step.cpu.ms"));
        out.add(Result.of("tensor.capture.spiral.eager.ms", "ms", eager, ""));
        out.add(Result.of("tensor.capture.spiral.eager.cpu.ms", "ms", eagerCpu, ""));
        if (peer != null) {
            out.add(Result.of("torch.capture.spiral.step.ms", "ms", torch, ""));
            out.add(Result.of("torch.capture.spiral.step.cpu.ms", "ms", torchCpu, ""));
            out.add(Result.of("tensor.capture.spiral.step.vsTorch", "x", DeviceFigures.ratios(captured, torch), ""));
            out.add(Result.of("tensor.capture.spiral.step.cpu.vsTorch", "x", DeviceFigures.ratios(capturedCpu, torchCpu), ""));
        }
        return out;
    }
}

package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.cpu.CpuBackend;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The spiral training step with lazy execution against one crossing per kernel, timed in the
 * calling thread's CPU time as well as wall time, in alternating rounds: on a shared machine a
 * thread that is preempted loses wall time but not CPU time, so the CPU figures compare the two
 * ways of crossing even when other processes hold the cores. One thread ({@code panamax.threads=1}
 * by default on 2 cores), so the thread's CPU time is the step's. Figures:
 * {@code tensor.spiral.step.cpu.ms}, {@code tensor.spiral.step.perOp.cpu.ms} and their wall-time
 * twins {@code .wall.ms}.
 */
public final class StepCpuTime implements Measurement {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) {
        int rounds = quick ? 7 : 15, steps = 100;
        CpuBackend lazy = new CpuBackend(true, 1024), perOp = new CpuBackend(false, 1);
        double[][] cpu = new double[2][rounds], wall = new double[2][rounds];
        SpiralStep[] trainers = new SpiralStep[2];
        CpuBackend[] backends = {lazy, perOp};
        for (int b = 0; b < 2; b++) {
            try (var _ = Backends.using(backends[b])) {
                trainers[b] = new SpiralStep();
                for (int i = 0; i < 50; i++) trainers[b].step();
            }
        }
        for (int r = 0; r < rounds; r++) {
            System.err.println("spiral step, lazy and one crossing per kernel: round " + (r + 1) + "/" + rounds);
            for (int b = 0; b < 2; b++) {
                try (var _ = Backends.using(backends[b])) {
                    long c = THREADS.getCurrentThreadCpuTime(), w = System.nanoTime();
                    for (int i = 0; i < steps; i++) trainers[b].step();
                    cpu[b][r] = (THREADS.getCurrentThreadCpuTime() - c) / 1e6 / steps;
                    wall[b][r] = (System.nanoTime() - w) / 1e6 / steps;
                }
            }
        }
        for (int b = 0; b < 2; b++) {
            try (var _ = Backends.using(backends[b])) {
                trainers[b].close();
            }
        }
        List<Result> out = new ArrayList<>();
        out.add(Result.of("tensor.spiral.step.cpu.ms", "ms", cpu[0], "torch.spiral.step.cpu.ms"));
        out.add(Result.of("tensor.spiral.step.perOp.cpu.ms", "ms", cpu[1], "tensor.spiral.step.cpu.ms"));
        out.add(Result.of("tensor.spiral.step.wall.ms", "ms", wall[0], ""));
        out.add(Result.of("tensor.spiral.step.perOp.wall.ms", "ms", wall[1], "tensor.spiral.step.wall.ms"));
        long crossings = lazy.counters().get("crossings"), kernels = lazy.counters().get("kernels");
        out.add(Result.single("tensor.spiral.step.kernelsPerCrossing", "kernels", (double) kernels / Math.max(1, crossings)));
        return out;
    }
}

package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.cpu.CpuBackend;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * {@code tensor.op.add16.ns} and {@code tensor.op.add16.batched.ns} (the same ops as
 * {@link TensorOpBench}) in the calling thread's CPU time: {@code tensor.op.add16.cpu.ns} (one add
 * into a new tensor, run by its sync, freed) and {@code tensor.op.add16.batched.cpu.ns} (per add, 1,000
 * recorded, run in one crossing, freed with their scope). Alternating rounds of 200,000 adds after a
 * warm-up; on a shared machine CPU time leaves out the time other processes hold the core.
 */
public final class OpCpuTime implements Measurement {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int OPS = 200_000;

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) {
        int rounds = quick ? 7 : 15;
        double[] single = new double[rounds], batched = new double[rounds];
        try (var _ = Backends.using(Backends.get(CpuBackend.NAME)); var _ = TensorScope.open()) {
            Tensor a = Tensor.ones(16), b = Tensor.full(2, 16);
            for (int w = 0; w < 5; w++) {
                single(a, b);
                batched(a, b);
            }
            for (int r = 0; r < rounds; r++) {
                System.err.println("add16 in CPU time: round " + (r + 1) + "/" + rounds);
                long c = THREADS.getCurrentThreadCpuTime();
                single(a, b);
                single[r] = (double) (THREADS.getCurrentThreadCpuTime() - c) / OPS;
                c = THREADS.getCurrentThreadCpuTime();
                batched(a, b);
                batched[r] = (double) (THREADS.getCurrentThreadCpuTime() - c) / OPS;
            }
        }
        return List.of(Result.of("tensor.op.add16.cpu.ns", "ns", single, "numpy.op.add16.ns"),
                Result.of("tensor.op.add16.batched.cpu.ns", "ns", batched, "tensor.op.add16.cpu.ns"));
    }

    private static void single(Tensor a, Tensor b) {
        for (int i = 0; i < OPS; i++) {
            try (Tensor c = a.add(b)) {
                c.sync();
            }
        }
    }

    private static void batched(Tensor a, Tensor b) {
        for (int k = 0; k < OPS / 1000; k++) {
            try (var _ = TensorScope.open()) {
                Tensor last = null;
                for (int i = 0; i < 1000; i++) last = a.add(b);
                last.sync();
            }
        }
    }
}

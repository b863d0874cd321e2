package dev.panamax.bench.tensor;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.cpu.CpuBackend;
import dev.panamax.tensor.cpu.ThreadBudget;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code tensor.matmul1024.gflops}: a 1024 x 1024 f32 product through the tensor API on the cpu
 * backend (result allocated, run, read back through a sync, freed), against
 * {@code openblas.matmul1024.gflops}: {@code cblas_sgemm} called directly on native memory made once.
 * Both run on one thread ({@code panamax.threads=1} holds OpenBLAS at one thread as well), in
 * alternating rounds in this JVM, so both see the same machine; each figure is the median over the
 * rounds.
 */
public final class MatmulFigures implements Measurement {
    private static final int N = 1024;
    private static final double FLOP = 2.0 * N * N * N;

    @Override
    public String suite() {
        return "tensor";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        if (ThreadBudget.threads() != 1) {
            System.err.println("matmul figures: panamax.threads=" + ThreadBudget.threads() + " (the figures are for 1 thread)");
        }
        Backends.use(CpuBackend.NAME);
        int rounds = quick ? 5 : 15;
        double[] tensor = new double[rounds];
        double[] blas = new double[rounds];
        double[] tensorCpu = new double[rounds];
        double[] blasCpu = new double[rounds];
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        MethodHandle sgemm = NativeLibrary.load("libopenblas.so.0").downcall("cblas_sgemm", FunctionDescriptor.ofVoid(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_FLOAT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_FLOAT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), Tier.STANDARD);
        var rng = new SplittableRandom(3);
        try (Arena arena = Arena.ofConfined(); var _ = TensorScope.open()) {
            Tensor a = Tensor.uniform(rng, -1, 1, N, N), b = Tensor.uniform(rng, -1, 1, N, N);
            MemorySegment ma = arena.allocate((long) N * N * 4, 64), mb = arena.allocate((long) N * N * 4, 64),
                    mc = arena.allocate((long) N * N * 4, 64);
            ma.copyFrom(MemorySegment.ofArray(a.toFloatArray()));
            mb.copyFrom(MemorySegment.ofArray(b.toFloatArray()));
            for (int warm = 0; warm < 2; warm++) {
                product(a, b);
                direct(sgemm, ma, mb, mc);
            }
            for (int r = 0; r < rounds; r++) {
                System.err.println("matmul 1024: round " + (r + 1) + "/" + rounds);
                long c = threads.getCurrentThreadCpuTime(), t = System.nanoTime();
                product(a, b);
                tensor[r] = FLOP / (System.nanoTime() - t);
                tensorCpu[r] = FLOP / (threads.getCurrentThreadCpuTime() - c);
                c = threads.getCurrentThreadCpuTime();
                t = System.nanoTime();
                direct(sgemm, ma, mb, mc);
                blas[r] = FLOP / (System.nanoTime() - t);
                blasCpu[r] = FLOP / (threads.getCurrentThreadCpuTime() - c);
            }
        }
        List<Result> out = new ArrayList<>();
        out.add(Result.of("openblas.matmul1024.gflops", "GFLOPS", blas, ""));
        out.add(Result.of("tensor.matmul1024.gflops", "GFLOPS", tensor, "openblas.matmul1024.gflops"));
        out.add(Result.of("openblas.matmul1024.cpu.gflops", "GFLOPS", blasCpu, ""));
        out.add(Result.of("tensor.matmul1024.cpu.gflops", "GFLOPS", tensorCpu, "openblas.matmul1024.cpu.gflops"));
        return out;
    }

    private static void direct(MethodHandle sgemm, MemorySegment a, MemorySegment b, MemorySegment c) {
        try {
            sgemm.invokeExact(101, 111, 111, N, N, N, 1f, a, N, b, N, 0f, c, N); // row-major, no transposes
        } catch (Throwable t) {
            throw new IllegalStateException("cblas_sgemm failed", t);
        }
    }

    private static void product(Tensor a, Tensor b) {
        try (Tensor c = a.matmul(b)) {
            c.sync();
        }
    }
}

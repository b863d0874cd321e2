package dev.panamax.bench.tensor;

import dev.panamax.bench.Figure;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.cpu.CpuBackend;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Panamax's side of the tensor suite's op figures, on the cpu backend with one thread:
 * <ul>
 *   <li>{@code tensor.op.add16.ns}: one add of two 16-element f32 tensors into a new tensor, run (the
 *       result is synced, as a read would) and freed: NumPy's {@code c = a + b};</li>
 *   <li>{@code tensor.op.add16.batched.ns}: per add, 1,000 such adds recorded, run in one crossing at
 *       the sync, and their results freed (the whole API cost, storage included);</li>
 *   <li>{@code tensor.spiral.step.ms} and {@code tensor.spiral.step.perOp.ms}: the spiral training
 *       step with lazy execution (one crossing per recording) and with one crossing per kernel.</li>
 * </ul>
 * The native share of a batched add (the crossing's run time per kernel) is
 * {@link BatchedReplay}'s figure.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 1, jvmArgsAppend = {"-Dpanamax.threads=1", "-Dpanamax.leakDetection=DISABLED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TensorOpBench {
    private Tensor a;
    private Tensor b;
    private SpiralStep lazyStep;
    private SpiralStep perOpStep;
    private CpuBackend lazy;
    private CpuBackend perOp;

    @Setup
    public void setup() {
        lazy = (CpuBackend) Backends.use(CpuBackend.NAME);
        perOp = new CpuBackend(false, 1);
        a = TensorScope.unscoped(() -> Tensor.arange(16).cast(dev.panamax.tensor.DType.F32));
        b = TensorScope.unscoped(() -> Tensor.ones(16));
        lazyStep = new SpiralStep();
        try (var _ = Backends.using(perOp)) {
            perOpStep = new SpiralStep();
        }
    }

    @TearDown
    public void tearDown() {
        lazyStep.close();
        try (var _ = Backends.using(perOp)) {
            perOpStep.close();
        }
        a.close();
        b.close();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Figure(value = "tensor.op.add16.ns", baseline = "numpy.op.add16.ns")
    public void add16() {
        try (Tensor c = a.add(b)) {
            c.sync();
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(1000)
    @Figure(value = "tensor.op.add16.batched.ns", baseline = "tensor.op.add16.ns")
    public void add16Batched() {
        try (var _ = TensorScope.open()) {
            Tensor last = null;
            for (int i = 0; i < 1000; i++) last = a.add(b);
            last.sync();
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Figure(value = "tensor.spiral.step.ms", baseline = "torch.spiral.step.ms")
    public void spiralStep() {
        lazyStep.step();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Figure(value = "tensor.spiral.step.perOp.ms", baseline = "tensor.spiral.step.ms")
    public void spiralStepPerOp() {
        try (var _ = Backends.using(perOp)) {
            perOpStep.step();
        }
    }
}

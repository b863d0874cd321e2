package dev.panamax.bench.tensor;

import dev.panamax.bench.Figure;
import dev.panamax.core.BundledNatives;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.batch.Thunk;
import dev.panamax.core.call.NativeLibrary;
import dev.panamax.core.call.Tier;
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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * The native share of a batched add: 1,000 recorded adds of two 16-element f32 tensors (the cpu
 * backend's elementwise kernel, each with its own descriptor and output) run in one crossing
 * through core's batch runner; the figure is the run's time per add. The descriptors are written
 * by the layout {@code tensor/src/main/c/elementwise.c} documents, as the backend writes them for a
 * contiguous add.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Dpanamax.threads=1", "-Dpanamax.leakDetection=DISABLED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BatchedReplay {
    private static final int ADDS = 1000;
    private static final int WORDS = 16; // 10 + 5 * 1 dimension, and a spare word
    private Arena arena;
    private Batch batch;

    @Setup
    public void setup() {
        new CpuBackend(true, ADDS); // loads the kernels with the thread budget applied
        NativeLibrary kernels = NativeLibrary.load(BundledNatives.extract(CpuBackend.class, "libpanamax_tensor.so"));
        Thunk add = kernels.function("pmx_t_elementwise").type(CFunctionType.of(CType.I64, "descriptor", CType.POINTER))
                .tier(Tier.BATCHED).recorder().asCritical().thunk();
        arena = Arena.ofConfined();
        MemorySegment a = arena.allocate(64, 64), b = arena.allocate(64, 64);
        for (int i = 0; i < 16; i++) {
            a.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            b.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1);
        }
        batch = Batch.create(BatchMode.CRITICAL, ADDS);
        for (int i = 0; i < ADDS; i++) {
            MemorySegment out = arena.allocate(64, 64);
            MemorySegment d = arena.allocate(8L * WORDS, 64);
            long[] words = {32 /* ADD */, 1, 16, 0, out.address(), a.address(), b.address(), 0, 0, 0,
                    16 /* shape */, 1, 1, 1, 0 /* strides: out, a, b, (none) */};
            for (int w = 0; w < words.length; w++) d.setAtIndex(ValueLayout.JAVA_LONG, w, words[w]);
            batch.add(add).params().setAddress(0, d);
        }
        batch.run();
    }

    @TearDown
    public void tearDown() {
        batch.close();
        arena.close();
    }

    @Benchmark
    @OperationsPerInvocation(ADDS)
    @Figure(value = "tensor.op.add16.batched.run.ns", baseline = "tensor.op.add16.batched.ns")
    public void replay() {
        batch.run();
    }
}

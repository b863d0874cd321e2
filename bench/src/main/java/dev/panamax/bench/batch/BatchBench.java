package dev.panamax.bench.batch;

import dev.panamax.bench.Figure;
import dev.panamax.core.abi.FfmLayouts;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.core.batch.ParamBlock;
import dev.panamax.core.batch.Thunk;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

/**
 * N calls of a trivial function ({@code int32_t pmxb_inc(int32_t)}): batched (replay and fresh, in
 * both modes) against N STANDARD and N CRITICAL downcalls and a C loop making the N calls (the floor).
 * Each figure is the time of all N calls; {@link BatchCostModel} turns them into ns per call,
 * speedups and the fit cost(N) = a + bN.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BatchBench {
    @Param({"1", "2", "5", "10", "20", "50", "100", "1000"})
    public int n;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle INC_STANDARD;
    private static final MethodHandle INC_CRITICAL;
    private static final MethodHandle CLOOP;
    private static final MemorySegment INC;
    private static final Thunk INC_THUNK;

    static {
        INC = BatchNatives.lookup().find(BatchNatives.INC.symbol()).orElseThrow();
        FunctionDescriptor d = FfmLayouts.descriptorOf(BatchNatives.INC.type());
        INC_STANDARD = LINKER.downcallHandle(INC, d);
        INC_CRITICAL = LINKER.downcallHandle(INC, d, Linker.Option.critical(false));
        CLOOP = LINKER.downcallHandle(BatchNatives.lookup().find("pmxb_cloop").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                Linker.Option.critical(false));
        INC_THUNK = Thunk.find(BatchNatives.lookup(), BatchNatives.INC).asCritical();
    }

    private Batch standard;
    private Batch critical;
    private ParamBlock[] standardBlocks;
    private long[] standardOffsets;
    private long[] criticalOffsets;
    private int fresh;

    @Setup(Level.Trial)
    public void setUp() {
        standard = Batch.create(BatchMode.STANDARD, n);
        critical = Batch.create(BatchMode.CRITICAL, n);
        standardBlocks = new ParamBlock[n];
        standardOffsets = new long[n];
        criticalOffsets = new long[n];
        for (int i = 0; i < n; i++) {
            standardBlocks[i] = standard.add(INC_THUNK).params().setInt(0, i);
            criticalOffsets[i] = critical.add(INC_THUNK).params().setInt(0, i).offsetOf(0);
        }
        for (int i = 0; i < n; i++) standardOffsets[i] = standardBlocks[i].offsetOf(0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        standard.close();
        critical.close();
    }

    @Benchmark
    @Figure(value = "batch.{n}.perBatch", baseline = "standard.{n}.perBatch")
    public void batchReplay() {
        standard.run();
    }

    @Benchmark
    @Figure(value = "batch.critical.{n}.perBatch", baseline = "critical.{n}.perBatch")
    public void batchReplayCritical() {
        critical.run();
    }

    /** Fresh arguments through the batch's argument area: one segment, one offset per entry. */
    @Benchmark
    @Figure(value = "batch.fresh.{n}.perBatch", baseline = "standard.{n}.perBatch")
    public void batchFresh() {
        int base = fresh++;
        MemorySegment args = standard.arguments();
        long[] offsets = standardOffsets;
        for (int i = 0; i < offsets.length; i++) args.set(ValueLayout.JAVA_INT, offsets[i], base + i);
        standard.run();
    }

    @Benchmark
    @Figure(value = "batch.fresh.critical.{n}.perBatch", baseline = "critical.{n}.perBatch")
    public void batchFreshCritical() {
        int base = fresh++;
        MemorySegment args = critical.arguments();
        long[] offsets = criticalOffsets;
        for (int i = 0; i < offsets.length; i++) args.set(ValueLayout.JAVA_INT, offsets[i], base + i);
        critical.run();
    }

    /** Fresh arguments through each entry's type-checked {@code ParamBlock.setInt}. */
    @Benchmark
    @Figure(value = "batch.fresh.setters.{n}.perBatch", baseline = "standard.{n}.perBatch")
    public void batchFreshSetters() {
        int base = fresh++;
        ParamBlock[] blocks = standardBlocks;
        for (int i = 0; i < blocks.length; i++) blocks[i].setInt(0, base + i);
        standard.run();
    }

    @Benchmark
    @Figure("standard.{n}.perBatch")
    public long standardDowncalls() throws Throwable {
        long sum = 0;
        for (int i = 0; i < n; i++) sum += (int) INC_STANDARD.invokeExact(i);
        return sum;
    }

    @Benchmark
    @Figure("critical.{n}.perBatch")
    public long criticalDowncalls() throws Throwable {
        long sum = 0;
        for (int i = 0; i < n; i++) sum += (int) INC_CRITICAL.invokeExact(i);
        return sum;
    }

    @Benchmark
    @Figure("cloop.{n}.perBatch")
    public long cLoop() throws Throwable {
        return (long) CLOOP.invokeExact(INC, n);
    }
}

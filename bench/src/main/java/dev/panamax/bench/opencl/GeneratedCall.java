package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClPlatformId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * A trivial call, generated against hand-written: {@code clGetPlatformIDs(1, platforms, count)}
 * after the ICD loader has cached its answer (the first call in the setup loads the drivers), so the
 * figure is the binding's crossing plus a copy inside the loader. Raw: {@link RawCl}'s hand-written
 * FFM handle; generated: the raw layer {@link CL} (same tier, standard, as opencl.yaml declares);
 * typed: {@link CLApi} (Java arrays staged in scratch memory, handles wrapped, status checked).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GeneratedCall {
    private Arena arena;
    private MemorySegment platforms;
    private MemorySegment count;
    private final int[] typedCount = new int[1];

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        arena = Arena.ofConfined();
        platforms = arena.allocate(ValueLayout.ADDRESS);
        count = arena.allocate(ValueLayout.JAVA_INT);
        int status = (int) RawCl.clGetPlatformIDs.invokeExact(1, platforms, count);
        if (status != TinyKernel.CL_SUCCESS || count.get(ValueLayout.JAVA_INT, 0) == 0) throw TinyKernel.noPlatform("raw FFM", status);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    @Figure("raw.call.clGetPlatformIDs.ns")
    public int raw() throws Throwable {
        return (int) RawCl.clGetPlatformIDs.invokeExact(1, platforms, count);
    }

    @Benchmark
    @Figure(value = "panamax.call.clGetPlatformIDs.ns", baseline = "raw.call.clGetPlatformIDs.ns")
    public int generated() {
        return CL.clGetPlatformIDs(1, platforms, count);
    }

    /**
     * A call of nine arguments, seven of them pointers: clEnqueueNDRangeKernel on a NULL queue, which the
     * ICD loader refuses at once (CL_INVALID_COMMAND_QUEUE), so the figure is the crossing with the
     * arguments of a real enqueue. Hand-written FFM.
     */
    @Benchmark
    public int enqueueRefusedRaw() throws Throwable {
        return (int) RawCl.clEnqueueNDRangeKernel.invokeExact(MemorySegment.NULL, MemorySegment.NULL, 1, MemorySegment.NULL,
                count, MemorySegment.NULL, 0, MemorySegment.NULL, MemorySegment.NULL);
    }

    /** The same through the generated raw layer. */
    @Benchmark
    public int enqueueRefusedGenerated() {
        return CL.clEnqueueNDRangeKernel(MemorySegment.NULL, MemorySegment.NULL, 1, MemorySegment.NULL,
                count, MemorySegment.NULL, 0, MemorySegment.NULL, MemorySegment.NULL);
    }

    @Benchmark
    @Figure(value = "panamax.typed.call.clGetPlatformIDs.ns", baseline = "raw.call.clGetPlatformIDs.ns")
    public int typed() {
        CLApi.clGetPlatformIDs((ClPlatformId[]) null, typedCount);
        return typedCount[0];
    }
}

package dev.panamax.bench.calls;

import dev.panamax.bench.Figure;
import dev.panamax.core.call.Param;
import dev.panamax.core.call.Tier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Sum of N floats held in a Java float[]: passed in place (CRITICAL_HEAP), staged through a copy
 * (CRITICAL with an array parameter), against the same floats already in native memory.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ArraySumBench {
    static final FunctionDescriptor SUM = FunctionDescriptor.of(JAVA_FLOAT, ADDRESS, JAVA_LONG);
    static final MethodHandle NATIVE_SUM = BenchLibrary.PANAMAX.downcall("bench_sum_f32", SUM, Tier.CRITICAL);
    static final MethodHandle HEAP_SUM = BenchLibrary.PANAMAX.function("bench_sum_f32").returns(JAVA_FLOAT)
            .params(Param.in(float[].class), Param.of(JAVA_LONG))
            .tier(Tier.CRITICAL_HEAP).link();
    static final MethodHandle COPY_SUM = BenchLibrary.PANAMAX.function("bench_sum_f32").returns(JAVA_FLOAT)
            .params(Param.in(float[].class), Param.of(JAVA_LONG))
            .tier(Tier.CRITICAL).link();
    static final MethodHandle RAW_HEAP_SUM = BenchLibrary.raw("bench_sum_f32", SUM, Linker.Option.critical(true));

    @org.openjdk.jmh.annotations.Param({"16", "1k", "1m"})
    public String size;

    float[] values;
    long n;
    Arena arena;
    MemorySegment nativeValues;

    @Setup
    public void setup() {
        int count = switch (size) {
            case "16" -> 16;
            case "1k" -> 1024;
            case "1m" -> 1024 * 1024;
            default -> throw new IllegalArgumentException("size=" + size);
        };
        SplittableRandom random = new SplittableRandom(42);
        values = new float[count];
        for (int i = 0; i < count; i++) values[i] = (float) random.nextDouble(-1, 1);
        n = count;
        arena = Arena.ofShared();
        nativeValues = arena.allocate(JAVA_FLOAT, count);
        MemorySegment.copy(values, 0, nativeValues, JAVA_FLOAT, 0, count);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    @Figure("native.sum{size}")
    public float nativeSum() throws Throwable {
        return (float) NATIVE_SUM.invokeExact(nativeValues, n);
    }

    @Benchmark
    @Figure(value = "panamax.heap.sum{size}", baseline = "native.sum{size}")
    public float panamaxHeapSum() throws Throwable {
        return (float) HEAP_SUM.invokeExact(values, n);
    }

    @Benchmark
    @Figure(value = "panamax.copy.sum{size}", baseline = "panamax.heap.sum{size}")
    public float panamaxCopySum() throws Throwable {
        return (float) COPY_SUM.invokeExact(values, n);
    }

    @Benchmark
    @Figure(value = "raw.heap.sum{size}", baseline = "native.sum{size}")
    public float rawHeapSum() throws Throwable {
        return (float) RAW_HEAP_SUM.invokeExact(MemorySegment.ofArray(values), n);
    }

    @Benchmark
    @Figure(value = "jni.critical.sum{size}", baseline = "native.sum{size}")
    public float jniCriticalSum() {
        return JniCalls.sumCritical(values, (int) n);
    }
}

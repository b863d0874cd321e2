package dev.panamax.bench.calls;

import dev.panamax.bench.Figure;
import dev.panamax.core.call.Tier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The cost of crossing: an empty call and a 3-argument call at each tier, Panamax against the same
 * call written by hand in raw FFM (the floor), JNI and JNA direct mapping.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DowncallBench {
    static final FunctionDescriptor NOP = FunctionDescriptor.ofVoid();
    static final FunctionDescriptor ADD3 = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);

    static final MethodHandle RAW_STANDARD_NOP = BenchLibrary.raw("bench_nop", NOP);
    static final MethodHandle RAW_CRITICAL_NOP = BenchLibrary.raw("bench_nop", NOP, Linker.Option.critical(false));
    static final MethodHandle RAW_CRITICAL_HEAP_NOP = BenchLibrary.raw("bench_nop", NOP, Linker.Option.critical(true));
    static final MethodHandle PANAMAX_STANDARD_NOP = BenchLibrary.PANAMAX.downcall("bench_nop", NOP, Tier.STANDARD);
    static final MethodHandle PANAMAX_CRITICAL_NOP = BenchLibrary.PANAMAX.downcall("bench_nop", NOP, Tier.CRITICAL);
    static final MethodHandle PANAMAX_CRITICAL_HEAP_NOP = BenchLibrary.PANAMAX.downcall("bench_nop", NOP, Tier.CRITICAL_HEAP);

    static final MethodHandle RAW_STANDARD_ADD3 = BenchLibrary.raw("bench_add3", ADD3);
    static final MethodHandle RAW_CRITICAL_ADD3 = BenchLibrary.raw("bench_add3", ADD3, Linker.Option.critical(false));
    static final MethodHandle RAW_CRITICAL_HEAP_ADD3 = BenchLibrary.raw("bench_add3", ADD3, Linker.Option.critical(true));
    static final MethodHandle PANAMAX_STANDARD_ADD3 = BenchLibrary.PANAMAX.downcall("bench_add3", ADD3, Tier.STANDARD);
    static final MethodHandle PANAMAX_CRITICAL_ADD3 = BenchLibrary.PANAMAX.downcall("bench_add3", ADD3, Tier.CRITICAL);
    static final MethodHandle PANAMAX_CRITICAL_HEAP_ADD3 = BenchLibrary.PANAMAX.downcall("bench_add3", ADD3, Tier.CRITICAL_HEAP);

    // fields, not constants, so the JIT cannot fold the arguments
    long a = 1, b = 2, c = 3;

    @Benchmark
    @Figure("raw.standard.nop")
    public void rawStandardNop() throws Throwable {
        RAW_STANDARD_NOP.invokeExact();
    }

    @Benchmark
    @Figure(value = "panamax.standard.nop", baseline = "raw.standard.nop")
    public void panamaxStandardNop() throws Throwable {
        PANAMAX_STANDARD_NOP.invokeExact();
    }

    @Benchmark
    @Figure("raw.critical.nop")
    public void rawCriticalNop() throws Throwable {
        RAW_CRITICAL_NOP.invokeExact();
    }

    @Benchmark
    @Figure(value = "panamax.critical.nop", baseline = "raw.critical.nop")
    public void panamaxCriticalNop() throws Throwable {
        PANAMAX_CRITICAL_NOP.invokeExact();
    }

    @Benchmark
    @Figure("raw.criticalHeap.nop")
    public void rawCriticalHeapNop() throws Throwable {
        RAW_CRITICAL_HEAP_NOP.invokeExact();
    }

    @Benchmark
    @Figure(value = "panamax.criticalHeap.nop", baseline = "raw.criticalHeap.nop")
    public void panamaxCriticalHeapNop() throws Throwable {
        PANAMAX_CRITICAL_HEAP_NOP.invokeExact();
    }

    @Benchmark
    @Figure(value = "jni.nop", baseline = "raw.standard.nop")
    public void jniNop() {
        JniCalls.nop();
    }

    @Benchmark
    @Figure(value = "jna.nop", baseline = "raw.standard.nop")
    public void jnaNop() {
        JnaCalls.bench_nop();
    }

    @Benchmark
    @Figure("raw.standard.add3")
    public long rawStandardAdd3() throws Throwable {
        return (long) RAW_STANDARD_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure(value = "panamax.standard.add3", baseline = "raw.standard.add3")
    public long panamaxStandardAdd3() throws Throwable {
        return (long) PANAMAX_STANDARD_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure("raw.critical.add3")
    public long rawCriticalAdd3() throws Throwable {
        return (long) RAW_CRITICAL_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure(value = "panamax.critical.add3", baseline = "raw.critical.add3")
    public long panamaxCriticalAdd3() throws Throwable {
        return (long) PANAMAX_CRITICAL_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure("raw.criticalHeap.add3")
    public long rawCriticalHeapAdd3() throws Throwable {
        return (long) RAW_CRITICAL_HEAP_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure(value = "panamax.criticalHeap.add3", baseline = "raw.criticalHeap.add3")
    public long panamaxCriticalHeapAdd3() throws Throwable {
        return (long) PANAMAX_CRITICAL_HEAP_ADD3.invokeExact(a, b, c);
    }

    @Benchmark
    @Figure(value = "jni.add3", baseline = "raw.standard.add3")
    public long jniAdd3() {
        return JniCalls.add3(a, b, c);
    }

    @Benchmark
    @Figure(value = "jna.add3", baseline = "raw.standard.add3")
    public long jnaAdd3() {
        return JnaCalls.bench_add3(a, b, c);
    }
}

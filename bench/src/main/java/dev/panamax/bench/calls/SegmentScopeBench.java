package dev.panamax.bench.calls;

import dev.panamax.core.call.ScratchStack;
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
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * What the memory session of a pointer argument costs a standard-tier downcall: the FFM linker keeps a
 * segment's session alive across the call, which for a confined arena is a count, for a shared arena two
 * atomic operations, and for an automatic arena's or the global scope's segment nothing. Same function (the
 * sum of one float) and the same float each time; only the session of the segment differs. Also the same
 * call through the handle Panamax links, and through a scratch frame as the typed layer stages a value.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SegmentScopeBench {
    static final FunctionDescriptor SUM_DESCRIPTOR = FunctionDescriptor.of(JAVA_FLOAT, ADDRESS, JAVA_LONG);
    /** Linked by hand, straight from the linker. */
    static final MethodHandle SUM = BenchLibrary.raw("bench_sum_f32", SUM_DESCRIPTOR);
    /** Linked by Panamax at the standard tier, as generated raw layers link. */
    static final MethodHandle PANAMAX_SUM = BenchLibrary.PANAMAX.function("bench_sum_f32").returns(JAVA_FLOAT)
            .params(ADDRESS, JAVA_LONG).tier(Tier.STANDARD).link();

    Arena confined;
    Arena shared;
    MemorySegment inConfined;
    MemorySegment inShared;
    MemorySegment inAuto;
    MemorySegment inGlobalScope;

    @Setup
    public void setup() {
        confined = Arena.ofConfined();
        shared = Arena.ofShared();
        inConfined = confined.allocateFrom(JAVA_FLOAT, 1f);
        inShared = shared.allocateFrom(JAVA_FLOAT, 1f);
        inAuto = Arena.ofAuto().allocateFrom(JAVA_FLOAT, 1f);
        // the same memory as inConfined, seen through a segment of the global scope
        inGlobalScope = MemorySegment.ofAddress(inConfined.address()).reinterpret(Float.BYTES);
    }

    @TearDown
    public void tearDown() {
        shared.close();
        confined.close();
    }

    @Benchmark
    public float confinedArena() throws Throwable {
        return (float) SUM.invokeExact(inConfined, 1L);
    }

    @Benchmark
    public float sharedArena() throws Throwable {
        return (float) SUM.invokeExact(inShared, 1L);
    }

    @Benchmark
    public float autoArena() throws Throwable {
        return (float) SUM.invokeExact(inAuto, 1L);
    }

    @Benchmark
    public float globalScope() throws Throwable {
        return (float) SUM.invokeExact(inGlobalScope, 1L);
    }

    /** The same call as {@link #confinedArena()} through the handle Panamax links. */
    @Benchmark
    public float confinedArenaPanamaxLinked() throws Throwable {
        return (float) PANAMAX_SUM.invokeExact(inConfined, 1L);
    }

    /** The typed layer's way: the float staged in a scratch frame, the frame's segment passed. */
    @Benchmark
    public float scratchFrame() throws Throwable {
        try (ScratchStack.Frame frame = ScratchStack.push()) {
            return (float) PANAMAX_SUM.invokeExact(frame.allocateFrom(JAVA_FLOAT, 1f), 1L);
        }
    }
}

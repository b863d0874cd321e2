package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.memory.BufferPool;
import dev.panamax.core.memory.NativeBuffer;
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
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

/**
 * Getting 64 KiB of native memory and giving it back, each way touching one byte through a
 * segment: a pooled lease (confined and shared), a fresh shared arena, and raw malloc/free.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PoolBench {
    private static final long SIZE = 64 * 1024;
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;

    static {
        Linker linker = Linker.nativeLinker();
        MALLOC = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), Linker.Option.critical(false));
        FREE = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), Linker.Option.critical(false));
    }

    private BufferPool pool;

    @Setup
    public void setup() {
        pool = BufferPool.create();
    }

    @TearDown
    public void tearDown() {
        pool.close();
    }

    @Benchmark
    @Figure(value = "pool.acquireRelease.64k", baseline = "arena.allocateClose.64k")
    public void poolAcquireRelease() {
        NativeBuffer b = pool.acquire(SIZE);
        b.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        b.close();
    }

    @Benchmark
    @Figure(value = "pool.acquireSharedRelease.64k", baseline = "arena.allocateClose.64k")
    public void poolAcquireSharedRelease() {
        NativeBuffer b = pool.acquireShared(SIZE);
        b.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        b.close();
    }

    @Benchmark
    @Figure("arena.allocateClose.64k")
    public void arenaAllocateClose() {
        try (Arena arena = Arena.ofShared()) {
            arena.allocate(SIZE).set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        }
    }

    @Benchmark
    @Figure(value = "malloc.free.64k", baseline = "arena.allocateClose.64k")
    public void mallocFree() throws Throwable {
        MemorySegment s = (MemorySegment) MALLOC.invokeExact(SIZE);
        s.reinterpret(SIZE).set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        FREE.invokeExact(s);
    }
}

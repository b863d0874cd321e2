package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.memory.LeakDetection;
import dev.panamax.core.memory.LeakLevel;
import dev.panamax.core.memory.NativeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * The cost of leak detection: allocate and close a 64-byte {@link NativeBuffer} at each level.
 * JMH runs each level in its own forked JVM; the level is set there before the first handle.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LeakLevelBench {
    @Param({"DISABLED", "SAMPLED", "PARANOID"})
    public String level;

    @Setup
    public void setup() {
        LeakDetection.setLevel(LeakLevel.valueOf(level));
    }

    @Benchmark
    @Figure(value = "buffer.allocateClose.64b.{level}", baseline = "buffer.allocateClose.64b.DISABLED")
    public long allocateClose() {
        NativeBuffer b = NativeBuffer.allocate(64);
        long a = b.address();
        b.close();
        return a;
    }

    @Benchmark
    @Figure(value = "buffer.allocateSegmentClose.64b.{level}", baseline = "buffer.allocateSegmentClose.64b.DISABLED")
    public byte allocateConfinedUseClose() {
        NativeBuffer b = NativeBuffer.allocateConfined(64);
        byte v = b.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 7);
        b.close();
        return v;
    }
}

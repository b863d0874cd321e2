package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.util.concurrent.TimeUnit;

/**
 * What a typed call with race-safe handles costs, on the {@link NullDriver} (the binding's own cost):
 * the round trip (a), an enqueue and a clFinish passing three handles, through the typed layer with
 * its in-call guard and through LWJGL, side by side in each fork. {@link RaceSafeHandlesChecksOff}
 * runs the same with {@code -Dpanamax.checks=false}, which removes the guard.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsPrepend = "--sun-misc-unsafe-memory-access=allow")
public class RaceSafeHandles {
    @Benchmark
    @Figure("panamax.guarded.handles.nullDriver.roundtrip.ns")
    public void guardedRoundtrip(NullDriverBindings b) {
        b.panamax.roundtrip();
    }

    @Benchmark
    @Figure(value = "lwjgl.handles.nullDriver.roundtrip.ns", baseline = "panamax.guarded.handles.nullDriver.roundtrip.ns")
    public void lwjglRoundtrip(NullDriverBindings b) {
        b.lwjgl.roundtrip();
    }
}

package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.util.concurrent.TimeUnit;

/**
 * {@link RaceSafeHandles} in JVMs started with {@code -Dpanamax.checks=false}: the typed round trip with
 * the guard folded away, beside LWJGL.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsPrepend = {"--sun-misc-unsafe-memory-access=allow", "-Dpanamax.checks=false"})
public class RaceSafeHandlesChecksOff {
    @Benchmark
    @Figure("panamax.checksOff.handles.nullDriver.roundtrip.ns")
    public void checksOffRoundtrip(NullDriverBindings b) {
        b.panamax.roundtrip();
    }

    @Benchmark
    @Figure(value = "lwjgl.checksOff.handles.nullDriver.roundtrip.ns", baseline = "panamax.checksOff.handles.nullDriver.roundtrip.ns")
    public void lwjglRoundtrip(NullDriverBindings b) {
        b.lwjgl.roundtrip();
    }
}

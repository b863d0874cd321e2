package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * {@link RaceSafeHandles} in JVMs started with {@code -Dpanamax.checks=false}: the typed round trip with
 * the guard folded away, beside the code before the guard and LWJGL.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(jvmArgsPrepend = {"--sun-misc-unsafe-memory-access=allow", "-Dpanamax.checks=false"})
public class RaceSafeHandlesChecksOff {
    private NullDriver driver;
    private PanamaxDispatch panamax;
    private LwjglDispatch lwjgl;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        driver = new NullDriver();
        panamax = new PanamaxDispatch();
        panamax.adopt(driver.objects());
        lwjgl = new LwjglDispatch();
        lwjgl.adopt(driver.objects());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        try {
            lwjgl.tearDown();
            panamax.tearDown();
        } finally {
            driver.close();
        }
    }

    @Benchmark
    @Figure("panamax.unguarded.checksOff.handles.nullDriver.roundtrip.ns")
    public void unguardedRoundtrip() {
        panamax.roundtripUnguarded();
    }

    @Benchmark
    @Figure(value = "panamax.checksOff.handles.nullDriver.roundtrip.ns", baseline = "panamax.unguarded.checksOff.handles.nullDriver.roundtrip.ns")
    public void checksOffRoundtrip() {
        panamax.roundtrip();
    }

    @Benchmark
    @Figure(value = "lwjgl.checksOff.handles.nullDriver.roundtrip.ns", baseline = "panamax.unguarded.checksOff.handles.nullDriver.roundtrip.ns")
    public void lwjglRoundtrip() {
        lwjgl.roundtrip();
    }
}

package dev.panamax.bench.opencl;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Panamax's generated binding and LWJGL adopting the same {@link NullDriver} objects, for benchmarks that
 * compare the bindings' own cost per call side by side in one fork ({@link RaceSafeHandles},
 * {@link RaceSafeHandlesChecksOff}).
 */
@State(Scope.Thread)
public class NullDriverBindings {
    NullDriver driver;
    PanamaxDispatch panamax;
    LwjglDispatch lwjgl;

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
}

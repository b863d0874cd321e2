package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * The dispatch figures (a)-(c) with the driver taken out: every binding's JMH state, unchanged, drives
 * the {@link NullDriver}'s objects, so each call crosses the binding and the ICD loader and returns
 * CL_SUCCESS at once. What PoCL spends (a microsecond and more per dispatch, with its own noise) is gone
 * and what each binding spends per dispatch is left: (a) an enqueue and a clFinish, (b) one enqueue,
 * (c) three clSetKernelArg and an enqueue.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// LWJGL 3.3 reads memory through sun.misc.Unsafe, which JDK 25 warns about unless allowed
@Fork(jvmArgsPrepend = "--sun-misc-unsafe-memory-access=allow")
public class NullDriverDispatch {
    private NullDriver driver;
    private RawDispatch raw;
    private PanamaxDispatch panamax;
    private LwjglDispatch lwjgl;
    private JoclDispatch jocl;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        driver = new NullDriver();
        raw = new RawDispatch();
        raw.adopt(driver.objects());
        panamax = new PanamaxDispatch();
        panamax.adopt(driver.objects());
        lwjgl = new LwjglDispatch();
        lwjgl.adopt(driver.objects());
        jocl = new JoclDispatch();
        jocl.adopt(driver.objects());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        try {
            jocl.tearDown();
            lwjgl.tearDown();
            panamax.tearDown();
            raw.tearDown();
        } finally {
            driver.close();
        }
    }

    @Benchmark
    @Figure("raw.dispatch.nullDriver.roundtrip.ns")
    public void rawRoundtrip() throws Throwable {
        raw.roundtrip();
    }

    @Benchmark
    @Figure(value = "panamax.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void panamaxRoundtrip() {
        panamax.roundtrip();
    }

    @Benchmark
    @Figure(value = "panamax.rawLayer.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void panamaxRawLayerRoundtrip() {
        panamax.roundtripRawLayer();
    }

    @Benchmark
    @Figure(value = "panamax.typedArray.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void panamaxTypedArrayRoundtrip() {
        panamax.roundtripTypedArray();
    }

    @Benchmark
    @Figure(value = "panamax.batched.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void panamaxBatchedRoundtrip() {
        panamax.roundtripBatched();
    }

    @Benchmark
    @Figure(value = "lwjgl.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void lwjglRoundtrip() {
        lwjgl.roundtrip();
    }

    @Benchmark
    @Figure(value = "lwjgl.stack.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void lwjglStackRoundtrip() {
        lwjgl.roundtripStack();
    }

    @Benchmark
    @Figure(value = "jocl.dispatch.nullDriver.roundtrip.ns", baseline = "raw.dispatch.nullDriver.roundtrip.ns")
    public void joclRoundtrip() {
        jocl.roundtrip();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure("raw.dispatch.nullDriver.batched1000.perKernel.ns")
    public void rawBatched1000() throws Throwable {
        raw.batched1000();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.dispatch.nullDriver.batched1000.perKernel.ns", baseline = "raw.dispatch.nullDriver.batched1000.perKernel.ns")
    public void panamaxBatched1000() {
        panamax.batched1000();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.typed.dispatch.nullDriver.batched1000.perKernel.ns", baseline = "raw.dispatch.nullDriver.batched1000.perKernel.ns")
    public void panamaxTypedBatched1000() {
        panamax.batched1000Typed();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "lwjgl.dispatch.nullDriver.batched1000.perKernel.ns", baseline = "raw.dispatch.nullDriver.batched1000.perKernel.ns")
    public void lwjglBatched1000() {
        lwjgl.batched1000();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "jocl.dispatch.nullDriver.batched1000.perKernel.ns", baseline = "raw.dispatch.nullDriver.batched1000.perKernel.ns")
    public void joclBatched1000() {
        jocl.batched1000();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure("raw.dispatch.nullDriver.setArgs3.ns")
    public void rawSetArgs3() throws Throwable {
        raw.setArgs3();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.dispatch.nullDriver.setArgs3.ns", baseline = "raw.dispatch.nullDriver.setArgs3.ns")
    public void panamaxSetArgs3() {
        panamax.setArgs3();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.typed.dispatch.nullDriver.setArgs3.ns", baseline = "raw.dispatch.nullDriver.setArgs3.ns")
    public void panamaxTypedSetArgs3() {
        panamax.setArgs3Typed();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "lwjgl.dispatch.nullDriver.setArgs3.ns", baseline = "raw.dispatch.nullDriver.setArgs3.ns")
    public void lwjglSetArgs3() {
        lwjgl.setArgs3();
    }

    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "jocl.dispatch.nullDriver.setArgs3.ns", baseline = "raw.dispatch.nullDriver.setArgs3.ns")
    public void joclSetArgs3() {
        jocl.setArgs3();
    }
}

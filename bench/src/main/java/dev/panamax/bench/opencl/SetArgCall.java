package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.ClKernel;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.lwjgl.opencl.CL10;
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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * One {@code clSetKernelArg} of a float through each binding: a driver call that does no device work
 * and wakes no worker thread, so the figure is the binding's own cost plus PoCL copying four bytes.
 * Raw FFM ({@link RawCl}, critical tier as opencl.yaml declares); Panamax's generated raw layer
 * ({@link CL}), its typed layer given the value in a prepared segment ({@link CLApi}), and the helper
 * that takes a Java {@code float} ({@link OpenCl#setArg(ClKernel, int, float)}: the value staged in a
 * scratch frame); LWJGL's {@code clSetKernelArg1f} (the value on its thread-local stack); JOCL with a
 * {@link Pointer} made once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// LWJGL 3.3 reads memory through sun.misc.Unsafe, which JDK 25 warns about unless allowed
@Fork(jvmArgsPrepend = "--sun-misc-unsafe-memory-access=allow")
public class SetArgCall {
    private static final int INDEX = 1;

    private RawDispatch owner;
    private Arena arena;
    private MemorySegment kernel;
    private MemorySegment addend;
    private ClKernel typedKernel;
    private long lwjglKernel;
    private cl_kernel joclKernel;
    private Pointer joclAddend;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        owner = new RawDispatch();
        owner.setup();
        ClObjects objects = owner.objects();
        arena = Arena.ofConfined();
        kernel = objects.kernel();
        addend = arena.allocateFrom(ValueLayout.JAVA_FLOAT, TinyKernel.ADDEND);
        typedKernel = ClKernel.borrowed(kernel);
        LwjglDispatch.loadIcd();
        lwjglKernel = kernel.address();
        joclKernel = JoclDispatch.wrap(new cl_kernel(), kernel);
        joclAddend = Pointer.to(new float[] {TinyKernel.ADDEND});
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        try (Arena _ = arena; ClKernel _ = typedKernel) {
            owner.tearDown();
        }
        LwjglDispatch.releaseIcd();
    }

    @Benchmark
    @Figure("raw.call.clSetKernelArg.ns")
    public int raw() throws Throwable {
        return (int) RawCl.clSetKernelArg.invokeExact(kernel, INDEX, (long) Float.BYTES, addend);
    }

    @Benchmark
    @Figure(value = "panamax.call.clSetKernelArg.ns", baseline = "raw.call.clSetKernelArg.ns")
    public int generated() {
        return CL.clSetKernelArg(kernel, INDEX, Float.BYTES, addend);
    }

    @Benchmark
    @Figure(value = "panamax.typed.call.clSetKernelArg.ns", baseline = "raw.call.clSetKernelArg.ns")
    public void typed() {
        CLApi.clSetKernelArg(typedKernel, INDEX, Float.BYTES, addend);
    }

    @Benchmark
    @Figure(value = "panamax.helper.call.clSetKernelArg.ns", baseline = "raw.call.clSetKernelArg.ns")
    public void helper() {
        OpenCl.setArg(typedKernel, INDEX, TinyKernel.ADDEND);
    }

    @Benchmark
    @Figure(value = "lwjgl.call.clSetKernelArg.ns", baseline = "raw.call.clSetKernelArg.ns")
    public int lwjgl() {
        return CL10.clSetKernelArg1f(lwjglKernel, INDEX, TinyKernel.ADDEND);
    }

    @Benchmark
    @Figure(value = "jocl.call.clSetKernelArg.ns", baseline = "raw.call.clSetKernelArg.ns")
    public int jocl() {
        return org.jocl.CL.clSetKernelArg(joclKernel, INDEX, Sizeof.cl_float, joclAddend);
    }
}

package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.opencl.TinyKernel.check;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * OpenCL dispatch cost on PoCL through hand-written FFM ({@link RawCl}): the floor for the
 * generated binding, side by side with LWJGL ({@link LwjglDispatch}) and JOCL ({@link JoclDispatch}).
 * Every per-call temporary is allocated once in the setup, as a careful hand-written caller would.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RawDispatch {
    private Arena arena;
    private MemorySegment context = MemorySegment.NULL;
    private MemorySegment queue = MemorySegment.NULL;
    private MemorySegment program = MemorySegment.NULL;
    private MemorySegment kernel = MemorySegment.NULL;
    private MemorySegment buffer = MemorySegment.NULL;
    private MemorySegment globalSize;
    private MemorySegment bufferArg;
    private MemorySegment addendArg;
    private MemorySegment countArg;
    /** False when the objects were adopted ({@link #adopt}): then another state releases them. */
    private boolean ownsObjects;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        ownsObjects = true;
        arena = Arena.ofConfined();
        MemorySegment err = arena.allocate(JAVA_INT);
        MemorySegment count = arena.allocate(JAVA_INT);
        MemorySegment platform = arena.allocate(ADDRESS);
        int status = (int) RawCl.clGetPlatformIDs.invokeExact(1, platform, count);
        if (status != TinyKernel.CL_SUCCESS || count.get(JAVA_INT, 0) == 0) throw TinyKernel.noPlatform("raw FFM", status);
        MemorySegment device = arena.allocate(ADDRESS);
        check((int) RawCl.clGetDeviceIDs.invokeExact(platform.get(ADDRESS, 0), TinyKernel.CL_DEVICE_TYPE_ALL, 1, device,
                MemorySegment.NULL), "clGetDeviceIDs");
        context = (MemorySegment) RawCl.clCreateContext.invokeExact(MemorySegment.NULL, 1, device, MemorySegment.NULL,
                MemorySegment.NULL, err);
        check(err.get(JAVA_INT, 0), "clCreateContext");
        MemorySegment dev = device.get(ADDRESS, 0);
        queue = (MemorySegment) RawCl.clCreateCommandQueueWithProperties.invokeExact(context, dev, MemorySegment.NULL, err);
        check(err.get(JAVA_INT, 0), "clCreateCommandQueueWithProperties");
        MemorySegment source = arena.allocate(ADDRESS);
        source.set(ADDRESS, 0, arena.allocateFrom(TinyKernel.SOURCE));
        program = (MemorySegment) RawCl.clCreateProgramWithSource.invokeExact(context, 1, source, MemorySegment.NULL, err);
        check(err.get(JAVA_INT, 0), "clCreateProgramWithSource");
        status = (int) RawCl.clBuildProgram.invokeExact(program, 1, device, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
        if (status != TinyKernel.CL_SUCCESS) throw new IllegalStateException("clBuildProgram failed: status=" + status + " log:\n" + buildLog(dev));
        kernel = (MemorySegment) RawCl.clCreateKernel.invokeExact(program, arena.allocateFrom(TinyKernel.NAME), err);
        check(err.get(JAVA_INT, 0), "clCreateKernel");
        buffer = (MemorySegment) RawCl.clCreateBuffer.invokeExact(context, TinyKernel.CL_MEM_READ_WRITE,
                (long) TinyKernel.ELEMENTS * Float.BYTES, MemorySegment.NULL, err);
        check(err.get(JAVA_INT, 0), "clCreateBuffer");
        prepareArguments();
    }

    /** Drives {@code objects}, made elsewhere, instead of making its own; {@link #tearDown} leaves them alone. */
    void adopt(ClObjects objects) throws Throwable {
        ownsObjects = false;
        arena = Arena.ofConfined();
        context = objects.context();
        queue = objects.queue();
        program = objects.program();
        kernel = objects.kernel();
        buffer = objects.buffer();
        prepareArguments();
    }

    /** The objects this state made, for others to {@link #adopt}. */
    ClObjects objects() {
        return new ClObjects(context, queue, program, kernel, buffer);
    }

    private void prepareArguments() throws Throwable {
        // as LWJGL's work size is held: native memory the garbage collector frees (no session to acquire per call)
        globalSize = Arena.ofAuto().allocateFrom(JAVA_LONG, TinyKernel.GLOBAL_SIZE);
        bufferArg = arena.allocate(ADDRESS);
        bufferArg.set(ADDRESS, 0, buffer);
        addendArg = arena.allocateFrom(JAVA_FLOAT, TinyKernel.ADDEND);
        countArg = arena.allocateFrom(JAVA_INT, TinyKernel.ELEMENTS);
        setArgs();
    }

    private String buildLog(MemorySegment device) throws Throwable {
        MemorySegment size = arena.allocate(JAVA_LONG);
        RawCl.clGetProgramBuildInfo.invokeExact(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, 0L, MemorySegment.NULL, size);
        MemorySegment log = arena.allocate(JAVA_BYTE, Math.max(1, size.get(JAVA_LONG, 0)));
        RawCl.clGetProgramBuildInfo.invokeExact(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, log.byteSize(), log, MemorySegment.NULL);
        return log.getString(0);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Throwable {
        try {
            if (!queue.equals(MemorySegment.NULL)) check((int) RawCl.clFinish.invokeExact(queue), "clFinish");
        } finally {
            try {
                if (ownsObjects) releaseObjects();
            } finally {
                arena.close();
            }
        }
    }

    private void releaseObjects() throws Throwable {
        // every object is released, in reverse order of creation, before any failure is reported
        int kernelStatus = release(RawCl.clReleaseKernel, kernel);
        int programStatus = release(RawCl.clReleaseProgram, program);
        int bufferStatus = release(RawCl.clReleaseMemObject, buffer);
        int queueStatus = release(RawCl.clReleaseCommandQueue, queue);
        int contextStatus = release(RawCl.clReleaseContext, context);
        TinyKernel.checkReleased(kernelStatus, programStatus, bufferStatus, queueStatus, contextStatus);
    }

    private static int release(MethodHandle release, MemorySegment object) throws Throwable {
        return object.equals(MemorySegment.NULL) ? TinyKernel.CL_SUCCESS : (int) release.invokeExact(object);
    }

    private void setArgs() throws Throwable {
        check((int) RawCl.clSetKernelArg.invokeExact(kernel, 0, ADDRESS.byteSize(), bufferArg), "clSetKernelArg");
        check((int) RawCl.clSetKernelArg.invokeExact(kernel, 1, (long) Float.BYTES, addendArg), "clSetKernelArg");
        check((int) RawCl.clSetKernelArg.invokeExact(kernel, 2, (long) Integer.BYTES, countArg), "clSetKernelArg");
    }

    private void enqueue() throws Throwable {
        check((int) RawCl.clEnqueueNDRangeKernel.invokeExact(queue, kernel, 1, MemorySegment.NULL, globalSize,
                MemorySegment.NULL, 0, MemorySegment.NULL, MemorySegment.NULL), "clEnqueueNDRangeKernel");
    }

    /** (a) one tiny kernel, enqueued and waited for. */
    @Benchmark
    @Figure("raw.dispatch.roundtrip.us")
    public void roundtrip() throws Throwable {
        enqueue();
        check((int) RawCl.clFinish.invokeExact(queue), "clFinish");
    }

    /** (b) 1,000 tiny kernels enqueued, then one clFinish; the figure is per kernel. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure("raw.dispatch.batched1000.perKernel.us")
    public void batched1000() throws Throwable {
        for (int i = 0; i < TinyKernel.BATCH; i++) enqueue();
        check((int) RawCl.clFinish.invokeExact(queue), "clFinish");
    }

    /** (c) clSetKernelArg x3 + enqueue, 1,000 times, then one clFinish; the figure is per dispatch. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure("raw.dispatch.setArgs3.us")
    public void setArgs3() throws Throwable {
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            setArgs();
            enqueue();
        }
        check((int) RawCl.clFinish.invokeExact(queue), "clFinish");
    }
}

package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.jocl.CL;
import org.jocl.NativePointerObject;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;
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

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.opencl.TinyKernel.check;

/**
 * The OpenCL dispatch figures through JOCL 2.0 ({@code org.jocl:jocl}, JNI), with its idiomatic fast
 * path: {@link Pointer}s to the argument values made once in the setup rather than per call, and
 * status codes checked by hand (its exception mode off). Same kernel and steps as {@link RawDispatch}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class JoclDispatch {
    private cl_context context;
    private cl_command_queue queue;
    private cl_program program;
    private cl_kernel kernel;
    private cl_mem buffer;
    private final long[] globalSize = {TinyKernel.GLOBAL_SIZE};
    private Pointer bufferArg;
    private Pointer addendArg;
    private Pointer countArg;
    /** False when the objects were adopted ({@link #adopt}): then another state releases them. */
    private boolean ownsObjects;

    /**
     * Drives {@code objects}, made elsewhere, instead of making its own; {@link #tearDown} leaves them alone.
     * JOCL makes its handle objects only from its own native calls, so the address is set reflectively.
     */
    void adopt(ClObjects objects) throws ReflectiveOperationException {
        CL.setExceptionsEnabled(false);
        ownsObjects = false;
        context = wrap(new cl_context(), objects.context());
        queue = wrap(new cl_command_queue(), objects.queue());
        program = wrap(new cl_program(), objects.program());
        kernel = wrap(new cl_kernel(), objects.kernel());
        buffer = wrap(new cl_mem(), objects.buffer());
        prepareArguments();
    }

    static <T extends NativePointerObject> T wrap(T object, java.lang.foreign.MemorySegment address)
            throws ReflectiveOperationException {
        Field pointer = NativePointerObject.class.getDeclaredField("nativePointer");
        pointer.setAccessible(true);
        pointer.setLong(object, address.address());
        return object;
    }

    @Setup(Level.Trial)
    public void setup() {
        ownsObjects = true;
        CL.setExceptionsEnabled(false);
        int[] err = new int[1];
        int[] count = new int[1];
        cl_platform_id[] platform = new cl_platform_id[1];
        int status = CL.clGetPlatformIDs(1, platform, count);
        if (status != TinyKernel.CL_SUCCESS || count[0] == 0) throw TinyKernel.noPlatform("JOCL", status);
        cl_device_id[] device = new cl_device_id[1];
        check(CL.clGetDeviceIDs(platform[0], TinyKernel.CL_DEVICE_TYPE_ALL, 1, device, null), "clGetDeviceIDs");
        context = CL.clCreateContext(null, 1, device, null, null, err);
        check(err[0], "clCreateContext");
        queue = CL.clCreateCommandQueueWithProperties(context, device[0], null, err);
        check(err[0], "clCreateCommandQueueWithProperties");
        program = CL.clCreateProgramWithSource(context, 1, new String[] {TinyKernel.SOURCE}, null, err);
        check(err[0], "clCreateProgramWithSource");
        status = CL.clBuildProgram(program, 1, device, null, null, null);
        if (status != TinyKernel.CL_SUCCESS) throw new IllegalStateException("clBuildProgram failed: status=" + status + " log:\n" + buildLog(device[0]));
        kernel = CL.clCreateKernel(program, TinyKernel.NAME, err);
        check(err[0], "clCreateKernel");
        buffer = CL.clCreateBuffer(context, TinyKernel.CL_MEM_READ_WRITE, (long) TinyKernel.ELEMENTS * Sizeof.cl_float, null, err);
        check(err[0], "clCreateBuffer");
        prepareArguments();
    }

    private void prepareArguments() {
        bufferArg = Pointer.to(buffer);
        addendArg = Pointer.to(new float[] {TinyKernel.ADDEND});
        countArg = Pointer.to(new int[] {TinyKernel.ELEMENTS});
        setArgs();
    }

    private String buildLog(cl_device_id device) {
        long[] size = new long[1];
        CL.clGetProgramBuildInfo(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] log = new byte[(int) Math.max(1, size[0])];
        CL.clGetProgramBuildInfo(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        return new String(log, StandardCharsets.UTF_8).strip();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (queue != null) check(CL.clFinish(queue), "clFinish");
        } finally {
            if (ownsObjects) releaseObjects();
        }
    }

    private void releaseObjects() {
        int kernelStatus = kernel == null ? 0 : CL.clReleaseKernel(kernel);
        int programStatus = program == null ? 0 : CL.clReleaseProgram(program);
        int bufferStatus = buffer == null ? 0 : CL.clReleaseMemObject(buffer);
        int queueStatus = queue == null ? 0 : CL.clReleaseCommandQueue(queue);
        int contextStatus = context == null ? 0 : CL.clReleaseContext(context);
        TinyKernel.checkReleased(kernelStatus, programStatus, bufferStatus, queueStatus, contextStatus);
    }

    private void setArgs() {
        check(CL.clSetKernelArg(kernel, 0, Sizeof.cl_mem, bufferArg), "clSetKernelArg");
        check(CL.clSetKernelArg(kernel, 1, Sizeof.cl_float, addendArg), "clSetKernelArg");
        check(CL.clSetKernelArg(kernel, 2, Sizeof.cl_int, countArg), "clSetKernelArg");
    }

    private void enqueue() {
        check(CL.clEnqueueNDRangeKernel(queue, kernel, 1, null, globalSize, null, 0, null, null), "clEnqueueNDRangeKernel");
    }

    /** (a) one tiny kernel, enqueued and waited for. */
    @Benchmark
    @Figure(value = "jocl.dispatch.roundtrip.us", baseline = "raw.dispatch.roundtrip.us")
    public void roundtrip() {
        enqueue();
        check(CL.clFinish(queue), "clFinish");
    }

    /** (b) 1,000 tiny kernels enqueued, then one clFinish; the figure is per kernel. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "jocl.dispatch.batched1000.perKernel.us", baseline = "raw.dispatch.batched1000.perKernel.us")
    public void batched1000() {
        for (int i = 0; i < TinyKernel.BATCH; i++) enqueue();
        check(CL.clFinish(queue), "clFinish");
    }

    /** (c) clSetKernelArg x3 + enqueue, 1,000 times, then one clFinish; the figure is per dispatch. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "jocl.dispatch.setArgs3.us", baseline = "raw.dispatch.setArgs3.us")
    public void setArgs3() {
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            setArgs();
            enqueue();
        }
        check(CL.clFinish(queue), "clFinish");
    }
}

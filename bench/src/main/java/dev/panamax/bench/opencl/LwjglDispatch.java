package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import org.lwjgl.BufferUtils;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL;
import org.lwjgl.opencl.CL10;
import org.lwjgl.opencl.CL20;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryStack;
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

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.opencl.TinyKernel.check;

/**
 * The OpenCL dispatch figures through LWJGL 3 ({@code org.lwjgl:lwjgl-opencl}), used the way its
 * documentation shows: {@code long} handles, {@code clSetKernelArg1p/1f/1i}, a preallocated
 * {@link PointerBuffer} for the work size. Same kernel and steps as {@link RawDispatch}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// LWJGL 3.3 reads memory through sun.misc.Unsafe, which JDK 25 warns about unless allowed
@Fork(jvmArgsPrepend = "--sun-misc-unsafe-memory-access=allow")
public class LwjglDispatch {
    private long context;
    private long queue;
    private long program;
    private long kernel;
    private long buffer;
    private PointerBuffer globalSize;
    /** False when the objects were adopted ({@link #adopt}): then another state releases them. */
    private boolean ownsObjects;

    // states in this JVM that use LWJGL's OpenCL functions: the last to go unloads them
    private static int icdUsers;

    /** Loads LWJGL's OpenCL functions from the ICD loader, for one more user; {@link #releaseIcd} when done. */
    public static synchronized void loadIcd() {
        // the ICD loader's soname: LWJGL's default name, libOpenCL.so, exists only with the -dev package
        // set before CL's class initializer, which loads the library
        Configuration.OPENCL_LIBRARY_NAME.set("libOpenCL.so.1");
        CL.getICD();
        icdUsers++;
    }

    /** One user of {@link #loadIcd} is done; the last one unloads LWJGL's OpenCL functions. */
    public static synchronized void releaseIcd() {
        if (icdUsers > 0 && --icdUsers == 0) CL.destroy();
    }

    /** Drives {@code objects}, made elsewhere, instead of making its own; {@link #tearDown} leaves them alone. */
    void adopt(ClObjects objects) {
        loadIcd();
        ownsObjects = false;
        context = objects.context().address();
        queue = objects.queue().address();
        program = objects.program().address();
        kernel = objects.kernel().address();
        buffer = objects.buffer().address();
        globalSize = BufferUtils.createPointerBuffer(1).put(0, TinyKernel.GLOBAL_SIZE);
        setArgs();
    }

    @Setup(Level.Trial)
    public void setup() {
        ownsObjects = true;
        loadIcd();
        IntBuffer err = BufferUtils.createIntBuffer(1);
        IntBuffer count = BufferUtils.createIntBuffer(1);
        PointerBuffer platform = BufferUtils.createPointerBuffer(1);
        int status = CL10.clGetPlatformIDs(platform, count);
        if (status != TinyKernel.CL_SUCCESS || count.get(0) == 0) throw TinyKernel.noPlatform("LWJGL", status);
        PointerBuffer device = BufferUtils.createPointerBuffer(1);
        check(CL10.clGetDeviceIDs(platform.get(0), TinyKernel.CL_DEVICE_TYPE_ALL, device, (IntBuffer) null), "clGetDeviceIDs");
        long dev = device.get(0);
        context = CL10.clCreateContext(null, dev, null, 0L, err);
        check(err.get(0), "clCreateContext");
        queue = CL20.clCreateCommandQueueWithProperties(context, dev, (java.nio.LongBuffer) null, err);
        check(err.get(0), "clCreateCommandQueueWithProperties");
        program = CL10.clCreateProgramWithSource(context, TinyKernel.SOURCE, err);
        check(err.get(0), "clCreateProgramWithSource");
        status = CL10.clBuildProgram(program, dev, "", null, 0L);
        if (status != TinyKernel.CL_SUCCESS) throw new IllegalStateException("clBuildProgram failed: status=" + status + " log:\n" + buildLog(dev));
        kernel = CL10.clCreateKernel(program, TinyKernel.NAME, err);
        check(err.get(0), "clCreateKernel");
        buffer = CL10.clCreateBuffer(context, TinyKernel.CL_MEM_READ_WRITE, (long) TinyKernel.ELEMENTS * Float.BYTES, err);
        check(err.get(0), "clCreateBuffer");
        globalSize = BufferUtils.createPointerBuffer(1).put(0, TinyKernel.GLOBAL_SIZE);
        setArgs();
    }

    private String buildLog(long device) {
        PointerBuffer size = BufferUtils.createPointerBuffer(1);
        CL10.clGetProgramBuildInfo(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, (ByteBuffer) null, size);
        ByteBuffer log = BufferUtils.createByteBuffer((int) Math.max(1, size.get(0)));
        CL10.clGetProgramBuildInfo(program, device, TinyKernel.CL_PROGRAM_BUILD_LOG, log, null);
        byte[] bytes = new byte[log.remaining()];
        log.get(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8).strip();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (queue != 0) check(CL10.clFinish(queue), "clFinish");
        } finally {
            if (ownsObjects) {
                releaseObjects();
            } else {
                releaseIcd();
            }
        }
    }

    private void releaseObjects() {
        int kernelStatus = kernel == 0 ? 0 : CL10.clReleaseKernel(kernel);
        int programStatus = program == 0 ? 0 : CL10.clReleaseProgram(program);
        int bufferStatus = buffer == 0 ? 0 : CL10.clReleaseMemObject(buffer);
        int queueStatus = queue == 0 ? 0 : CL10.clReleaseCommandQueue(queue);
        int contextStatus = context == 0 ? 0 : CL10.clReleaseContext(context);
        releaseIcd();
        TinyKernel.checkReleased(kernelStatus, programStatus, bufferStatus, queueStatus, contextStatus);
    }

    private void setArgs() {
        check(CL10.clSetKernelArg1p(kernel, 0, buffer), "clSetKernelArg");
        check(CL10.clSetKernelArg1f(kernel, 1, TinyKernel.ADDEND), "clSetKernelArg");
        check(CL10.clSetKernelArg1i(kernel, 2, TinyKernel.ELEMENTS), "clSetKernelArg");
    }

    private void enqueue() {
        check(CL10.clEnqueueNDRangeKernel(queue, kernel, 1, null, globalSize, null, null, null), "clEnqueueNDRangeKernel");
    }

    /** (a) one tiny kernel, enqueued and waited for. */
    @Benchmark
    @Figure(value = "lwjgl.dispatch.roundtrip.us", baseline = "raw.dispatch.roundtrip.us")
    public void roundtrip() {
        enqueue();
        check(CL10.clFinish(queue), "clFinish");
    }

    /**
     * (a) with the work size written on LWJGL's thread-local {@code MemoryStack} on every call: the LWJGL
     * idiom for a value made at the call, the counterpart of Panamax's {@code long[]} overload
     * ({@code panamax.typedArray}).
     */
    @Benchmark
    @Figure(value = "lwjgl.stack.dispatch.roundtrip.us", baseline = "raw.dispatch.roundtrip.us")
    public void roundtripStack() {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            check(CL10.clEnqueueNDRangeKernel(queue, kernel, 1, null, stack.pointers(TinyKernel.GLOBAL_SIZE), null, null, null),
                    "clEnqueueNDRangeKernel");
        }
        check(CL10.clFinish(queue), "clFinish");
    }

    /** (b) 1,000 tiny kernels enqueued, then one clFinish; the figure is per kernel. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "lwjgl.dispatch.batched1000.perKernel.us", baseline = "raw.dispatch.batched1000.perKernel.us")
    public void batched1000() {
        for (int i = 0; i < TinyKernel.BATCH; i++) enqueue();
        check(CL10.clFinish(queue), "clFinish");
    }

    /** (c) clSetKernelArg x3 + enqueue, 1,000 times, then one clFinish; the figure is per dispatch. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "lwjgl.dispatch.setArgs3.us", baseline = "raw.dispatch.setArgs3.us")
    public void setArgs3() {
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            setArgs();
            enqueue();
        }
        check(CL10.clFinish(queue), "clFinish");
    }
}

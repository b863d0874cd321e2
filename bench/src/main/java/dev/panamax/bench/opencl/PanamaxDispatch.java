package dev.panamax.bench.opencl;

import dev.panamax.bench.Figure;
import dev.panamax.core.batch.Batch;
import dev.panamax.core.batch.BatchMode;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLThunks;
import dev.panamax.opencl.binding.ClCommandQueue;
import dev.panamax.opencl.binding.ClContext;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClKernel;
import dev.panamax.opencl.binding.ClMem;
import dev.panamax.opencl.binding.ClPlatformId;
import dev.panamax.opencl.binding.ClProgram;
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
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OpenCL dispatch figures through Panamax's generated binding (panamax-opencl, from opencl.yaml):
 * the typed layer ({@link CLApi}: handle objects, checked statuses) for single calls, given the work size
 * as every peer is given it: in native memory made once and freed by the garbage collector (LWJGL's
 * {@code BufferUtils.createPointerBuffer} is a direct buffer; here a segment of {@code Arena.ofAuto()}),
 * and, for the thousand-dispatch figures, the generated {@code Tier.BATCHED} recorders ({@link CLThunks})
 * recorded once into a {@link Batch} and replayed: 1,000 enqueues (and their argument setting) and the clFinish in one
 * crossing. Same kernel and steps as {@link RawDispatch}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PanamaxDispatch {
    private static final long[] GLOBAL_SIZE = {TinyKernel.GLOBAL_SIZE};
    /** Enqueues per batch in {@link #batched1000Chunked()}. */
    static final int CHUNK = 100;

    private Arena arena;
    private ClContext context;
    private ClCommandQueue queue;
    private ClProgram program;
    private ClKernel kernel;
    private ClMem buffer;
    private MemorySegment bufferArg;
    private MemorySegment addendArg;
    private MemorySegment countArg;
    private Batch enqueues;
    private Batch setArgsAndEnqueues;
    private MemorySegment globalSize;
    private Batch enqueueAndFinish;
    private Batch enqueueChunk;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofConfined();
        List<ClPlatformId> platforms = OpenCl.platforms();
        if (platforms.isEmpty()) throw TinyKernel.noPlatform("Panamax", CL.CL_PLATFORM_NOT_FOUND_KHR);
        ClDeviceId device = OpenCl.devices(platforms.getFirst(), TinyKernel.CL_DEVICE_TYPE_ALL).getFirst();
        context = CLApi.clCreateContext(null, new ClDeviceId[] {device}, null);
        queue = OpenCl.queue(context, device);
        program = OpenCl.buildProgram(context, device, TinyKernel.SOURCE, "");
        kernel = CLApi.clCreateKernel(program, TinyKernel.NAME);
        buffer = CLApi.clCreateBuffer(context, TinyKernel.CL_MEM_READ_WRITE, (long) TinyKernel.ELEMENTS * Float.BYTES, null);
        prepareArgumentsAndBatches();
    }

    /**
     * Drives {@code objects}, made elsewhere, instead of making its own: borrowed handles, which
     * {@link #tearDown} closes without releasing the objects.
     */
    void adopt(ClObjects objects) {
        arena = Arena.ofConfined();
        context = ClContext.borrowed(objects.context());
        queue = ClCommandQueue.borrowed(objects.queue());
        program = ClProgram.borrowed(objects.program());
        kernel = ClKernel.borrowed(objects.kernel());
        buffer = ClMem.borrowed(objects.buffer());
        prepareArgumentsAndBatches();
    }

    private void prepareArgumentsAndBatches() {
        bufferArg = arena.allocate(ValueLayout.ADDRESS);
        bufferArg.set(ValueLayout.ADDRESS, 0, buffer.handle());
        addendArg = arena.allocateFrom(ValueLayout.JAVA_FLOAT, TinyKernel.ADDEND);
        countArg = arena.allocateFrom(ValueLayout.JAVA_INT, TinyKernel.ELEMENTS);
        setArgs();

        // as LWJGL's work size is held: native memory the garbage collector frees (no session to acquire per call)
        globalSize = Arena.ofAuto().allocateFrom(ValueLayout.JAVA_LONG, TinyKernel.GLOBAL_SIZE);
        enqueues = Batch.create(BatchMode.STANDARD, TinyKernel.BATCH + 1);
        for (int i = 0; i < TinyKernel.BATCH; i++) recordEnqueue(enqueues, globalSize);
        CLThunks.clFinish.record(enqueues, queue);
        enqueueChunk = Batch.create(BatchMode.STANDARD, CHUNK);
        for (int i = 0; i < CHUNK; i++) recordEnqueue(enqueueChunk, globalSize);
        enqueueAndFinish = Batch.create(BatchMode.STANDARD, 2);
        recordEnqueue(enqueueAndFinish, globalSize);
        CLThunks.clFinish.record(enqueueAndFinish, queue);
        setArgsAndEnqueues = Batch.create(BatchMode.STANDARD, 4 * TinyKernel.BATCH + 1);
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            recordSetArg(setArgsAndEnqueues, 0, ValueLayout.ADDRESS.byteSize(), bufferArg);
            recordSetArg(setArgsAndEnqueues, 1, Float.BYTES, addendArg);
            recordSetArg(setArgsAndEnqueues, 2, Integer.BYTES, countArg);
            recordEnqueue(setArgsAndEnqueues, globalSize);
        }
        CLThunks.clFinish.record(setArgsAndEnqueues, queue);
    }

    private void recordEnqueue(Batch batch, MemorySegment globalSize) {
        CLThunks.clEnqueueNDRangeKernel.record(batch, queue, kernel, 1, null, globalSize, null, 0, null, null);
    }

    private void recordSetArg(Batch batch, int index, long size, MemorySegment value) {
        CLThunks.clSetKernelArg.record(batch, kernel, index, size, value);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (queue != null) CLApi.clFinish(queue);
        } finally {
            // every object is released (in reverse order of creation) even when one release fails
            try (Arena _ = arena; ClContext _ = context; ClCommandQueue _ = queue; ClMem _ = buffer; ClProgram _ = program;
                 ClKernel _ = kernel; Batch _ = enqueueAndFinish; Batch _ = enqueueChunk; Batch _ = enqueues; Batch _ = setArgsAndEnqueues) {
                // closed by try-with-resources
            }
        }
    }

    private void setArgs() {
        CLApi.clSetKernelArg(kernel, 0, ValueLayout.ADDRESS.byteSize(), bufferArg);
        CLApi.clSetKernelArg(kernel, 1, Float.BYTES, addendArg);
        CLApi.clSetKernelArg(kernel, 2, Integer.BYTES, countArg);
    }

    private void enqueue() {
        CLApi.clEnqueueNDRangeKernel(queue, kernel, 1, null, globalSize, null, null, null);
    }

    /** (a) one tiny kernel, enqueued and waited for, through the typed layer. */
    @Benchmark
    @Figure(value = "panamax.dispatch.roundtrip.us", baseline = "raw.dispatch.roundtrip.us")
    public void roundtrip() {
        enqueue();
        CLApi.clFinish(queue);
    }

    /** (a) through the generated raw layer ({@link CL}): addresses and statuses as the C API has them, checked by hand. */
    public void roundtripRawLayer() {
        rawLayerEnqueue();
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    /**
     * (a) through the generated raw layer with {@code delayNanos} of spinning before the enqueue: a probe of
     * how much a little more work between one round trip's clFinish and the next enqueue costs.
     */
    public void roundtripRawLayerDelayed(long delayNanos) {
        spin(delayNanos);
        rawLayerEnqueue();
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    /** (b) through the generated raw layer with {@code delayNanos} of spinning before each enqueue. */
    public void batched1000RawLayerDelayed(long delayNanos) {
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            spin(delayNanos);
            rawLayerEnqueue();
        }
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    private static void spin(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) Thread.onSpinWait();
    }

    /** (b) through the generated raw layer, one crossing per call: 1,000 enqueues, then clFinish. */
    public void batched1000RawLayer() {
        for (int i = 0; i < TinyKernel.BATCH; i++) rawLayerEnqueue();
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    /** (c) through the generated raw layer, one crossing per call. */
    public void setArgs3RawLayer() {
        MemorySegment k = kernel.handle();
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            TinyKernel.check(CL.clSetKernelArg(k, 0, ValueLayout.ADDRESS.byteSize(), bufferArg), "clSetKernelArg");
            TinyKernel.check(CL.clSetKernelArg(k, 1, Float.BYTES, addendArg), "clSetKernelArg");
            TinyKernel.check(CL.clSetKernelArg(k, 2, Integer.BYTES, countArg), "clSetKernelArg");
            rawLayerEnqueue();
        }
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    private void rawLayerEnqueue() {
        TinyKernel.check(CL.clEnqueueNDRangeKernel(queue.handle(), kernel.handle(), 1, MemorySegment.NULL, globalSize,
                MemorySegment.NULL, 0, MemorySegment.NULL, MemorySegment.NULL), "clEnqueueNDRangeKernel");
    }

    /** (a) the enqueue and the clFinish recorded once into a batch: one crossing per round trip. */
    public void roundtripBatched() {
        enqueueAndFinish.run();
    }

    /**
     * (a) through the typed layer's overload that takes the work size as a {@code long[]}: copied into scratch
     * memory on every call, which no peer's figure does.
     */
    @Benchmark
    @Figure(value = "panamax.typedArray.dispatch.roundtrip.us", baseline = "raw.dispatch.roundtrip.us")
    public void roundtripTypedArray() {
        CLApi.clEnqueueNDRangeKernel(queue, kernel, null, GLOBAL_SIZE, null, null, null);
        CLApi.clFinish(queue);
    }

    /** (b) 1,000 tiny kernels and one clFinish, recorded once into a batch: one crossing per run; per kernel. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.dispatch.batched1000.perKernel.us", baseline = "raw.dispatch.batched1000.perKernel.us")
    public void batched1000() {
        enqueues.run();
    }

    /**
     * (b) a batch of {@value #CHUNK} enqueues replayed {@code 1,000 / CHUNK} times, then clFinish: ten crossings
     * per 1,000 kernels, with a batch small enough to stay in the cache alongside PoCL's own data.
     */
    public void batched1000Chunked() {
        for (int i = 0; i < TinyKernel.BATCH / CHUNK; i++) enqueueChunk.run();
        TinyKernel.check(CL.clFinish(queue.handle()), "clFinish");
    }

    /** (b) the same through the typed layer, one crossing per call: 1,000 enqueues, then clFinish. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.typed.dispatch.batched1000.perKernel.us", baseline = "raw.dispatch.batched1000.perKernel.us")
    public void batched1000Typed() {
        for (int i = 0; i < TinyKernel.BATCH; i++) enqueue();
        CLApi.clFinish(queue);
    }

    /** (c) clSetKernelArg x3 + enqueue, 1,000 times, then clFinish, recorded once into a batch; per dispatch. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.dispatch.setArgs3.us", baseline = "raw.dispatch.setArgs3.us")
    public void setArgs3() {
        setArgsAndEnqueues.run();
    }

    /** (c) the same through the typed layer, one crossing per call. */
    @Benchmark
    @OperationsPerInvocation(TinyKernel.BATCH)
    @Figure(value = "panamax.typed.dispatch.setArgs3.us", baseline = "raw.dispatch.setArgs3.us")
    public void setArgs3Typed() {
        for (int i = 0; i < TinyKernel.BATCH; i++) {
            setArgs();
            enqueue();
        }
        CLApi.clFinish(queue);
    }
}

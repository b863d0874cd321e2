package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.fp16.Fp16;
import dev.panamax.core.fp16.Fp16Converter;
import dev.panamax.core.fp16.Fp16Strategy;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

/**
 * Bulk fp16 conversion of 64 MiB of floats (16 Mi elements) each way, in GB/s counted on the fp32
 * side, next to a plain copy of the same 64 MiB in the same run. The headline figures use the
 * default path ({@link Fp16Converter#auto()}); the others are the alternatives it was chosen from.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class Fp16Bench {
    static final long FP32_BYTES = 64L << 20;
    static final int COUNT = (int) (FP32_BYTES / Float.BYTES);

    private static final Fp16Converter JDK_LOOP = Fp16Converter.of(Fp16Strategy.JAVA, 1);
    private static final Fp16Converter NATIVE = Fp16Converter.of(Fp16Strategy.NATIVE, 1);
    private static final Fp16Converter NATIVE_2T = Fp16Converter.of(Fp16Strategy.NATIVE, 2);
    private static final Fp16Converter STREAM = Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 1);
    private static final Fp16Converter STREAM_2T = Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 2);

    private Arena arena;
    private MemorySegment floats, halves, floatsOut, copyOut;
    private float[] floatArray, floatArrayOut, copyArrayOut;
    private short[] halfArray;
    private ExecutorService second;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        floats = arena.allocate(FP32_BYTES, 64);
        halves = arena.allocate(FP32_BYTES / 2, 64);
        floatsOut = arena.allocate(FP32_BYTES, 64);
        copyOut = arena.allocate(FP32_BYTES, 64);
        floatArray = new float[COUNT];
        floatArrayOut = new float[COUNT];
        copyArrayOut = new float[COUNT];
        halfArray = new short[COUNT];
        for (int i = 0; i < COUNT; i++) floatArray[i] = (i % 4099) * 0.37f - 700f;
        MemorySegment.copy(floatArray, 0, floats, JAVA_FLOAT, 0, COUNT);
        Fp16.toHalf(floats, 0, halves, 0, COUNT);
        Fp16.toHalf(floatArray, 0, halfArray, 0, COUNT);
        floatsOut.fill((byte) 1);   // every destination page resident before the first measurement
        copyOut.fill((byte) 1);
        second = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fp16-bench-second");
            t.setDaemon(true);
            return t;
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        second.shutdownNow();
        arena.close();
    }

    // ------------------------------------------------------------------ baselines

    @Benchmark
    @Figure(value = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void copy() {
        MemorySegment.copy(floats, 0, copyOut, 0, FP32_BYTES);
    }

    @Benchmark
    @Figure(value = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void copyArray() {
        System.arraycopy(floatArray, 0, copyArrayOut, 0, COUNT);
    }

    // ------------------------------------------------------------------ the default path

    @Benchmark
    @Figure(value = "fp16.toHalf.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalf() {
        Fp16.toHalf(floats, 0, halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloat() {
        Fp16.toFloat(halves, 0, floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.array.64m.GBps", baseline = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfArray() {
        Fp16.toHalf(floatArray, 0, halfArray, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.array.64m.GBps", baseline = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatArray() {
        Fp16.toFloat(halfArray, 0, floatArrayOut, 0, COUNT);
    }

    // ------------------------------------------------------------------ the alternatives, float -> half

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoopArray() {
        JDK_LOOP.toHalf(floatArray, 0, halfArray, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop2t.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoop2tArray() throws Exception {
        int half = COUNT / 2;
        Future<?> other = second.submit(() -> JDK_LOOP.toHalf(floatArray, half, halfArray, half, COUNT - half));
        JDK_LOOP.toHalf(floatArray, 0, halfArray, 0, half);
        other.get();
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop.segment.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoopSegment() {
        JDK_LOOP.toHalf(floats, 0, halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.native.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNative() {
        NATIVE.toHalf(floats, 0, halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.native2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNative2t() {
        NATIVE_2T.toHalf(floats, 0, halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.nativeStream.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNativeStream() {
        STREAM.toHalf(floats, 0, halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.nativeStream2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNativeStream2t() {
        STREAM_2T.toHalf(floats, 0, halves, 0, COUNT);
    }

    // ------------------------------------------------------------------ the alternatives, half -> float

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoopArray() {
        JDK_LOOP.toFloat(halfArray, 0, floatArrayOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop2t.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoop2tArray() throws Exception {
        int half = COUNT / 2;
        Future<?> other = second.submit(() -> JDK_LOOP.toFloat(halfArray, half, floatArrayOut, half, COUNT - half));
        JDK_LOOP.toFloat(halfArray, 0, floatArrayOut, 0, half);
        other.get();
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop.segment.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoopSegment() {
        JDK_LOOP.toFloat(halves, 0, floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.native.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNative() {
        NATIVE.toFloat(halves, 0, floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.native2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNative2t() {
        NATIVE_2T.toFloat(halves, 0, floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.nativeStream.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNativeStream() {
        STREAM.toFloat(halves, 0, floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.nativeStream2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNativeStream2t() {
        STREAM_2T.toFloat(halves, 0, floatsOut, 0, COUNT);
    }
}

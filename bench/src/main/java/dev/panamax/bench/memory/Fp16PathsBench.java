package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.fp16.Fp16Converter;
import dev.panamax.core.fp16.Fp16Strategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.memory.Fp16Buffers.COUNT;
import static dev.panamax.bench.memory.Fp16Buffers.FP32_BYTES;

/**
 * The bulk fp16 paths the default was chosen from, at 64 MiB each way (GB/s, fp32 side): the JDK
 * loop on arrays and on segments, the JDK loop on two Java threads, and the native kernel with
 * ordinary or streaming stores, on one or two threads. Segments unless the name says array.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class Fp16PathsBench {
    private static final Fp16Converter JDK_LOOP = Fp16Converter.of(Fp16Strategy.JAVA, 1);
    private static final Fp16Converter NATIVE = Fp16Converter.of(Fp16Strategy.NATIVE, 1);
    private static final Fp16Converter NATIVE_2T = Fp16Converter.of(Fp16Strategy.NATIVE, 2);
    private static final Fp16Converter STREAM = Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 1);
    private static final Fp16Converter STREAM_2T = Fp16Converter.of(Fp16Strategy.NATIVE_STREAMING, 2);

    // ------------------------------------------------------------------ float -> half

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoopArray(Fp16Buffers b) {
        JDK_LOOP.toHalf(b.floatArray, 0, b.halfArray, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop2t.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoop2tArray(Fp16Buffers b) throws Exception {
        int half = COUNT / 2;
        Future<?> other = b.second.submit(() -> JDK_LOOP.toHalf(b.floatArray, half, b.halfArray, half, COUNT - half));
        JDK_LOOP.toHalf(b.floatArray, 0, b.halfArray, 0, half);
        other.get();
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.jdkLoop.segment.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfJdkLoopSegment(Fp16Buffers b) {
        JDK_LOOP.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.native.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNative(Fp16Buffers b) {
        NATIVE.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.native2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNative2t(Fp16Buffers b) {
        NATIVE_2T.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.nativeStream.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNativeStream(Fp16Buffers b) {
        STREAM.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.nativeStream2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfNativeStream2t(Fp16Buffers b) {
        STREAM_2T.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    // ------------------------------------------------------------------ half -> float

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoopArray(Fp16Buffers b) {
        JDK_LOOP.toFloat(b.halfArray, 0, b.floatArrayOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop2t.array.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoop2tArray(Fp16Buffers b) throws Exception {
        int half = COUNT / 2;
        Future<?> other = b.second.submit(() -> JDK_LOOP.toFloat(b.halfArray, half, b.floatArrayOut, half, COUNT - half));
        JDK_LOOP.toFloat(b.halfArray, 0, b.floatArrayOut, 0, half);
        other.get();
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.jdkLoop.segment.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatJdkLoopSegment(Fp16Buffers b) {
        JDK_LOOP.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.native.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNative(Fp16Buffers b) {
        NATIVE.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.native2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNative2t(Fp16Buffers b) {
        NATIVE_2T.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.nativeStream.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNativeStream(Fp16Buffers b) {
        STREAM.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.nativeStream2t.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatNativeStream2t(Fp16Buffers b) {
        STREAM_2T.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }
}

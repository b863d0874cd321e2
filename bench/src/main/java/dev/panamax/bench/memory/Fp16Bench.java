package dev.panamax.bench.memory;

import dev.panamax.bench.Figure;
import dev.panamax.core.fp16.Fp16;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static dev.panamax.bench.memory.Fp16Buffers.COUNT;
import static dev.panamax.bench.memory.Fp16Buffers.FP32_BYTES;

/**
 * Bulk fp16 conversion of 64 MiB of floats (16 Mi elements) each way on the default path
 * ({@link Fp16}, i.e. {@code Fp16Converter.auto()}), in GB/s counted on the fp32 side, next to a
 * plain copy of the same 64 MiB. Kept apart from {@link Fp16PathsBench} so that the copy and the
 * conversions it is compared with run within a minute of each other on a shared machine.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class Fp16Bench {
    @Benchmark
    @Figure(value = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void copy(Fp16Buffers b) {
        MemorySegment.copy(b.floats, 0, b.copyOut, 0, FP32_BYTES);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalf(Fp16Buffers b) {
        Fp16.toHalf(b.floats, 0, b.halves, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.64m.GBps", baseline = "copy.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloat(Fp16Buffers b) {
        Fp16.toFloat(b.halves, 0, b.floatsOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void copyArray(Fp16Buffers b) {
        System.arraycopy(b.floatArray, 0, b.copyArrayOut, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toHalf.array.64m.GBps", baseline = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toHalfArray(Fp16Buffers b) {
        Fp16.toHalf(b.floatArray, 0, b.halfArray, 0, COUNT);
    }

    @Benchmark
    @Figure(value = "fp16.toFloat.array.64m.GBps", baseline = "copy.array.64m.GBps", bytesPerOp = FP32_BYTES)
    public void toFloatArray(Fp16Buffers b) {
        Fp16.toFloat(b.halfArray, 0, b.floatArrayOut, 0, COUNT);
    }
}

package dev.panamax.bench.blas;

import dev.panamax.bench.Figure;
import dev.panamax.blas.Blas;
import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * What the size checks cost on a call small enough for them to show: {@code sdot} of 16 floats and
 * a 4 x 4 {@code sgemm}, through the raw layer (heap segments, nothing checked), the generated typed
 * layer (each array checked against its length expression) and the hand-written {@code Blas} (its own
 * checks, then the typed layer's).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SmallCallBench {
    private final float[] x = RandomMatrix.square(4, 1);
    private final float[] y = RandomMatrix.square(4, 2);
    private final float[] c = new float[16];

    @Benchmark
    @Figure("raw.blas.sdot16.ns")
    public float sdotRaw() {
        return CBLAS.cblas_sdot(16, MemorySegment.ofArray(x), 1, MemorySegment.ofArray(y), 1);
    }

    @Benchmark
    @Figure(value = "panamax.typed.blas.sdot16.ns", baseline = "raw.blas.sdot16.ns")
    public float sdotTyped() {
        return CBLASApi.cblas_sdot(16, x, 1, y, 1);
    }

    @Benchmark
    @Figure(value = "panamax.blas.sdot16.ns", baseline = "raw.blas.sdot16.ns")
    public float sdotBlas() {
        return Blas.sdot(16, x, 1, y, 1);
    }

    @Benchmark
    @Figure("raw.blas.sgemm4.ns")
    public float[] sgemmRaw() {
        CBLAS.cblas_sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, 4, 4, 4, 1f,
                MemorySegment.ofArray(x), 4, MemorySegment.ofArray(y), 4, 0f, MemorySegment.ofArray(c), 4);
        return c;
    }

    @Benchmark
    @Figure(value = "panamax.typed.blas.sgemm4.ns", baseline = "raw.blas.sgemm4.ns")
    public float[] sgemmTyped() {
        CBLASApi.cblas_sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, 4, 4, 4, 1f, x, 4, y, 4, 0f, c, 4);
        return c;
    }
}

package dev.panamax.bench.blas;

import dev.panamax.bench.Figure;
import dev.panamax.blas.Blas;
import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What splitting a memory-bound routine into critical calls of 2^20 elements costs: {@code Blas.saxpy}
 * and {@code Blas.sgemv} on 16 Mi elements (16 pieces; 4,096 × 4,096 for gemv) against one critical
 * call of the generated typed layer on the same arrays.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PiecesBench {
    private static final int SIDE = 4096;
    private float[] a;
    private float[] x;
    private float[] y;

    @Setup(Level.Trial)
    public void setup() {
        a = RandomMatrix.square(SIDE, 1);
        x = RandomMatrix.square(SIDE, 2);   // 16 Mi elements for axpy; the first 4,096 serve gemv
        y = RandomMatrix.square(SIDE, 3);
    }

    @Benchmark
    @Figure("panamax.blas.saxpy16m.oneCall.ms")
    public float[] saxpyOneCall() {
        CBLASApi.cblas_saxpy(x.length, 0.5f, x, 1, y, 1);
        return y;
    }

    @Benchmark
    @Figure(value = "panamax.blas.saxpy16m.pieces.ms", baseline = "panamax.blas.saxpy16m.oneCall.ms")
    public float[] saxpyPieces() {
        Blas.saxpy(x.length, 0.5f, x, 1, y, 1);
        return y;
    }

    @Benchmark
    @Figure("panamax.blas.sgemv4096.oneCall.ms")
    public float[] sgemvOneCall() {
        CBLASApi.cblas_sgemv(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, SIDE, SIDE, 1f, a, SIDE, x, 1, 0f, y, 1);
        return y;
    }

    @Benchmark
    @Figure(value = "panamax.blas.sgemv4096.pieces.ms", baseline = "panamax.blas.sgemv4096.oneCall.ms")
    public float[] sgemvPieces() {
        Blas.sgemv(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, SIDE, SIDE, 1f, a, SIDE, x, 1, 0f, y, 1);
        return y;
    }
}

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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * What moving a matrix product off the critical tier costs: the generated typed layer's
 * {@code cblas_sgemm} on Java arrays passed in place (critical tier, every safepoint held off until it
 * returns) against the same product on the standard tier from native segments ({@code Blas.sgemm}, no
 * copy), and, in {@link GemmThroughCopiesBench}, from Java arrays through native copies.
 * n×n×n, row-major, no transposes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GemmTierBench {
    @Param({"256", "1000", "3072"})
    int n;

    private float[] a;
    private float[] b;
    private float[] c;
    private Arena arena;
    private MemorySegment na;
    private MemorySegment nb;
    private MemorySegment nc;

    @Setup(Level.Trial)
    public void setup() {
        a = RandomMatrix.square(n, n);
        b = RandomMatrix.square(n, n + 1L);
        c = new float[n * n];
        arena = Arena.ofConfined();
        na = arena.allocateFrom(ValueLayout.JAVA_FLOAT, a);
        nb = arena.allocateFrom(ValueLayout.JAVA_FLOAT, b);
        nc = arena.allocate(ValueLayout.JAVA_FLOAT, (long) n * n);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** Java arrays in place, one critical call: the generated typed layer. */
    @Benchmark
    @Figure("panamax.blas.sgemm{n}.critical.ms")
    public float[] criticalInPlace() {
        CBLASApi.cblas_sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, n, n, n, 1f, a, n, b, n, 0f, c, n);
        return c;
    }

    /** Native segments, one standard call. */
    @Benchmark
    @Figure(value = "panamax.blas.sgemm{n}.standard.native.ms", baseline = "panamax.blas.sgemm{n}.critical.ms")
    public MemorySegment standardNative() {
        Blas.sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, n, n, n, 1f, na, n, nb, n, 0f, nc, n);
        return nc;
    }
}

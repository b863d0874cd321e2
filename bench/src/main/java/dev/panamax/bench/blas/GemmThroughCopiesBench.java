package dev.panamax.bench.blas;

import dev.panamax.bench.Figure;
import dev.panamax.blas.Blas;
import dev.panamax.blas.binding.CBLAS;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * {@code Blas.sgemm} on Java arrays in a JVM whose threshold sends every product to the standard tier
 * ({@code -Dpanamax.blas.criticalFlops=1}): the arrays are copied into native memory, the product runs
 * as a standard call, the result is copied back. Compared with {@link GemmTierBench}'s in-place critical
 * call of the same size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(jvmArgsPrepend = "-Dpanamax.blas.criticalFlops=1")
public class GemmThroughCopiesBench {
    @Param({"256", "1000", "3072"})
    int n;

    private float[] a;
    private float[] b;
    private float[] c;

    @Setup(Level.Trial)
    public void setup() {
        if (!"1".equals(System.getProperty("panamax.blas.criticalFlops"))) {
            throw new IllegalStateException("this benchmark needs -Dpanamax.blas.criticalFlops=1 in its fork");
        }
        a = RandomMatrix.square(n, n);
        b = RandomMatrix.square(n, n + 1L);
        c = new float[n * n];
    }

    /** Java arrays through native copies, one standard call. */
    @Benchmark
    @Figure(value = "panamax.blas.sgemm{n}.standard.copies.ms", baseline = "panamax.blas.sgemm{n}.critical.ms")
    public float[] standardThroughCopies() {
        Blas.sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans, n, n, n, 1f, a, n, b, n, 0f, c, n);
        return c;
    }
}

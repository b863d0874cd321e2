package dev.panamax.bench.blas;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.blas.Blas;
import dev.panamax.blas.binding.CBLAS;
import dev.panamax.blas.binding.CBLASApi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * How long a GC asked for during a large matrix product waits. One thread runs an n×n×n sgemm; a
 * second thread, once the product is under way, calls {@code System.gc()} and times it. Through the
 * typed layer's critical call ({@code CBLASApi.cblas_sgemm}, arrays in place) the collection cannot
 * start until the product returns; through {@code Blas.sgemm}, which runs such a product on the
 * standard tier, it runs beside it.
 */
public final class GcDuringGemm implements Measurement {
    private static final long START_DELAY_NANOS = 20_000_000;

    @Override
    public String suite() {
        return "blas";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int n = quick ? 2048 : 3072;
        int runs = quick ? 3 : 7;
        float[] a = RandomMatrix.square(n, n);
        float[] b = RandomMatrix.square(n, n + 1L);
        float[] c = new float[n * n];
        double[][] critical = new double[2][runs];
        double[][] standard = new double[2][runs];
        for (int r = 0; r < runs; r++) {
            record(critical, r, () -> CBLASApi.cblas_sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans,
                    n, n, n, 1f, a, n, b, n, 0f, c, n));
            record(standard, r, () -> Blas.sgemm(CBLAS.CblasRowMajor, CBLAS.CblasNoTrans, CBLAS.CblasNoTrans,
                    n, n, n, 1f, a, n, b, n, 0f, c, n));
        }
        String p = "panamax.blas.sgemm" + n;
        List<Result> out = new ArrayList<>();
        out.add(Result.of(p + ".critical.product.ms", "ms", critical[0], ""));
        out.add(Result.of(p + ".critical.gcWait.ms", "ms", critical[1], ""));
        out.add(Result.of(p + ".standard.product.ms", "ms", standard[0], p + ".critical.product.ms"));
        out.add(Result.of(p + ".standard.gcWait.ms", "ms", standard[1], p + ".critical.gcWait.ms"));
        return out;
    }

    /** One product on this thread with a System.gc() timed on another: [0] the product, [1] the GC call, ms. */
    private static void record(double[][] into, int run, Runnable product) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        double[] gc = new double[1];
        Thread collector = Thread.ofPlatform().start(() -> {
            try {
                started.await();
                long until = System.nanoTime() + START_DELAY_NANOS;
                while (System.nanoTime() < until) Thread.onSpinWait();
                long t0 = System.nanoTime();
                System.gc();
                gc[0] = (System.nanoTime() - t0) / 1e6;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long t0 = System.nanoTime();
        started.countDown();
        product.run();
        into[0][run] = (System.nanoTime() - t0) / 1e6;
        collector.join();
        into[1][run] = gc[0];
    }
}

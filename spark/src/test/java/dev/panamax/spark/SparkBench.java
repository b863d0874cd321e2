package dev.panamax.spark;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.data.Spirals;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.optim.Adam;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.apache.spark.sql.functions.col;

/**
 * {@code ./panamax bench spark}: not a test. Batch inference in {@code local[2]} against one JVM on
 * the same rows, a training epoch against one JVM, the share of the tasks' time spent outside
 * Panamax, and how accuracy and time change with the number of partitions and K.
 * Arguments: {@code [--quick]} (fewer rows and repetitions) and any of {@code inference},
 * {@code training}, {@code sync} to run only those parts (all when none is named).
 */
public final class SparkBench {
    /** The spiral network: Spark's per-row cost outweighs its forward pass. */
    private static final Mlp SMALL_NET = new Mlp(2, List.of(128, 128), 3);
    /** A network whose forward pass (about 2.1 MFLOP a row) outweighs Spark's per-row cost. */
    private static final Mlp LARGE_NET = new Mlp(2, List.of(1024, 1024), 3);
    private static final Mlp SPIRAL_NET = new Mlp(2, List.of(64), 3);

    public static void main(String[] args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        int rows = quick ? 50_000 : 200_000, repeats = quick ? 3 : 5, batch = 1024;
        SparkSession spark = SparkSession.builder().master("local[2]").appName("panamax-bench-spark")
                .config("spark.ui.enabled", "false")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        try {
            System.out.printf(Locale.ROOT, "panamax bench spark: %d cores, local[2], %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.version"));
            if (runs(args, "inference")) {
                inference(spark, SMALL_NET, rows, batch, repeats);
                inference(spark, LARGE_NET, rows / 2, batch, repeats);
            }
            if (runs(args, "training")) trainingEpoch(spark, quick ? 6_000 : 24_000, repeats);
            if (runs(args, "sync")) syncTable(spark, quick);
        } finally {
            spark.stop();
        }
    }

    // ---------------------------------------------------------------- inference

    private static void inference(SparkSession spark, Mlp net, int n, int batch, int repeats) {
        Spirals s = Spirals.generate(n / 3, 3, 0.2, 11);
        float[] points = s.points();
        ModelState weights;
        Module drawn = TensorScope.unscoped(() -> net.create(new SplittableRandom(1)));
        try {
            weights = ModelState.of(drawn);
        } finally {
            drawn.close();
        }
        // one JVM: the same module, the same batches, on one thread, then on two threads each scoring
        // half the rows (no Spark: what two task slots could reach at best on this machine)
        double[] single = new double[repeats];
        double[] twoThreads = new double[repeats];
        Module local = weights.newModule(net);
        try {
            for (int r = -1; r < repeats; r++) {
                double one = oneJvm(local, points, 0, s.size(), batch);
                if (r >= 0) single[r] = one;
            }
            for (int r = -1; r < repeats; r++) {
                double two = twoThreads(local, points, s.size(), batch);
                if (r >= 0) twoThreads[r] = two;
            }
        } finally {
            local.close();
        }
        Dataset<Row> df = frame(spark, s, 2).cache();
        df.count();
        double[] spark2 = new double[repeats];
        double[] outside = new double[repeats];
        double[] fixed = new double[repeats];
        Dataset<Row> tiny = df.limit(2).cache();
        tiny.count();
        try (var model = new PanamaxClassificationModel("bench", net, weights, null).setBatchSize(batch)) {
            for (int r = -1; r < repeats; r++) { // what an action costs whatever its rows: planning, code generation, scheduling
                long t0 = System.nanoTime();
                if (model.transform(tiny).filter(col("prediction").geq(0)).count() != 2) throw new AssertionError("tiny job");
                if (r >= 0) fixed[r] = (System.nanoTime() - t0) / 1e6;
            }
            for (int r = -1; r < repeats; r++) {
                long compute0 = ComputeTime.nanos(), t0 = System.nanoTime();
                long scored = model.transform(df).filter(col("prediction").geq(0)).count();
                long wall = System.nanoTime() - t0;
                if (scored != s.size()) throw new AssertionError(scored + " rows scored of " + s.size());
                if (r >= 0) {
                    spark2[r] = s.size() / (wall / 1e9);
                    outside[r] = 1 - (ComputeTime.nanos() - compute0) / (2.0 * wall);
                }
            }
        }
        tiny.unpersist();
        df.unpersist();
        System.out.printf(Locale.ROOT, "%ninference, %d rows, %s, batch %d (rows/s, median [min-max] of %d):%n", s.size(), net,
                batch, repeats);
        System.out.printf(Locale.ROOT, "  one JVM, one thread   %s%n", figure(single));
        System.out.printf(Locale.ROOT, "  one JVM, two threads  %s (%.2fx one thread: the most two slots can reach here)%n",
                figure(twoThreads), median(twoThreads) / median(single));
        System.out.printf(Locale.ROOT, "  Spark local[2]        %s%n", figure(spark2));
        System.out.printf(Locale.ROOT, "  speedup               %.2fx (target >= 1.6x)%n", median(spark2) / median(single));
        System.out.printf(Locale.ROOT, "  an action on 2 rows   %s ms (Spark's cost per job, whatever its rows)%n", figure(fixed));
        System.out.printf(Locale.ROOT, "  share of task time outside Panamax (2 slots x wall - forward passes): %s%n", percent(outside));
    }

    /** Rows per second of scoring rows {@code [from, to)} of {@code points} in batches on the calling thread. */
    private static double oneJvm(Module module, float[] points, int from, int to, int batch) {
        long t0 = System.nanoTime();
        long checksum = 0;
        for (int at = from; at < to; at += batch) {
            int m = Math.min(batch, to - at);
            float[] x = Arrays.copyOfRange(points, 2 * at, 2 * (at + m));
            float[] logits;
            try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
                logits = module.forward(Tensor.of(x, m, 2)).toFloatArray();
            }
            for (int i = 0; i < m; i++) checksum += BatchInference.argmax(logits, 3 * i, 3);
        }
        if (checksum < 0) throw new AssertionError();
        return (to - from) / ((System.nanoTime() - t0) / 1e9);
    }

    /** Rows per second of two threads each scoring half the rows. */
    private static double twoThreads(Module module, float[] points, int n, int batch) {
        long t0 = System.nanoTime();
        Thread other = Thread.ofPlatform().start(() -> oneJvm(module, points, n / 2, n, batch));
        oneJvm(module, points, 0, n / 2, batch);
        try {
            other.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    // ---------------------------------------------------------------- one training epoch

    private static void trainingEpoch(SparkSession spark, int n, int repeats) {
        Spirals s = Spirals.generate(n / 3, 3, 0.2, 12);
        int globalBatch = 64, k = 50;
        double[] single = new double[repeats];
        for (int r = -1; r < repeats; r++) {
            long t0 = System.nanoTime();
            trainOneJvm(s, 1, globalBatch, 0.01, 3).close();
            if (r >= 0) single[r] = (System.nanoTime() - t0) / 1e9;
        }
        Dataset<Row> df = frame(spark, s, 2).cache();
        df.count();
        double[] spark2 = new double[repeats];
        double[] outside = new double[repeats];
        var classifier = new PanamaxClassifier(SPIRAL_NET).setEpochs(1).setBatchSize(globalBatch / 2).setSyncEvery(k).setSeed(3);
        for (int r = -1; r < repeats; r++) {
            long compute0 = ComputeTime.nanos(), t0 = System.nanoTime();
            classifier.fit(df).close();
            long wall = System.nanoTime() - t0;
            if (r >= 0) {
                spark2[r] = wall / 1e9;
                outside[r] = 1 - (ComputeTime.nanos() - compute0) / (2.0 * wall);
            }
        }
        df.unpersist();
        System.out.printf(Locale.ROOT, "%ntraining epoch, %d rows, %s, Adam, global batch %d, K=%d (seconds, median [min-max] of %d):%n",
                s.size(), SPIRAL_NET, globalBatch, k, repeats);
        System.out.printf(Locale.ROOT, "  one JVM               %s%n", figure(single));
        System.out.printf(Locale.ROOT, "  Spark local[2], 2 partitions %s%n", figure(spark2));
        System.out.printf(Locale.ROOT, "  share of task time outside Panamax: %s%n", percent(outside));
    }

    // ---------------------------------------------------------------- accuracy and time against K and partitions

    private static void syncTable(SparkSession spark, boolean quick) {
        Spirals train = Spirals.generate(200, 3, 0.2, 21), test = Spirals.generate(200, 3, 0.2, 22);
        int epochs = 20, globalBatch = 32;
        Dataset<Row> testDf = frame(spark, test, 2).cache();
        long t0 = System.nanoTime();
        Module single = trainOneJvm(train, epochs, globalBatch, 0.01, 5);
        double singleSeconds = (System.nanoTime() - t0) / 1e9;
        double singleAccuracy;
        try {
            singleAccuracy = accuracy(single, test);
        } finally {
            single.close();
        }
        System.out.printf(Locale.ROOT, "%nspirals, %d training rows, %d epochs, global batch %d (each of P partitions takes %d/P rows a step),"
                + " test accuracy on %d rows:%n", train.size(), epochs, globalBatch, globalBatch, test.size());
        System.out.printf(Locale.ROOT, "  one JVM                     accuracy %.3f  %6.2f s%n", singleAccuracy, singleSeconds);
        int[] partitions = quick ? new int[] {2} : new int[] {1, 2, 4};
        int[] ks = quick ? new int[] {10} : new int[] {2, 10, 50};
        for (int p : partitions) {
            Dataset<Row> df = frame(spark, train, p).cache();
            df.count();
            for (int k : ks) {
                var classifier = new PanamaxClassifier(SPIRAL_NET).setEpochs(epochs).setBatchSize(globalBatch / p).setSyncEvery(k).setSeed(5);
                long f0 = System.nanoTime();
                try (var model = classifier.fit(df)) {
                    double seconds = (System.nanoTime() - f0) / 1e9;
                    long right = model.transform(testDf).filter(col("prediction").equalTo(col("label"))).count();
                    System.out.printf(Locale.ROOT, "  P=%d K=%-3d rounds=%-4d      accuracy %.3f  %6.2f s%n", p, k,
                            model.trainingSummary().orElseThrow().rounds(), right / (double) test.size(), seconds);
                }
            }
            df.unpersist();
        }
        testDf.unpersist();
    }

    // ---------------------------------------------------------------- helpers

    private static boolean runs(String[] args, String part) {
        List<String> parts = Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
        return parts.isEmpty() || parts.contains(part);
    }

    private static Module trainOneJvm(Spirals s, int epochs, int batch, double lr, long seed) {
        Module model = TensorScope.unscoped(() -> SPIRAL_NET.create(new SplittableRandom(seed)));
        float[] points = s.points();
        long[] labels = s.labels();
        try (Adam adam = TensorScope.unscoped(() -> new Adam(model.parameters(), lr))) {
            var rng = new SplittableRandom(seed);
            int[] order = new int[s.size()];
            for (int i = 0; i < order.length; i++) order[i] = i;
            for (int e = 0; e < epochs; e++) {
                for (int i = order.length - 1; i > 0; i--) {
                    int j = rng.nextInt(i + 1), t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
                for (int from = 0; from < order.length; from += batch) {
                    int m = Math.min(batch, order.length - from);
                    float[] x = new float[2 * m];
                    long[] y = new long[m];
                    for (int r = 0; r < m; r++) {
                        x[2 * r] = points[2 * order[from + r]];
                        x[2 * r + 1] = points[2 * order[from + r] + 1];
                        y[r] = labels[order[from + r]];
                    }
                    try (var _ = TensorScope.open()) {
                        Tensor loss = Loss.crossEntropy(model.forward(Tensor.of(x, m, 2)), Tensor.of(y));
                        adam.zeroGrad();
                        loss.backward();
                        adam.step();
                    }
                }
            }
            adam.zeroGrad();
        }
        return model;
    }

    private static double accuracy(Module model, Spirals s) {
        float[] logits;
        try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            logits = model.forward(Tensor.of(s.points(), s.size(), 2)).toFloatArray();
        }
        long[] y = s.labels();
        int right = 0;
        for (int i = 0; i < y.length; i++) if (BatchInference.argmax(logits, 3 * i, 3) == y[i]) right++;
        return right / (double) y.length;
    }

    private static Dataset<Row> frame(SparkSession spark, Spirals s, int partitions) {
        float[] p = s.points();
        long[] y = s.labels();
        List<Row> rows = new ArrayList<>(s.size());
        for (int i = 0; i < s.size(); i++) rows.add(RowFactory.create(new float[] {p[2 * i], p[2 * i + 1]}, (double) y[i]));
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.FloatType, false))
                .add("label", DataTypes.DoubleType);
        return spark.createDataFrame(rows, schema).repartition(partitions);
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static String figure(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return String.format(Locale.ROOT, "%.4g [%.4g-%.4g]", median(v), c[0], c[c.length - 1]);
    }

    private static String percent(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return String.format(Locale.ROOT, "%.0f%% [%.0f-%.0f%%]", 100 * median(v), 100 * c[0], 100 * c[c.length - 1]);
    }
}

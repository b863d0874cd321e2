package dev.panamax.spark;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.DType;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.data.DataLoader;
import dev.panamax.tensor.data.Spirals;
import dev.panamax.tensor.io.SafeTensors;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.optim.Adam;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inference and training in {@code local[2]}: the same numbers as one JVM, retried tasks, refused
 * rows and batches. Leak detection (PARANOID) covers the executors: they run in this JVM.
 */
class SparkTest {
    private static final Mlp SPIRAL_NET = new Mlp(2, List.of(32), 3);
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSessions.local();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.IntegerType)
            .add("features", DataTypes.createArrayType(DataTypes.FloatType, false))
            .add("vector", SQLDataTypes.VectorType())
            .add("label", DataTypes.LongType);

    private static Dataset<Row> frame(Spirals s, int partitions) {
        float[] p = s.points();
        long[] y = s.labels();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            rows.add(RowFactory.create(i, new float[] {p[2 * i], p[2 * i + 1]}, Vectors.dense(p[2 * i], p[2 * i + 1]), y[i]));
        }
        return spark.createDataFrame(rows, SCHEMA).repartition(partitions).sortWithinPartitions("id");
    }

    @Test
    void inferenceGivesTheSingleJvmLoopsNumbersBitForBit(@TempDir Path dir) throws Exception {
        Path checkpoint = dir.resolve("net.safetensors");
        Module net = TensorScope.unscoped(() -> SPIRAL_NET.create(new SplittableRandom(3)));
        try {
            SafeTensors.write(checkpoint, net.stateDict(), Map.of("format", "pt"));
        } finally {
            net.close();
        }
        Spirals s = Spirals.generate(200, 3, 0.2, 5);
        long loadsBefore = ExecutorModels.loads();
        List<Row> scored;
        try (var model = PanamaxClassificationModel.load(checkpoint, SPIRAL_NET)) {
            model.setBatchSize(16).setLogitsCol("logits");
            scored = model.transform(frame(s, 4)).collectAsList();
            List<Row> fromVectors = model.setFeaturesCol("vector").transform(frame(s, 4)).collectAsList();
            for (int i = 0; i < scored.size(); i++) assertEquals(scored.get(i).getDouble(4), fromVectors.get(i).getDouble(4));
        }
        assertEquals(1, ExecutorModels.loads() - loadsBefore, "the model is loaded once per executor, not per task (4 tasks, twice)");
        assertEquals(s.size(), scored.size());

        // the same rows through one module in this JVM, one row at a time
        Module local = TensorScope.unscoped(() -> SPIRAL_NET.create(new SplittableRandom(0)));
        try {
            dev.panamax.tensor.io.Checkpoint.loadModule(checkpoint, local);
            for (Row row : scored) {
                List<Float> features = row.getList(1);
                float[] x = {features.get(0), features.get(1)};
                float[] expected;
                try (var _ = TensorScope.open(); var _ = Autograd.noGrad()) {
                    expected = local.forward(Tensor.of(x, 1, 2)).toFloatArray();
                }
                List<Float> logits = row.getList(5);
                for (int c = 0; c < 3; c++) {
                    assertEquals(Float.floatToRawIntBits(expected[c]), Float.floatToRawIntBits(logits.get(c)),
                            "row id=" + row.getInt(0) + " logit " + c + ": " + expected[c] + " vs " + logits.get(c));
                }
                assertEquals(BatchInference.argmax(expected, 0, 3), (int) row.getDouble(4), "row id=" + row.getInt(0));
            }
        } finally {
            local.close();
        }
    }

    @Test
    void dataParallelTrainingReachesTheSingleMachineAccuracy() {
        Spirals s = Spirals.generate(100, 3, 0.2, 1);
        int epochs = 25, batch = 16;
        double single = trainOneJvm(s, epochs, batch);
        // the same global batch: each of the two partitions takes half of it per step, so both take the same number of steps
        var classifier = new PanamaxClassifier(SPIRAL_NET).setEpochs(epochs).setBatchSize(batch / 2).setSyncEvery(20).setLearningRate(0.01).setSeed(4);
        try (var model = classifier.fit(frame(s, 2))) {
            double distributed = accuracy(model.transform(frame(s, 2)));
            assertEquals(2, model.trainingSummary().orElseThrow().partitions());
            assertTrue(distributed >= single - 0.05, "two partitions: accuracy " + distributed + ", one JVM " + single + " (margin 0.05)");
            assertTrue(distributed >= 0.85, "accuracy " + distributed);
        }
    }

    @Test
    void aRetriedTaskLeavesTheResultUnchanged() {
        Spirals s = Spirals.generate(40, 3, 0.2, 2);
        var plain = new PanamaxClassifier(SPIRAL_NET).setEpochs(3).setBatchSize(16).setSyncEvery(4).setSeed(9);
        var failing = new PanamaxClassifier(new FailsFirstAttempt(SPIRAL_NET, 1)).setEpochs(3).setBatchSize(16).setSyncEvery(4).setSeed(9);
        try (var expected = plain.fit(frame(s, 2)); var retried = failing.fit(frame(s, 2))) {
            assertEquals(expected.weights(), retried.weights());
        }
    }

    @Test
    void rowsOfTheWrongLengthAreRefusedNamingPartitionAndRow(@TempDir Path dir) throws Exception {
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType, false));
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) rows.add(RowFactory.create((Object) (i == 6 ? new double[] {1, 2, 3} : new double[] {1, 2})));
        Dataset<Row> df = spark.createDataFrame(rows, schema).coalesce(1).repartition(1);
        Dataset<Row> twoParts = spark.createDataFrame(spark.sparkContext().parallelize(
                scala.jdk.javaapi.CollectionConverters.asScala(rows).toSeq(), 2, scala.reflect.ClassTag$.MODULE$.apply(Row.class)), schema);
        Path checkpoint = dir.resolve("net.safetensors");
        try (var model = new PanamaxClassifier(SPIRAL_NET).setEpochs(1).fit(spark.createDataFrame(List.of(
                RowFactory.create(new float[] {0, 1}, 1L)), new StructType().add("features", DataTypes.createArrayType(DataTypes.FloatType, false))
                .add("label", DataTypes.LongType)))) {
            model.save(checkpoint);
            Exception e = assertThrows(Exception.class, () -> model.transform(twoParts).collectAsList());
            assertTrue(rootMessage(e).contains("partition 1, row 2: features column 'features' has 3 values; expected 2 values (the model's input width)"),
                    rootMessage(e));
        }
        assertTrue(df.count() == 8);
    }

    @Test
    void aBatchThatCannotFitTheExecutorsBudgetIsRefusedBeforeAnyTask() {
        Dataset<Row> df = frame(Spirals.generate(10, 3, 0.2, 2), 2);
        try (var model = new PanamaxClassifier(SPIRAL_NET).setEpochs(1).fit(df)) {
            var e = assertThrows(BatchTooLargeException.class, () -> model.setBatchSize(10_000_000).transform(df));
            assertTrue(e.getMessage().contains("a batch of 10000000 rows needs") && e.getMessage().contains("spark.executor.memoryOverhead"),
                    e.getMessage());
        }
    }

    @Test
    void itIsAStageOfASparkMlPipeline() {
        Dataset<Row> df = frame(Spirals.generate(10, 3, 0.2, 3), 2);
        var pipeline = new org.apache.spark.ml.Pipeline().setStages(new org.apache.spark.ml.PipelineStage[] {
                new PanamaxClassifier(SPIRAL_NET).setEpochs(2).setFeaturesCol("vector")});
        org.apache.spark.ml.PipelineModel fitted = pipeline.fit(df);
        try (var model = (PanamaxClassificationModel) fitted.stages()[0]) {
            Dataset<Row> scored = fitted.transform(df);
            assertEquals(List.of("id", "features", "vector", "label", "prediction"), List.of(scored.columns()));
            assertEquals(30, scored.filter("prediction >= 0 and prediction < 3").count());
            assertEquals(2, model.trainingSummary().orElseThrow().partitions());
        }
    }

    private static String rootMessage(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) all.append(t.getMessage()).append('\n');
        return all.toString();
    }

    private static double accuracy(Dataset<Row> scored) {
        List<Row> rows = scored.select("label", "prediction").collectAsList();
        long right = rows.stream().filter(r -> r.getLong(0) == (long) r.getDouble(1)).count();
        return (double) right / rows.size();
    }

    /** The same architecture, optimizer and batch size on all rows in one JVM. */
    private static double trainOneJvm(Spirals s, int epochs, int batch) {
        try (var _ = TensorScope.open()) {
            Tensor x = s.x(), y = s.y();
            Module model = TensorScope.unscoped(() -> SPIRAL_NET.create(new SplittableRandom(4)));
            try (Adam adam = TensorScope.unscoped(() -> new Adam(model.parameters(), 0.01))) {
                var loader = new DataLoader(x, y, batch, new SplittableRandom(4));
                for (int e = 0; e < epochs; e++) {
                    for (DataLoader.Batch b : loader) {
                        try (var _ = TensorScope.open()) {
                            Tensor loss = Loss.crossEntropy(model.forward(b.input()), b.target());
                            adam.zeroGrad();
                            loss.backward();
                            adam.step();
                        }
                    }
                }
                adam.zeroGrad();
                try (var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
                    return model.forward(x).argmax(1).eq(y).cast(DType.F32).mean().item();
                }
            } finally {
                model.close();
            }
        }
    }
}

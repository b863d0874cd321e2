package dev.panamax.examples.spark;

import dev.panamax.spark.Mlp;
import dev.panamax.spark.PanamaxClassificationModel;
import dev.panamax.spark.PanamaxClassifier;
import dev.panamax.spark.TrainingSummary;
import dev.panamax.tensor.data.Spirals;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.apache.spark.sql.functions.col;

/**
 * Trains a small network on the spirals with two partitions in local[2] (data-parallel: each
 * partition trains on its rows, the models are averaged every 20 steps), saves it, loads it back
 * and scores a DataFrame in batches, then prints the accuracy.
 */
public final class SpiralsOnSpark {
    public static void main(String[] args) throws Exception {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("spirals-on-spark")
                .config("spark.ui.enabled", "false")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .getOrCreate();
        try {
            Dataset<Row> train = spirals(spark, Spirals.generate(300, 3, 0.2, 1));
            Dataset<Row> test = spirals(spark, Spirals.generate(100, 3, 0.2, 2));

            var classifier = new PanamaxClassifier(new Mlp(2, List.of(64), 3))
                    .setEpochs(30).setBatchSize(16).setSyncEvery(20).setLearningRate(0.01).setSeed(7);
            Path checkpoint = Files.createTempFile("spirals", ".safetensors");
            try (PanamaxClassificationModel trained = classifier.fit(train)) {
                TrainingSummary s = trained.trainingSummary().orElseThrow();
                System.out.printf("trained on %d partitions: %d rounds of %d local steps, loss %.3f -> %.3f, %.1f s%n", s.partitions(),
                        s.rounds(), s.stepsPerRound(), s.meanLoss().getFirst(), s.meanLoss().getLast(), s.seconds());
                trained.save(checkpoint);
            }

            // batch inference with the saved weights, as a separate scoring job would
            try (var model = PanamaxClassificationModel.load(checkpoint, new Mlp(2, List.of(64), 3))) {
                Dataset<Row> scored = model.setBatchSize(128).setLogitsCol("logits").transform(test);
                long right = scored.filter(col("prediction").equalTo(col("label"))).count();
                double accuracy = (double) right / test.count();
                System.out.printf("test accuracy %.3f on %d rows (batch inference, 2 partitions)%n", accuracy, test.count());
                if (accuracy < 0.9) throw new IllegalStateException("accuracy " + accuracy + " is below 0.9: the model did not learn");
            } finally {
                Files.deleteIfExists(checkpoint);
            }
        } finally {
            spark.stop();
        }
    }

    private static Dataset<Row> spirals(SparkSession spark, Spirals s) {
        float[] p = s.points();
        long[] y = s.labels();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) rows.add(RowFactory.create(new float[] {p[2 * i], p[2 * i + 1]}, (double) y[i]));
        StructType schema = new StructType()
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false))
                .add("label", DataTypes.DoubleType);
        return spark.createDataFrame(rows, schema).repartition(2);
    }
}

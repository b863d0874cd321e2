package dev.panamax.spark;

import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Module;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Trains a Panamax classifier on a DataFrame with data-parallel parameter averaging, as a Spark ML
 * {@link Estimator}: every partition trains a copy of the model on its own rows (Adam, cross-entropy,
 * batches of {@link #setBatchSize}); every {@link #setSyncEvery K} local steps the partitions'
 * parameters and Adam moments are summed with {@code treeAggregate}, averaged on the driver and
 * broadcast as the start of the next round, for {@link #setEpochs E} passes over each partition.
 * The result is a {@link PanamaxClassificationModel}; close it when done.
 *
 * <pre>{@code
 * var classifier = new PanamaxClassifier(new Mlp(2, List.of(64), 3))
 *         .setFeaturesCol("features").setLabelCol("label")
 *         .setEpochs(30).setBatchSize(32).setSyncEvery(10).setLearningRate(0.01);
 * try (PanamaxClassificationModel model = classifier.fit(train)) {
 *     Dataset<Row> scored = model.transform(test);     // + a "prediction" column
 * }
 * }</pre>
 *
 * Configuration is plain typed setters rather than Spark's {@code Param}s: the model's architecture is
 * a Java object ({@link ModuleFactory}), which a string-keyed {@code ParamMap} cannot carry, and the
 * setters check their values at once. The class still is an {@code Estimator}, so it fits in a
 * {@code Pipeline}.
 */
public final class PanamaxClassifier extends Estimator<PanamaxClassificationModel> {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final ModuleFactory factory;
    private String featuresCol = "features";
    private String labelCol = "label";
    private int epochs = 10;
    private int batchSize = 32;
    private int syncEvery = 10;
    private double learningRate = 0.01;
    private long seed = 0;

    /** A classifier that trains the architecture {@code factory} builds. */
    public PanamaxClassifier(ModuleFactory factory) {
        this(Identifiable$.MODULE$.randomUID("panamaxClassifier"), factory);
    }

    private PanamaxClassifier(String uid, ModuleFactory factory) {
        this.uid = uid;
        this.factory = java.util.Objects.requireNonNull(factory, "factory");
    }

    /** The column of features: {@code array<float>}, {@code array<double>} or a Spark ML vector (default {@code features}). */
    public PanamaxClassifier setFeaturesCol(String column) {
        this.featuresCol = java.util.Objects.requireNonNull(column, "featuresCol");
        return this;
    }

    /** The column of labels, class indices of any numeric type (default {@code label}). */
    public PanamaxClassifier setLabelCol(String column) {
        this.labelCol = java.util.Objects.requireNonNull(column, "labelCol");
        return this;
    }

    /** Passes over each partition's rows (default 10). */
    public PanamaxClassifier setEpochs(int epochs) {
        this.epochs = positive("epochs", epochs);
        return this;
    }

    /** Rows per local step (default 32). */
    public PanamaxClassifier setBatchSize(int batchSize) {
        this.batchSize = positive("batchSize", batchSize);
        return this;
    }

    /** K: local steps between two averagings of the partitions' models (default 10). */
    public PanamaxClassifier setSyncEvery(int steps) {
        this.syncEvery = positive("syncEvery", steps);
        return this;
    }

    /** Adam's learning rate (default 0.01). */
    public PanamaxClassifier setLearningRate(double learningRate) {
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("learningRate=" + learningRate + ", expected a finite value > 0");
        }
        this.learningRate = learningRate;
        return this;
    }

    /** Seeds the initial weights and every partition's batch order (default 0). */
    public PanamaxClassifier setSeed(long seed) {
        this.seed = seed;
        return this;
    }

    private static int positive(String name, int value) {
        if (value < 1) throw new IllegalArgumentException(name + "=" + value + ", expected at least 1");
        return value;
    }

    @Override
    public PanamaxClassificationModel fit(Dataset<?> dataset) {
        long t0 = System.nanoTime();
        ModelState state = initialState();
        int width = state.parameters().getFirst().shape()[1];
        StructType schema = dataset.schema();
        Features features = Features.of(schema, featuresCol, width);
        int label = labelIndex(schema);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext());
        JavaRDD<TrainingPartition> data = dataset.toDF().javaRDD()
                .mapPartitionsWithIndex((partition, rows) -> List.of(gather(partition, rows, features, label)).iterator(), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            int most = 0, partitions = 0;
            int batch = batchSize;
            for (int steps : data.map(p -> p.stepsPerEpoch(batch)).collect()) {
                if (steps == 0) continue;
                partitions++;
                most = Math.max(most, steps);
            }
            if (partitions == 0) throw new IllegalArgumentException("fit: the dataset has no rows");
            int rounds = (int) ((epochs * (long) most + syncEvery - 1) / syncEvery);
            List<Double> losses = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                Broadcast<byte[]> start = sc.broadcast(Wire.encode(state));
                try {
                    byte[] summed = data.mapPartitions(new LocalSteps(start, factory, round, syncEvery, epochs, batchSize, learningRate, seed))
                            .treeAggregate(new byte[0], RoundResult::plus, RoundResult::plus);
                    RoundResult sum = Wire.decode(summed, RoundResult.class);
                    state = sum.mean();
                    losses.add(sum.meanLoss());
                } finally {
                    start.destroy();
                }
            }
            var summary = new TrainingSummary(partitions, rounds, syncEvery, losses, (System.nanoTime() - t0) / 1e9);
            var weights = new ModelState(state.parameters(), List.of(), java.util.Map.of());
            return new PanamaxClassificationModel(uid, factory, weights, summary).setFeaturesCol(featuresCol).setParent(this);
        } finally {
            data.unpersist(false);
        }
    }

    /** The factory's model with weights drawn from the seed, as every partition starts. */
    private ModelState initialState() {
        Module m = TensorScope.unscoped(() -> factory.create(new SplittableRandom(seed)));
        try {
            return ModelState.of(m);
        } finally {
            m.close();
        }
    }

    private int labelIndex(StructType schema) {
        int index;
        try {
            index = schema.fieldIndex(labelCol);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("no label column '" + labelCol + "'; the columns are " + List.of(schema.fieldNames()));
        }
        if (!(schema.fields()[index].dataType() instanceof NumericType)) {
            throw new IllegalArgumentException("label column '" + labelCol + "' is " + schema.fields()[index].dataType().simpleString()
                    + "; expected class indices of a numeric type");
        }
        return index;
    }

    private static TrainingPartition gather(int partition, Iterator<Row> rows, Features features, int label) {
        float[] x = new float[1024 * features.width()];
        long[] y = new long[1024];
        int n = 0;
        while (rows.hasNext()) {
            Row row = rows.next();
            if (n == y.length) {
                y = java.util.Arrays.copyOf(y, 2 * n);
                x = java.util.Arrays.copyOf(x, 2 * n * features.width());
            }
            features.read(row, partition, n, x, n * features.width());
            if (row.isNullAt(label)) {
                throw new IllegalArgumentException("partition " + partition + ", row " + n + ": label is null; expected a class index");
            }
            double v = ((Number) row.get(label)).doubleValue();
            if (v < 0 || v != Math.rint(v)) {
                throw new IllegalArgumentException("partition " + partition + ", row " + n + ": label " + v + "; expected a class index >= 0");
            }
            y[n++] = (long) v;
        }
        return new TrainingPartition(partition, java.util.Arrays.copyOf(x, n * features.width()), java.util.Arrays.copyOf(y, n), features.width());
    }

    @Override
    public StructType transformSchema(StructType schema) {
        Features.of(schema, featuresCol, 1);
        labelIndex(schema);
        return PanamaxClassificationModel.withOutputColumns(schema, "prediction", null);
    }

    @Override
    public PanamaxClassifier copy(ParamMap extra) {
        return new PanamaxClassifier(uid, factory).setFeaturesCol(featuresCol).setLabelCol(labelCol).setEpochs(epochs)
                .setBatchSize(batchSize).setSyncEvery(syncEvery).setLearningRate(learningRate).setSeed(seed);
    }

    @Override
    public String uid() {
        return uid;
    }
}

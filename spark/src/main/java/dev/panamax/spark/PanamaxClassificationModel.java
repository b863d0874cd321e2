package dev.panamax.spark;

import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.io.Checkpoint;
import dev.panamax.tensor.io.SafeTensors;
import dev.panamax.tensor.nn.Module;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * A trained Panamax classifier as a Spark ML {@link Model}: {@link #transform} scores a DataFrame in
 * {@code mapPartitions}, batch by batch, appending a {@code prediction} column (the class index, a
 * double, as Spark ML's classifiers) and, when {@link #setLogitsCol asked}, the logits
 * ({@code array<float>}).
 * <ul>
 *   <li>The weights are broadcast once; each executor builds the model once
 *   ({@link ModuleFactory}), on its first task, and its later tasks share it.</li>
 *   <li>Each batch is one forward pass in a scope of its own: its tensors are freed as soon as its
 *   logits are read.</li>
 *   <li>A batch must fit the executor's native budget ({@link ExecutorMemoryBudget}); one that cannot
 *   fails before any task runs, with a {@link BatchTooLargeException} naming the batch size that fits.</li>
 *   <li>A task Spark gives a GPU ({@code spark.task.resource.gpu.amount}) computes on it (the
 *   {@code opencl} tensor backend on the GPU of the task's address).</li>
 * </ul>
 * Rows whose features are not exactly the model's input width are refused, naming the partition and
 * the row. {@link #close()} frees the model's copies in this JVM (the executors' too in local mode)
 * and the broadcast.
 *
 * <pre>{@code
 * try (var model = PanamaxClassificationModel.load(Path.of("spirals.safetensors"), new Mlp(2, List.of(64), 3))) {
 *     Dataset<Row> scored = model.setBatchSize(1024).setLogitsCol("logits").transform(df);
 * }
 * }</pre>
 */
public final class PanamaxClassificationModel extends Model<PanamaxClassificationModel> implements AutoCloseable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final ModuleFactory factory;
    private final ModelState weights;
    private final TrainingSummary summary;
    private final String modelId;
    private String featuresCol = "features";
    private String predictionCol = "prediction";
    private String logitsCol;
    private int batchSize = 256;
    private transient Broadcast<byte[]> broadcast;
    private transient long bytesPerRow;

    PanamaxClassificationModel(String uid, ModuleFactory factory, ModelState weights, TrainingSummary summary) {
        this(uid, factory, weights, summary, UUID.randomUUID().toString());
    }

    private PanamaxClassificationModel(String uid, ModuleFactory factory, ModelState weights, TrainingSummary summary, String modelId) {
        this.uid = uid;
        this.factory = Objects.requireNonNull(factory, "factory");
        this.weights = Objects.requireNonNull(weights, "weights");
        this.summary = summary;
        this.modelId = modelId;
    }

    /**
     * The model {@code factory} builds with the weights of {@code checkpoint}: a safetensors file
     * {@link Checkpoint#save} or {@link #save} wrote, or PyTorch's {@code save_file(model.state_dict())}
     * of the same architecture.
     *
     * @throws IllegalArgumentException when the file does not fit the architecture (naming the tensors)
     */
    public static PanamaxClassificationModel load(Path checkpoint, ModuleFactory factory) throws IOException {
        Module module = TensorScope.unscoped(() -> factory.create(new SplittableRandom(0)));
        try {
            Checkpoint.loadModule(checkpoint, module);
            return new PanamaxClassificationModel(Identifiable$.MODULE$.randomUID("panamaxClassificationModel"), factory,
                    ModelState.of(module), null);
        } finally {
            module.close();
        }
    }

    /** Writes the weights to {@code file} as safetensors with PyTorch's names, which {@link #load} reads back. */
    public void save(Path file) throws IOException {
        Module module = weights.newModule(factory);
        try {
            SafeTensors.write(file, module.stateDict(), Map.of("format", "pt"));
        } finally {
            module.close();
        }
    }

    /** The column of features: {@code array<float>}, {@code array<double>} or a Spark ML vector (default {@code features}). */
    public PanamaxClassificationModel setFeaturesCol(String column) {
        this.featuresCol = Objects.requireNonNull(column, "featuresCol");
        return this;
    }

    /** The column the predicted class index is written to (default {@code prediction}). */
    public PanamaxClassificationModel setPredictionCol(String column) {
        this.predictionCol = Objects.requireNonNull(column, "predictionCol");
        return this;
    }

    /** The column the logits are written to ({@code array<float>}); null (the default) writes none. */
    public PanamaxClassificationModel setLogitsCol(String column) {
        this.logitsCol = column;
        return this;
    }

    /** Rows per forward pass (default 256). */
    public PanamaxClassificationModel setBatchSize(int batchSize) {
        if (batchSize < 1) throw new IllegalArgumentException("batchSize=" + batchSize + ", expected at least 1");
        this.batchSize = batchSize;
        return this;
    }

    /** The weights, as plain data. */
    public ModelState weights() {
        return weights;
    }

    /** How training went, when this model came from {@link PanamaxClassifier#fit}. */
    public Optional<TrainingSummary> trainingSummary() {
        return Optional.ofNullable(summary);
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        StructType schema = dataset.schema();
        StructType out = transformSchema(schema);
        Features features = Features.of(schema, featuresCol, weights.parameters().getFirst().shape()[1]);
        SparkSession spark = dataset.sparkSession();
        checkBudget(spark);
        BatchInference inference = new BatchInference(modelId, broadcast(spark), factory, features, batchSize, logitsCol != null);
        return dataset.toDF().mapPartitions((MapPartitionsFunction<Row, Row>) inference::call, Encoders.row(out));
    }

    /** Fails before any task runs when a batch cannot fit an executor's budget (each executor checks again). */
    private void checkBudget(SparkSession spark) {
        ExecutorMemoryBudget.from(spark.sparkContext().getConf()).check(batchSize, bytesPerRow(), weights.parameterBytes());
    }

    /** A row's native cost, measured once on the driver by running one row through the model. */
    private synchronized long bytesPerRow() {
        if (bytesPerRow == 0) {
            LoadedModel probe = TensorScope.unscoped(() -> LoadedModel.load(weights, factory, dev.panamax.tensor.Backends.current()));
            try {
                bytesPerRow = probe.bytesPerRow();
            } finally {
                probe.close();
            }
        }
        return bytesPerRow;
    }

    private synchronized Broadcast<byte[]> broadcast(SparkSession spark) {
        if (broadcast == null) broadcast = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(Wire.encode(weights));
        return broadcast;
    }

    @Override
    public StructType transformSchema(StructType schema) {
        Features.of(schema, featuresCol, 1);
        return withOutputColumns(schema, predictionCol, logitsCol);
    }

    static StructType withOutputColumns(StructType schema, String predictionCol, String logitsCol) {
        for (String c : new String[] {predictionCol, logitsCol}) {
            if (c != null && java.util.List.of(schema.fieldNames()).contains(c)) {
                throw new IllegalArgumentException("output column '" + c + "' already exists; expected a new column name");
            }
        }
        StructType out = schema.add(predictionCol, DataTypes.DoubleType, false);
        if (logitsCol != null) out = out.add(logitsCol, DataTypes.createArrayType(DataTypes.FloatType, false), false);
        return out;
    }

    /** A copy with the same weights and settings; it shares the executors' loaded model with this one. */
    @Override
    public PanamaxClassificationModel copy(ParamMap extra) {
        var copy = new PanamaxClassificationModel(uid, factory, weights, summary, modelId).setFeaturesCol(featuresCol)
                .setPredictionCol(predictionCol).setLogitsCol(logitsCol).setBatchSize(batchSize);
        copy.broadcast = broadcast;
        copy.bytesPerRow = bytesPerRow;
        return copy.setParent(parent());
    }

    @Override
    public String uid() {
        return uid;
    }

    /**
     * Frees the model's copies loaded in this JVM (in local mode, the executors'; a cluster's
     * executors free theirs when they exit) and destroys the broadcast of its weights.
     */
    @Override
    public synchronized void close() {
        ExecutorModels.release(modelId);
        if (broadcast != null) {
            broadcast.destroy();
            broadcast = null;
        }
    }
}

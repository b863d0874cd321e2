package dev.panamax.spark;

import dev.panamax.tensor.Autograd;
import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One partition's inference, run by {@code mapPartitions} on an executor: rows are read in batches
 * of {@code batchSize}, each batch is one forward pass in a {@link TensorScope} of its own (its
 * tensors freed as soon as its logits are read), and every row comes out with its prediction (and
 * logits) appended. Rows stream through: a partition is never held whole.
 */
record BatchInference(String modelId, Broadcast<byte[]> state, ModuleFactory factory, Features features, int batchSize,
                      boolean withLogits) implements FlatMapFunction<Iterator<Row>, Row> {

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
        LoadedModel model = ExecutorModels.get(modelId, state, factory, TaskDevice.forCurrentTask());
        ExecutorMemoryBudget.from(SparkEnv.get().conf()).check(batchSize, model.bytesPerRow(), model.parameterBytes());
        TaskContext task = TaskContext.get();
        int partition = task == null ? 0 : task.partitionId();
        return new Iterator<>() {
            private final List<Row> out = new ArrayList<>(batchSize);
            private int next;
            private long read;

            @Override
            public boolean hasNext() {
                if (next < out.size()) return true;
                if (!rows.hasNext()) return false;
                nextBatch();
                return next < out.size();
            }

            @Override
            public Row next() {
                if (!hasNext()) throw new NoSuchElementException();
                return out.get(next++);
            }

            private void nextBatch() {
                out.clear();
                next = 0;
                List<Row> batch = new ArrayList<>(batchSize);
                float[] x = new float[batchSize * model.inputs()];
                while (batch.size() < batchSize && rows.hasNext()) {
                    Row row = rows.next();
                    features.read(row, partition, read++, x, batch.size() * model.inputs());
                    batch.add(row);
                }
                float[] logits = forward(model, x, batch.size());
                int classes = model.outputs();
                for (int r = 0; r < batch.size(); r++) {
                    Row row = batch.get(r);
                    Object[] values = new Object[row.length() + (withLogits ? 2 : 1)];
                    for (int i = 0; i < row.length(); i++) values[i] = row.get(i);
                    values[row.length()] = (double) argmax(logits, r * classes, classes);
                    if (withLogits) {
                        float[] own = new float[classes];
                        System.arraycopy(logits, r * classes, own, 0, classes);
                        values[row.length() + 1] = own;
                    }
                    out.add(RowFactory.create(values));
                }
            }
        };
    }

    /** The logits of the first {@code rows} rows of {@code x}, row after row; the batch's tensors are freed on return. */
    static float[] forward(LoadedModel model, float[] x, int rows) {
        float[] input = rows * model.inputs() == x.length ? x : java.util.Arrays.copyOf(x, rows * model.inputs());
        long t0 = System.nanoTime();
        try (var _ = Backends.using(model.backend()); var _ = Autograd.noGrad(); var _ = TensorScope.open()) {
            return model.module().forward(Tensor.of(input, rows, model.inputs())).toFloatArray();
        } finally {
            ComputeTime.add(System.nanoTime() - t0);
        }
    }

    /** The first index of the largest value (a NaN counts as largest, as Tensor.argmax has it). */
    static int argmax(float[] values, int from, int length) {
        int best = 0;
        for (int i = 1; i < length; i++) {
            float v = values[from + i], b = values[from + best];
            if (Float.isNaN(b)) break;
            if (v > b || Float.isNaN(v)) best = i;
        }
        return best;
    }
}

package dev.panamax.spark;

import dev.panamax.tensor.Tensor;
import dev.panamax.tensor.TensorScope;
import dev.panamax.tensor.nn.Loss;
import dev.panamax.tensor.nn.Module;
import dev.panamax.tensor.optim.Adam;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One round of data-parallel training on one partition: the model and Adam's moments start from the
 * broadcast average, take steps {@code [round * syncEvery, (round + 1) * syncEvery)} of the
 * partition's schedule, and are sent back for the next average. The schedule is fixed by the seed:
 * local step {@code i} is batch {@code i % stepsPerEpoch} of epoch {@code i / stepsPerEpoch}, the
 * epoch's order drawn from the seed, the partition and the epoch. A retried task therefore computes
 * exactly what the failed attempt would have.
 */
record LocalSteps(Broadcast<byte[]> start, ModuleFactory factory, int round, int syncEvery, int epochs, int batchSize,
                  double learningRate, long seed) implements FlatMapFunction<Iterator<TrainingPartition>, byte[]> {

    @Override
    public Iterator<byte[]> call(Iterator<TrainingPartition> partitions) {
        if (!partitions.hasNext()) return List.<byte[]>of().iterator();
        TrainingPartition data = partitions.next();
        if (data.rows() == 0) return List.<byte[]>of().iterator();
        int perEpoch = data.stepsPerEpoch(batchSize);
        long total = (long) epochs * perEpoch;
        long first = (long) round * syncEvery, end = Math.min(total, first + syncEvery);
        long t0 = System.nanoTime();
        ModelState state = Wire.decode(start.value(), ModelState.class);
        Module model = state.newModule(factory);
        try (Adam adam = TensorScope.unscoped(() -> new Adam(model.parameters(), learningRate))) {
            state.restoreInto(adam);
            double lossSum = 0;
            int[] order = null;
            long orderEpoch = -1;
            for (long step = first; step < end; step++) {
                long epoch = step / perEpoch;
                if (epoch != orderEpoch) {
                    order = shuffled(data.rows(), new SplittableRandom(seed * 1_000_003L + data.partition() * 7919L + epoch));
                    orderEpoch = epoch;
                }
                int from = (int) (step % perEpoch) * batchSize, n = Math.min(batchSize, data.rows() - from);
                float[] x = new float[n * data.width()];
                long[] y = new long[n];
                for (int r = 0; r < n; r++) {
                    int row = order[from + r];
                    System.arraycopy(data.features(), row * data.width(), x, r * data.width(), data.width());
                    y[r] = data.labels()[row];
                }
                try (var _ = TensorScope.open()) {
                    Tensor loss = Loss.crossEntropy(model.forward(Tensor.of(x, n, data.width())), Tensor.of(y));
                    adam.zeroGrad();
                    loss.backward();
                    adam.step();
                    lossSum += loss.item();
                }
            }
            adam.zeroGrad();
            ModelState after = ModelState.of(model, adam).withOptimizerKind("Adam");
            return List.of(Wire.encode(new RoundResult(after, 1, end > first ? lossSum / (end - first) : Double.NaN))).iterator();
        } finally {
            model.close();
            ComputeTime.add(System.nanoTime() - t0);
        }
    }

    private static int[] shuffled(int n, SplittableRandom rng) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }
}

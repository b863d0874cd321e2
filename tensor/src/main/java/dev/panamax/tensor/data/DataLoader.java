package dev.panamax.tensor.data;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.Tensor;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.random.RandomGenerator;

/**
 * Batches of rows of in-memory tensors ({@code inputs} and {@code targets} share their first
 * dimension), reshuffled every pass when given a random generator. A batch gathers its rows only
 * when asked, so inside a {@code TensorScope} they are freed with the step.
 *
 * <pre>{@code
 * var loader = new DataLoader(x, y, 64, new SplittableRandom(7));
 * for (DataLoader.Batch b : loader) {
 *     try (var step = TensorScope.open()) {
 *         Tensor loss = Loss.crossEntropy(model.forward(b.input()), b.target());
 *         ...
 *     }
 * }
 * }</pre>
 */
public final class DataLoader implements Iterable<DataLoader.Batch> {
    private final Tensor inputs;
    private final Tensor targets;
    private final int batchSize;
    private final RandomGenerator rng;

    /** Batches in order, no shuffling. */
    public DataLoader(Tensor inputs, Tensor targets, int batchSize) {
        this(inputs, targets, batchSize, null);
    }

    /** Batches in an order drawn from {@code rng} on every pass (null: in order). */
    public DataLoader(Tensor inputs, Tensor targets, int batchSize, RandomGenerator rng) {
        if (batchSize <= 0) throw new IllegalArgumentException("batch size " + batchSize + ": expected > 0");
        if (inputs.rank() == 0 || targets.rank() == 0 || inputs.dim(0) != targets.dim(0)) {
            throw new IllegalArgumentException("DataLoader: inputs " + inputs.shape() + " and targets " + targets.shape()
                    + " must share their first dimension");
        }
        this.inputs = inputs;
        this.targets = targets;
        this.batchSize = batchSize;
        this.rng = rng;
    }

    /** Number of rows. */
    public int size() {
        return inputs.dim(0);
    }

    /** Batches per pass (the last may be smaller). */
    public int batches() {
        return (size() + batchSize - 1) / batchSize;
    }

    @Override
    public Iterator<Batch> iterator() {
        int n = size();
        long[] order = new long[n];
        for (int i = 0; i < n; i++) order[i] = i;
        if (rng != null) {
            for (int i = n - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                long tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
        }
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < n;
            }

            @Override
            public Batch next() {
                if (next >= n) throw new NoSuchElementException();
                int end = Math.min(n, next + batchSize);
                long[] rows = java.util.Arrays.copyOfRange(order, next, end);
                next = end;
                return new Batch(inputs, targets, rows);
            }
        };
    }

    /** One batch: the row indices, and the rows gathered on first use. */
    public static final class Batch {
        private final Tensor inputs, targets;
        private final long[] rows;
        private Tensor index, input, target;

        Batch(Tensor inputs, Tensor targets, long[] rows) {
            this.inputs = inputs;
            this.targets = targets;
            this.rows = rows;
        }

        /** The rows of the inputs, made in the scope open at the first call. */
        public Tensor input() {
            if (input == null) input = inputs.indexSelect(0, index());
            return input;
        }

        /** The rows of the targets, made in the scope open at the first call. */
        public Tensor target() {
            if (target == null) target = targets.indexSelect(0, index());
            return target;
        }

        /** The row numbers of this batch. */
        public long[] rows() {
            return rows.clone();
        }

        public int size() {
            return rows.length;
        }

        private Tensor index() {
            if (index == null || index.isFreed()) {
                try (var _ = Backends.using(inputs.backend())) {
                    index = Tensor.of(rows);
                }
            }
            return index;
        }
    }
}

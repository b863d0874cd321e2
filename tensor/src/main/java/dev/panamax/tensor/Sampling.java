package dev.panamax.tensor;

import java.util.random.RandomGenerator;

/**
 * PyTorch's {@code multinomial}: category numbers drawn in proportion to non-negative weights, on the
 * host from a caller's {@link RandomGenerator} (seed it for repeatable draws). No gradient.
 */
final class Sampling {
    private Sampling() {}

    /**
     * {@code samples} draws from each row of {@code weights} (rank 1: one distribution; rank 2: one per
     * row), as i64 of shape {@code (samples)} or {@code (rows, samples)}; without replacement a
     * category is drawn at most once, so a row needs at least {@code samples} nonzero weights.
     */
    static Tensor multinomial(Tensor weights, int samples, boolean replacement, RandomGenerator rng) {
        Ops.check("multinomial", weights);
        Ops.floating("multinomial", weights);
        if (rng == null) throw TensorException.of("multinomial", "rng is null; expected a random generator", weights);
        if (weights.rank() != 1 && weights.rank() != 2) {
            throw TensorException.of("multinomial", "expected weights of rank 1 (categories) or 2 (rows, categories)", weights);
        }
        if (samples <= 0) throw TensorException.of("multinomial", "samples=" + samples + "; expected samples > 0", weights);
        int rows = weights.rank() == 1 ? 1 : weights.dim(0);
        int categories = weights.dim(-1);
        if ((long) rows * samples > Creation.MAX_ARRAY_LENGTH) {
            throw TensorException.of("multinomial", rows + " rows of " + samples + " samples; expected at most "
                    + Creation.MAX_ARRAY_LENGTH + " draws", weights);
        }
        double[] w = weights.toDoubleArray();
        long[] drawn = new long[rows * samples];
        for (int r = 0; r < rows; r++) {
            double[] row = java.util.Arrays.copyOfRange(w, r * categories, (r + 1) * categories);
            checkRow(weights, row, r, samples, replacement);
            for (int s = 0; s < samples; s++) {
                int c = draw(row, rng);
                drawn[r * samples + s] = c;
                if (!replacement) row[c] = 0;
            }
        }
        Shape shape = weights.rank() == 1 ? Shape.of(samples) : Shape.of(rows, samples);
        return Creation.write(weights.backend, DType.I64, drawn, shape);
    }

    private static void checkRow(Tensor weights, double[] row, int r, int samples, boolean replacement) {
        double total = 0;
        int nonzero = 0;
        for (int c = 0; c < row.length; c++) {
            if (!(row[c] >= 0) || row[c] == Double.POSITIVE_INFINITY) {
                throw TensorException.of("multinomial", "weight " + row[c] + " at row " + r + ", category " + c
                        + "; expected finite weights >= 0", weights);
            }
            total += row[c];
            if (row[c] > 0) nonzero++;
        }
        if (!(total > 0)) throw TensorException.of("multinomial", "row " + r + " sums to 0; expected a positive sum", weights);
        if (!replacement && nonzero < samples) {
            throw TensorException.of("multinomial", "row " + r + " has " + nonzero + " categories of nonzero weight, fewer than samples="
                    + samples + "; expected samples <= nonzero categories without replacement", weights);
        }
    }

    /** One category, in proportion to the weights (their sum need not be 1). */
    private static int draw(double[] row, RandomGenerator rng) {
        double total = 0;
        for (double v : row) total += v;
        double u = rng.nextDouble() * total;
        int last = 0;
        for (int c = 0; c < row.length; c++) {
            if (row[c] <= 0) continue;
            last = c;
            u -= row[c];
            if (u < 0) return c;
        }
        return last; // rounding left u a hair above the total: the last category of nonzero weight
    }
}

package dev.panamax.cli.demo;

/**
 * Per-feature shift and scale to mean 0 and standard deviation 1, learned from the training rows
 * and applied to every input the model sees (training, validation, the plot's grid), so features
 * of any range train alike.
 */
record Standardizer(float[] mean, float[] scale) {
    /** The mean and standard deviation of each of {@code data}'s features (a constant feature keeps scale 1). */
    static Standardizer of(LabeledData data) {
        int n = data.n(), d = data.d();
        double[] sum = new double[d], sq = new double[d];
        float[] x = data.x();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) sum[j] += x[i * d + j];
        }
        float[] mean = new float[d], scale = new float[d];
        for (int j = 0; j < d; j++) mean[j] = (float) (sum[j] / n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = x[i * d + j] - mean[j];
                sq[j] += v * v;
            }
        }
        for (int j = 0; j < d; j++) {
            double sd = Math.sqrt(sq[j] / n);
            scale[j] = sd > 1e-12 ? (float) sd : 1f;
        }
        return new Standardizer(mean, scale);
    }

    /** {@code (x - mean) / scale}, feature by feature, for rows of {@code mean.length} features. */
    float[] apply(float[] x) {
        int d = mean.length;
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) out[i] = (x[i] - mean[i % d]) / scale[i % d];
        return out;
    }
}

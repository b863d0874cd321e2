package dev.panamax.bench.opencl;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How far the median paired ratio could move if the measurement were repeated: a two-level bootstrap
 * over the JVMs and, within each drawn JVM, over its rounds. Rounds in one JVM share that JVM's draw
 * (JIT, code layout, where its objects landed), so resampling rounds alone would claim a precision the
 * data do not have; drawing the JVMs first carries their spread into the interval.
 *
 * @param low   the {@code (1 - level) / 2} quantile of the resampled medians
 * @param high  the {@code (1 + level) / 2} quantile
 * @param level the coverage asked for, e.g. 0.95
 */
public record PairedInterval(double low, double high, double level) {
    /** Resamples drawn: enough for stable 2.5% and 97.5% quantiles, a fraction of a second on 1,000 rounds. */
    public static final int RESAMPLES = 2000;

    public PairedInterval {
        if (!(low <= high)) throw new IllegalArgumentException("interval bounds out of order: low=" + low + " high=" + high);
    }

    /** Whether the interval holds {@code value}. */
    public boolean contains(double value) {
        return low <= value && value <= high;
    }

    /**
     * The interval of the pooled median of {@code ratios} (per JVM, per round), from {@code resamples}
     * draws of a random sequence seeded with {@code seed}: the same data and seed give the same interval.
     */
    public static PairedInterval of(List<double[]> ratios, double level, int resamples, long seed) {
        if (ratios.isEmpty() || ratios.stream().anyMatch(r -> r.length == 0)) {
            throw new IllegalArgumentException("paired interval: every JVM needs at least one round, got "
                    + ratios.stream().map(r -> r.length).toList() + " rounds per JVM");
        }
        if (!(level > 0 && level < 1)) throw new IllegalArgumentException("paired interval: level must be in (0, 1), got " + level);
        if (resamples < 1) throw new IllegalArgumentException("paired interval: resamples must be positive, got " + resamples);
        SplittableRandom random = new SplittableRandom(seed);
        int jvms = ratios.size();
        int total = ratios.stream().mapToInt(r -> r.length).max().orElseThrow() * jvms;
        double[] pooled = new double[total];
        double[] medians = new double[resamples];
        for (int s = 0; s < resamples; s++) {
            int n = 0;
            for (int j = 0; j < jvms; j++) {
                double[] rounds = ratios.get(random.nextInt(jvms));
                if (n + rounds.length > pooled.length) pooled = Arrays.copyOf(pooled, n + rounds.length);
                for (int r = 0; r < rounds.length; r++) pooled[n++] = rounds[random.nextInt(rounds.length)];
            }
            medians[s] = median(pooled, n);
        }
        Arrays.sort(medians);
        return new PairedInterval(quantile(medians, (1 - level) / 2), quantile(medians, (1 + level) / 2), level);
    }

    private static double median(double[] values, int n) {
        Arrays.sort(values, 0, n);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    /** The {@code q} quantile of sorted {@code values}, by linear interpolation between the nearest ranks. */
    private static double quantile(double[] sorted, double q) {
        double at = q * (sorted.length - 1);
        int below = (int) Math.floor(at);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
    }
}

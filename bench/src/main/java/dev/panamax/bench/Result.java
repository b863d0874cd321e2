package dev.panamax.bench;

import java.util.Arrays;

/**
 * One measured figure: median, min and max over the measurement iterations (or runs), in {@code unit}.
 * {@code baseline} names the figure this one is read against, or is empty.
 */
public record Result(String name, String unit, double median, double min, double max, String baseline) {
    public Result {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("result name is empty");
        if (unit == null || unit.isBlank()) throw new IllegalArgumentException("result " + name + " has no unit");
        baseline = baseline == null ? "" : baseline;
    }

    /** The median, min and max of {@code values} (NaN for none). */
    public static Result of(String name, String unit, double[] values, String baseline) {
        return new Result(name, unit, median(values), Arrays.stream(values).min().orElse(Double.NaN),
                Arrays.stream(values).max().orElse(Double.NaN), baseline);
    }

    /** The median of {@code values}: the middle one, or the mean of the middle two; NaN for none. */
    public static double median(double[] values) {
        if (values.length == 0) return Double.NaN;
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** A figure measured once (or a flag such as completed = 1/0): median = min = max. */
    public static Result single(String name, String unit, double value) {
        return new Result(name, unit, value, value, value, "");
    }
}

package dev.panamax.bench;

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

    /** A figure measured once (or a flag such as completed = 1/0): median = min = max. */
    public static Result single(String name, String unit, double value) {
        return new Result(name, unit, value, value, value, "");
    }
}

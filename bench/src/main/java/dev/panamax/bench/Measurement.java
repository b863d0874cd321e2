package dev.panamax.bench;

import java.util.List;

/**
 * A measurement JMH cannot express (a child JVM with its own flags, peak RSS, time to first call).
 * Implementations are listed in {@code META-INF/services/dev.panamax.bench.Measurement} and run
 * after the JMH benchmarks of their suite.
 */
public interface Measurement {
    /** The suite this belongs to ({@code calls}, {@code memory}, {@code batch}, ...). */
    String suite();

    /** Runs and returns its figures; {@code quick} asks for the short version. */
    List<Result> run(boolean quick) throws Exception;

    /**
     * Runs with the figures measured before it in the same invocation (the suite's JMH results and
     * earlier measurements), for measurements that derive figures from them; by default ignores them.
     */
    default List<Result> run(boolean quick, List<Result> earlier) throws Exception {
        return run(quick);
    }
}

package dev.panamax.spark;

import java.util.concurrent.atomic.LongAdder;

/**
 * Nanoseconds this JVM's tasks spent inside Panamax (forward passes, training steps), summed over
 * threads: beside the tasks' wall time it gives the share spent outside Panamax (Spark's scheduling,
 * serialisation, row conversion), which {@code ./panamax bench spark} reports.
 */
public final class ComputeTime {
    private static final LongAdder NANOS = new LongAdder();

    private ComputeTime() {}

    static void add(long nanos) {
        NANOS.add(nanos);
    }

    /** The total so far, in nanoseconds. */
    public static long nanos() {
        return NANOS.sum();
    }
}

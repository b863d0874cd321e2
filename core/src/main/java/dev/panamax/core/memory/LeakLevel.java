package dev.panamax.core.memory;

/**
 * How much leak detection records. A handle the GC releases instead of code is always counted
 * ({@link MemoryStats#releasedByGc()}); the level decides which of those are reported and with
 * what detail.
 */
public enum LeakLevel {
    /** Nothing recorded, nothing reported: counters only. */
    DISABLED,
    /** One handle in 128 (chosen at random) records its allocation stack and touches; leaks among those are reported. */
    SAMPLED,
    /** Every handle records its allocation stack and its last touches; every leak is reported. */
    PARANOID
}

package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.LeakReports;

/**
 * The leak detection level and leak listeners. The level starts from the system property
 * {@code panamax.leakDetection} ({@code DISABLED}, {@code SAMPLED} (the default) or {@code PARANOID})
 * and applies to handles created after it is set. Leaks are logged through {@link System.Logger}
 * {@code dev.panamax.core.memory.leak} at ERROR and passed to every listener, once per allocation stack.
 */
public final class LeakDetection {
    /** The system property that sets the starting level. */
    public static final String PROPERTY = dev.panamax.core.CoreSettings.LEAK_DETECTION.name();
    /** At {@link LeakLevel#SAMPLED}, one handle in this many is tracked. */
    public static final int SAMPLING_INTERVAL = 128;

    private static volatile LeakLevel level = parse(dev.panamax.core.CoreSettings.LEAK_DETECTION.raw());

    private LeakDetection() {}

    static LeakLevel parse(String value) {
        if (value == null || value.isBlank()) return LeakLevel.SAMPLED;
        return dev.panamax.core.Settings.parseChoice(PROPERTY, value, LeakLevel.class);
    }

    /** The current level. */
    public static LeakLevel level() {
        return level;
    }

    /** Sets the level for handles created from now on (existing handles keep what they recorded). */
    public static void setLevel(LeakLevel newLevel) {
        level = java.util.Objects.requireNonNull(newLevel, "level");
    }

    /** Adds a listener that receives every (deduplicated) leak report from now on. */
    public static void addListener(LeakListener listener) {
        LeakReports.addListener(java.util.Objects.requireNonNull(listener, "listener"));
    }

    public static void removeListener(LeakListener listener) {
        LeakReports.removeListener(listener);
    }

    /** Leaks of tracked handles seen so far, before deduplication. */
    public static long leaksReported() {
        return LeakReports.leaksSeen();
    }

    /** A new leak record for a handle being created, or null when the level does not track it. */
    static dev.panamax.core.internal.memory.LeakRecord recordForNewHandle() {
        return switch (level) {
            case DISABLED -> null;
            case SAMPLED -> java.util.concurrent.ThreadLocalRandom.current().nextInt(SAMPLING_INTERVAL) == 0
                    ? new dev.panamax.core.internal.memory.LeakRecord() : null;
            case PARANOID -> new dev.panamax.core.internal.memory.LeakRecord();
        };
    }

}

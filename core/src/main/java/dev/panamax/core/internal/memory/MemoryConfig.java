package dev.panamax.core.internal.memory;

import dev.panamax.core.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The native memory budget's settings, read once from system properties.
 *
 * @param limitBytes         hard limit on reserved native bytes ({@value #LIMIT_PROPERTY})
 * @param softLimitFraction  above this fraction of the limit every reservation also cleans what
 *                           the GC found unreachable ({@value #SOFT_LIMIT_PROPERTY})
 * @param shadowFraction     the heap shadows of a whole budget add up to this fraction of the
 *                           maximum heap ({@value #SHADOW_PROPERTY})
 * @param maxWaitMillis      how long an over-limit reservation waits for the GC before
 *                           {@link OutOfMemoryError} ({@value #MAX_WAIT_PROPERTY})
 * @param maxNudgeBytes      the largest heap-pressure allocation one wait step makes
 */
public record MemoryConfig(long limitBytes, double softLimitFraction, double shadowFraction,
                           long maxWaitMillis, long maxNudgeBytes) {
    public static final String LIMIT_PROPERTY = "panamax.memory.limit";
    public static final String SOFT_LIMIT_PROPERTY = "panamax.memory.softLimit";
    public static final String SHADOW_PROPERTY = "panamax.memory.shadowFraction";
    public static final String MAX_WAIT_PROPERTY = "panamax.memory.maxWaitMillis";

    public MemoryConfig {
        if (limitBytes <= 0) throw new IllegalArgumentException("bad memory limit: limitBytes=" + limitBytes + " expected=positive");
        if (!(softLimitFraction > 0 && softLimitFraction <= 1))
            throw new IllegalArgumentException("bad soft limit: property=" + SOFT_LIMIT_PROPERTY + " value=" + softLimitFraction + " expected=(0, 1]");
        if (!(shadowFraction >= 0 && shadowFraction <= 0.9))
            throw new IllegalArgumentException("bad shadow fraction: property=" + SHADOW_PROPERTY + " value=" + shadowFraction + " expected=[0, 0.9]");
        if (maxWaitMillis < 0) throw new IllegalArgumentException("bad wait: property=" + MAX_WAIT_PROPERTY + " value=" + maxWaitMillis + " expected=>= 0");
    }

    public static MemoryConfig fromSystemProperties() {
        long maxHeap = Runtime.getRuntime().maxMemory();
        long limitBytes = Settings.bytes(LIMIT_PROPERTY, -1);
        if (limitBytes == 0) throw Settings.bad(LIMIT_PROPERTY, System.getProperty(LIMIT_PROPERTY), "a positive byte count (e.g. 512m, 4g)");
        if (limitBytes < 0) limitBytes = defaultLimit(physicalMemory(), maxHeap);
        return new MemoryConfig(limitBytes,
                Settings.number(SOFT_LIMIT_PROPERTY, 0.5, f -> f > 0 && f <= 1, "a fraction in (0, 1], e.g. 0.5"),
                Settings.number(SHADOW_PROPERTY, 0.5, f -> f >= 0 && f <= 0.9, "a fraction in [0, 0.9], e.g. 0.5"),
                Settings.longValue(MAX_WAIT_PROPERTY, 2000, 0, Long.MAX_VALUE),
                Math.max(1L << 20, maxHeap / 8));
    }

    /**
     * The default limit: the heap size, but at least a quarter of the machine's memory, and never
     * more than what the machine has left beside the heap: {@code min(physical - heap, max(heap, physical / 4))},
     * at least 64 MiB.
     */
    static long defaultLimit(long physical, long maxHeap) {
        if (physical <= 0) return Math.max(64L << 20, maxHeap);
        return Math.max(64L << 20, Math.min(physical - maxHeap, Math.max(maxHeap, physical / 4)));
    }

    /** Physical memory (or the cgroup limit, when lower) in bytes; -1 when unknown. */
    static long physicalMemory() {
        long total = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    total = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        try {
            String cg = Files.readString(Path.of("/sys/fs/cgroup/memory.max")).trim().toLowerCase(Locale.ROOT);
            if (!cg.equals("max")) total = Math.min(total, Long.parseLong(cg));
        } catch (IOException | RuntimeException ignored) {
            // no cgroup v2 limit
        }
        return total;
    }
}

package dev.panamax.core.internal.memory;

import dev.panamax.core.CoreSettings;
import dev.panamax.core.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The native memory budget's settings, read once from system properties.
 *
 * @param limitBytes         hard limit on reserved native bytes ({@code panamax.memory.limit})
 * @param softLimitFraction  above this fraction of the limit every reservation also cleans what
 *                           the GC found unreachable ({@code panamax.memory.softLimit})
 * @param shadowFraction     the heap shadows of a whole budget add up to this fraction of the
 *                           maximum heap ({@code panamax.memory.shadowFraction})
 * @param maxWaitMillis      how long an over-limit reservation waits for the GC before
 *                           {@link OutOfMemoryError} ({@code panamax.memory.maxWaitMillis})
 * @param maxNudgeBytes      the largest heap-pressure allocation one wait step makes
 */
public record MemoryConfig(long limitBytes, double softLimitFraction, double shadowFraction,
                           long maxWaitMillis, long maxNudgeBytes) {
    public static final String LIMIT_PROPERTY = CoreSettings.MEMORY_LIMIT.name();
    public static final String SOFT_LIMIT_PROPERTY = CoreSettings.MEMORY_SOFT_LIMIT.name();
    public static final String SHADOW_PROPERTY = CoreSettings.MEMORY_SHADOW_FRACTION.name();
    public static final String MAX_WAIT_PROPERTY = CoreSettings.MEMORY_MAX_WAIT_MILLIS.name();

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
        long limitBytes = CoreSettings.MEMORY_LIMIT.value() == null ? -1 : CoreSettings.MEMORY_LIMIT.get();
        if (limitBytes == 0) throw Settings.bad(LIMIT_PROPERTY, System.getProperty(LIMIT_PROPERTY), "a positive byte count (e.g. 512m, 4g)");
        if (limitBytes < 0) limitBytes = defaultLimit(physicalMemory(), maxHeap);
        return new MemoryConfig(limitBytes,
                CoreSettings.MEMORY_SOFT_LIMIT.get(),
                CoreSettings.MEMORY_SHADOW_FRACTION.get(),
                CoreSettings.MEMORY_MAX_WAIT_MILLIS.get(),
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

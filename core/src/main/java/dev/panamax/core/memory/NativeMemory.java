package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LeakRecord;
import dev.panamax.core.internal.memory.LeakReports;
import dev.panamax.core.internal.memory.Registry;
import dev.panamax.core.internal.memory.Tracked;
import dev.panamax.core.internal.memory.TypeCounter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The native memory budget and its accounting. Every native allocation Panamax makes is reserved
 * against one process-wide budget before it happens and unreserved by the cleanup that frees it.
 *
 * <p>System properties (read once, at first use):
 * <ul>
 *   <li>{@code panamax.memory.limit}: the hard limit ({@code 1g}, {@code 512m}, bytes). Default:
 *       {@code min(physical - maxHeap, max(maxHeap, physical / 4))}, where physical is the machine's
 *       memory or its cgroup limit.</li>
 *   <li>{@code panamax.memory.softLimit}: fraction of the limit above which every reservation
 *       also cleans what the GC found unreachable (default 0.5).</li>
 *   <li>{@code panamax.memory.shadowFraction}: fraction of the maximum heap that the heap shadows of a
 *       whole budget add up to (default 0.5; 0 turns shadows off).</li>
 *   <li>{@code panamax.memory.maxWaitMillis}: how long an allocation over the limit waits for the GC
 *       to free memory before {@link OutOfMemoryError} (default 2000).</li>
 * </ul>
 */
public final class NativeMemory {
    private NativeMemory() {}

    /** The hard limit in bytes. */
    public static long limitBytes() {
        return Budget.limit();
    }

    /** Bytes reserved now. */
    public static long reservedBytes() {
        return Budget.reserved();
    }

    /** Bytes reserved now that are held by handles (the reservation less what idles in pools). */
    public static long heldBytes() {
        return Budget.reserved() - Budget.pooledIdle();
    }

    /** A snapshot of the accounting. */
    public static MemoryStats stats() {
        Map<String, TypeStats> byType = new LinkedHashMap<>();
        TypeCounter.all().forEach((name, c) -> byType.put(name,
                new TypeStats(c.liveCount(), c.liveBytes(), c.releasedByCode(), c.releasedByGc())));
        return new MemoryStats(Budget.reserved(), Budget.pooledIdle(), Budget.peak(), Budget.limit(), byType,
                Registry.releasedByCode(), Registry.releasedByGc(), Budget.waits(), LeakReports.leaksSeen());
    }

    /**
     * A checkpoint for {@link #outstandingSince}: resources created from now on have ids at or
     * above it.
     */
    public static long checkpoint() {
        return Registry.checkpoint();
    }

    /** Native resources created at or after {@code checkpoint} and not released yet, oldest first. */
    public static List<Outstanding> outstandingSince(long checkpoint) {
        List<Outstanding> out = new ArrayList<>();
        for (Tracked t : Registry.liveSince(checkpoint)) {
            LeakRecord r = t.leak();
            out.add(new Outstanding(t.type().name(), t.id(), t.address(), t.bytes(),
                    r == null ? List.of() : List.of(r.allocation())));
        }
        return out;
    }

    /** Cleans, on the calling thread, every handle the GC has already found unreachable; returns how many. */
    public static int cleanUnreachable() {
        return Registry.drain();
    }
}

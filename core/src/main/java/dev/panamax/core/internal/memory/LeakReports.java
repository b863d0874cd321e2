package dev.panamax.core.internal.memory;

import dev.panamax.core.memory.LeakListener;
import dev.panamax.core.memory.LeakReport;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns a GC-released tracked resource into a {@link LeakReport}, once per distinct allocation
 * stack (a loop that leaks a million buffers from one line is one report, not a million).
 */
public final class LeakReports {
    private static final System.Logger LOG = System.getLogger("dev.panamax.core.memory.leak");
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    private static final LongAdder LEAKS = new LongAdder();
    private static final List<LeakListener> LISTENERS = new CopyOnWriteArrayList<>();

    private LeakReports() {}

    static void report(Tracked t) {
        LEAKS.increment();
        LeakRecord rec = t.leak();
        LeakReport report = new LeakReport(t.type().name(), t.id(), t.address(), t.bytes(),
                java.util.List.of(rec.allocation()), rec.touches().stream()
                        .map(x -> new LeakReport.Touch(x.hint(), x.thread(), java.util.List.of(x.site()))).toList());
        if (!SEEN.add(report.dedupKey())) return;
        if (LOG.isLoggable(System.Logger.Level.ERROR)) {
            LOG.log(System.Logger.Level.ERROR, report.describe());
        }
        for (LeakListener l : LISTENERS) {
            try {
                l.onLeak(report);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "leak listener failed: listener=" + l.getClass().getName(), e);
            }
        }
    }

    public static void addListener(LeakListener l) {
        LISTENERS.add(l);
    }

    public static void removeListener(LeakListener l) {
        LISTENERS.remove(l);
    }

    /** Leaks of tracked resources seen (before deduplication). */
    public static long leaksSeen() {
        return LEAKS.sum();
    }

    static void cleanupFailed(Tracked t, Throwable e) {
        LOG.log(System.Logger.Level.ERROR, "native cleanup failed: type=" + (t == null ? "?" : t.type().name())
                + " id=" + (t == null ? "?" : t.id()), e);
    }
}

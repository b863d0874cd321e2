package dev.panamax.core.internal.memory;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every live tracked resource, the reference queue the GC fills with unreachable ones, and the
 * daemon thread that cleans them. The queue can also be drained by any thread: the reservation
 * path does so when the budget runs low, so freed memory is available to it at once instead of
 * after the cleaner thread gets scheduled.
 */
public final class Registry {
    static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    private static final Set<Tracked> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicLong IDS = new AtomicLong();
    private static final LongAdder RELEASED_BY_CODE = new LongAdder();
    private static final LongAdder RELEASED_BY_GC = new LongAdder();
    private static final Object PROGRESS = new Object();
    private static volatile int waiters;

    static {
        Thread cleaner = Thread.ofPlatform().daemon().name("panamax-cleaner").unstarted(Registry::cleanLoop);
        cleaner.setPriority(Thread.MAX_PRIORITY - 2);
        cleaner.start();
    }

    private Registry() {}

    static long nextId() {
        return IDS.incrementAndGet();
    }

    /** The id the next tracked resource will get (a checkpoint for "created since"). */
    public static long checkpoint() {
        return IDS.get() + 1;
    }

    static void add(Tracked t) {
        LIVE.add(t);
    }

    static void remove(Tracked t) {
        LIVE.remove(t);
    }

    static void countRelease(boolean byGc) {
        (byGc ? RELEASED_BY_GC : RELEASED_BY_CODE).increment();
        if (waiters > 0) {
            synchronized (PROGRESS) {
                PROGRESS.notifyAll();
            }
        }
    }

    public static long releasedByCode() {
        return RELEASED_BY_CODE.sum();
    }

    public static long releasedByGc() {
        return RELEASED_BY_GC.sum();
    }

    /** Live resources created at or after {@code checkpoint}, oldest first. */
    public static List<Tracked> liveSince(long checkpoint) {
        List<Tracked> out = new ArrayList<>();
        for (Tracked t : LIVE) {
            if (t.id() >= checkpoint && !t.isReleased()) out.add(t);
        }
        out.sort((a, b) -> Long.compare(a.id(), b.id()));
        return out;
    }

    /** Every live resource (unordered snapshot). */
    public static List<Tracked> live() {
        return new ArrayList<>(LIVE);
    }

    /** Cleans whatever the GC has already found unreachable; returns how many were released. */
    public static int drain() {
        int n = 0;
        Reference<?> r;
        while ((r = QUEUE.poll()) != null) {
            if (clean(r)) n++;
        }
        return n;
    }

    /**
     * Waits up to {@code millis} for any release (by code or by the GC), cleaning what the GC
     * enqueues meanwhile. Returns early on progress.
     */
    public static void awaitProgress(long millis) throws InterruptedException {
        if (drain() > 0) return;
        synchronized (PROGRESS) {
            waiters++;
            try {
                PROGRESS.wait(millis);
            } finally {
                waiters--;
            }
        }
        drain();
    }

    private static boolean clean(Reference<?> r) {
        if (r instanceof Tracked t) {
            try {
                t.releaseByGc();
                return true;
            } catch (Throwable e) {
                LeakReports.cleanupFailed(t, e);
            }
        }
        return false;
    }

    private static void cleanLoop() {
        while (true) {
            try {
                clean(QUEUE.remove());
            } catch (InterruptedException ignored) {
                // the cleaner thread lives as long as the JVM
            } catch (Throwable e) {
                LeakReports.cleanupFailed(null, e);
            }
        }
    }
}

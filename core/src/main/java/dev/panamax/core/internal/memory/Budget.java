package dev.panamax.core.internal.memory;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The native memory budget: every native allocation Panamax makes is reserved here first and
 * unreserved by the same cleanup that frees it.
 *
 * <p>Reserving is one compare-and-set while the budget has room. Above the soft limit each
 * reservation also cleans whatever the GC has already found unreachable. Over the hard limit the
 * caller cleans the queue, asks pools to give back idle memory, then waits with bounded back-off
 * (asking the pools again after each round: what the GC freed may have gone back to one idle),
 * allocating short-lived heap garbage in proportion to what it asked for so that the collector
 * runs even when nothing else allocates (never {@code System.gc()}, so it behaves the same under
 * {@code -XX:+DisableExplicitGC}); it fails with an {@link OutOfMemoryError} that says what is held
 * once {@link MemoryConfig#maxWaitMillis()} has passed.
 */
public final class Budget {
    private static final MemoryConfig CONFIG = MemoryConfig.fromSystemProperties();
    private static final long LIMIT = CONFIG.limitBytes();
    private static final long SOFT_LIMIT = (long) (LIMIT * CONFIG.softLimitFraction());
    private static final AtomicLong RESERVED = new AtomicLong();
    private static final AtomicLong PEAK = new AtomicLong();
    private static final AtomicLong WAITS = new AtomicLong();
    private static final AtomicLong POOLED_IDLE = new AtomicLong();
    private static final AtomicLong NUDGES = new AtomicLong();
    private static final List<WeakReference<LongSupplier>> PRESSURE_HOOKS = new CopyOnWriteArrayList<>();
    /** Keeps pressure garbage from being optimised away. */
    @SuppressWarnings("unused")
    private static volatile Object sink;

    private Budget() {}

    public static MemoryConfig config() {
        return CONFIG;
    }

    public static long limit() {
        return LIMIT;
    }

    public static long reserved() {
        return RESERVED.get();
    }

    public static long peak() {
        return PEAK.get();
    }

    /** Reserved bytes that sit idle in pools (reserved, but held by no handle). */
    public static long pooledIdle() {
        return POOLED_IDLE.get();
    }

    /** Pools report blocks entering ({@code delta > 0}) and leaving their idle lists. */
    public static void pooledIdleChanged(long delta) {
        POOLED_IDLE.addAndGet(delta);
    }

    /** Reservations that had to wait for the GC. */
    public static long waits() {
        return WAITS.get();
    }

    /** Heap-pressure allocations made while waiting. */
    public static long nudges() {
        return NUDGES.get();
    }

    /**
     * Registers something that can give back idle native memory under pressure (a pool's trim);
     * it returns the bytes it freed. Held weakly.
     */
    public static void addPressureHook(LongSupplier trim) {
        PRESSURE_HOOKS.add(new WeakReference<>(trim));
    }

    /** Reserves {@code bytes} or throws {@link OutOfMemoryError} after waiting for the GC. */
    public static void reserve(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative reservation: bytes=" + bytes);
        if (bytes == 0) return;
        long after = tryReserve(bytes);
        if (after < 0) {
            reserveSlow(bytes);
        } else if (after > SOFT_LIMIT) {
            Registry.drain();
        }
    }

    /** Gives back a reservation; called by the cleanup that freed the memory. */
    public static void unreserve(long bytes) {
        if (bytes == 0) return;
        long after = RESERVED.addAndGet(-bytes);
        if (after < 0) {
            RESERVED.addAndGet(bytes);
            throw new IllegalStateException("unbalanced unreserve: bytes=" + bytes + " reserved=" + (after + bytes));
        }
    }

    /** The reservation total after reserving, or -1 when it would pass the limit. */
    private static long tryReserve(long bytes) {
        while (true) {
            long cur = RESERVED.get();
            long next = cur + bytes;
            if (next > LIMIT || next < 0) return -1;
            if (RESERVED.compareAndSet(cur, next)) {
                long peak;
                while (next > (peak = PEAK.get()) && !PEAK.compareAndSet(peak, next)) {
                    Thread.onSpinWait();
                }
                return next;
            }
        }
    }

    private static void reserveSlow(long bytes) {
        if (bytes > LIMIT) throw outOfBudget(bytes, 0);
        Registry.drain();
        if (tryReserve(bytes) >= 0) return;
        trimPools();
        if (tryReserve(bytes) >= 0) return;
        WAITS.incrementAndGet();
        long start = System.nanoTime();
        long deadline = start + CONFIG.maxWaitMillis() * 1_000_000L;
        long pressure = Math.max(Shadow.bytesFor(bytes), 1L << 20);
        long sleepMillis = 1;
        boolean interrupted = false;
        try {
            while (true) {
                nudge(pressure);
                try {
                    Registry.awaitProgress(sleepMillis);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (tryReserve(bytes) >= 0) return;
                // what the GC freed meanwhile may have gone back to a pool, idle but still reserved
                trimPools();
                if (tryReserve(bytes) >= 0) return;
                if (System.nanoTime() - deadline > 0) break;
                pressure = Math.min(pressure * 2, CONFIG.maxNudgeBytes());
                sleepMillis = Math.min(sleepMillis * 2, 32);
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
        throw outOfBudget(bytes, (System.nanoTime() - start) / 1_000_000L);
    }

    /** Short-lived heap garbage: makes the collector run (and find unreachable handles) without System.gc(). */
    public static void nudge(long bytes) {
        NUDGES.incrementAndGet();
        long left = bytes;
        while (left > 0) {
            int n = (int) Math.min(left, 1 << 26);
            sink = new byte[n];
            left -= n;
        }
        sink = null;
    }

    private static long trimPools() {
        long freed = 0;
        for (WeakReference<LongSupplier> ref : PRESSURE_HOOKS) {
            LongSupplier hook = ref.get();
            if (hook == null) {
                PRESSURE_HOOKS.remove(ref);
            } else {
                freed += hook.getAsLong();
            }
        }
        return freed;
    }

    static OutOfMemoryError outOfBudget(long requested, long waitedMillis) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "native memory budget exhausted: requested=%d reserved=%d limit=%d waitedMillis=%d",
                requested, RESERVED.get(), LIMIT, waitedMillis));
        b.append(" byType={");
        String sep = "";
        for (var e : TypeCounter.all().entrySet()) {
            TypeCounter c = e.getValue();
            if (c.liveCount() == 0 && c.liveBytes() == 0) continue;
            b.append(sep).append(e.getKey()).append(": handles=").append(c.liveCount()).append(" bytes=").append(c.liveBytes());
            sep = ", ";
        }
        b.append('}');
        String sites = topSites(5);
        b.append(sites.isEmpty()
                ? " topSites=unknown (run with -Dpanamax.leakDetection=PARANOID to record allocation sites)"
                : " topSites=[" + sites + "]");
        b.append(" (release handles with close()/release() or a NativeScope, or raise -D" + MemoryConfig.LIMIT_PROPERTY + ")");
        return new OutOfMemoryError(b.toString());
    }

    /** The allocation sites holding the most bytes among tracked live resources. */
    static String topSites(int max) {
        record Site(String where, long[] countAndBytes) {}
        Map<String, long[]> bySite = new HashMap<>();
        for (Tracked t : Registry.live()) {
            LeakRecord r = t.leak();
            if (r == null || t.isReleased()) continue;
            long[] cb = bySite.computeIfAbsent(t.type().name() + " at " + r.allocationSite(), k -> new long[2]);
            cb[0]++;
            cb[1] += t.bytes();
        }
        List<Site> sites = new ArrayList<>();
        bySite.forEach((k, v) -> sites.add(new Site(k, v)));
        sites.sort(Comparator.comparingLong((Site s) -> s.countAndBytes()[1]).reversed());
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(max, sites.size()); i++) {
            Site s = sites.get(i);
            if (i > 0) b.append(", ");
            b.append(s.countAndBytes()[0]).append("x ").append(s.countAndBytes()[1]).append(" bytes ").append(s.where());
        }
        return b.toString();
    }
}

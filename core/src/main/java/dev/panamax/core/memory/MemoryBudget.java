package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.Registry;
import dev.panamax.core.internal.memory.Shadow;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A budget of its own for memory that is not the process's native heap (a device's memory, say),
 * with the same three stages as the native memory budget ({@link NativeMemory}): a reservation
 * within the limit is one compare-and-set; over it, what the GC already found unreachable is
 * cleaned, then the pressure hooks (pool trims) give back idle memory, then the reservation waits
 * with bounded back-off while short-lived heap garbage makes the collector run, running the hooks
 * again after each round (what the GC freed may have gone back to a pool idle) (no
 * {@code System.gc()}, so {@code -XX:+DisableExplicitGC} changes nothing). Its {@link #shadow}s
 * make the GC see the memory: the shadows of a whole budget add up to
 * {@code panamax.memory.shadowFraction} of the maximum heap, as for native handles.
 *
 * <pre>{@code
 * MemoryBudget device = MemoryBudget.create("gpu0", 8L << 30);
 * if (!device.reserve(bytes)) throw new IllegalStateException("gpu0 is full: " + whatIsHeld());
 * Object shadow = device.shadow(bytes);        // held by the object that owns the memory
 * ...
 * device.unreserve(bytes);                      // by the cleanup that frees it
 * }</pre>
 *
 * The memory itself must be owned by {@link NativeHandle}s (whose release, by code or by the GC,
 * unreserves), so that waiting reservations wake when one is released.
 */
public final class MemoryBudget {
    private final String name;
    private final long limit;
    private final long maxWaitMillis;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong waits = new AtomicLong();
    private final List<LongSupplier> pressureHooks = new CopyOnWriteArrayList<>();

    private MemoryBudget(String name, long limit, long maxWaitMillis) {
        this.name = name;
        this.limit = limit;
        this.maxWaitMillis = maxWaitMillis;
    }

    /** A budget of {@code limitBytes} that waits up to {@code panamax.memory.maxWaitMillis} for the GC. */
    public static MemoryBudget create(String name, long limitBytes) {
        return create(name, limitBytes, Budget.config().maxWaitMillis());
    }

    /** A budget of {@code limitBytes} whose over-limit reservations wait up to {@code maxWaitMillis}. */
    public static MemoryBudget create(String name, long limitBytes, long maxWaitMillis) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("budget name is missing");
        if (limitBytes <= 0) throw new IllegalArgumentException("budget limit must be positive: name=" + name + " limitBytes=" + limitBytes);
        if (maxWaitMillis < 0) throw new IllegalArgumentException("negative wait: name=" + name + " maxWaitMillis=" + maxWaitMillis);
        return new MemoryBudget(name, limitBytes, maxWaitMillis);
    }

    public String name() {
        return name;
    }

    public long limit() {
        return limit;
    }

    public long reserved() {
        return reserved.get();
    }

    public long peak() {
        return peak.get();
    }

    /** Reservations that had to wait for the GC. */
    public long waits() {
        return waits.get();
    }

    /** Something that gives back idle memory of this budget under pressure (a pool's trim); it returns the bytes freed. */
    public void addPressureHook(LongSupplier trim) {
        pressureHooks.add(trim);
    }

    /**
     * Reserves {@code bytes}: at once when there is room, otherwise after cleaning, trimming and
     * waiting for the GC. Returns false when there was still no room after the wait (nothing is
     * reserved then).
     */
    public boolean reserve(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative reservation: budget=" + name + " bytes=" + bytes);
        if (bytes == 0 || tryReserve(bytes)) return true;
        if (bytes > limit) return false;
        Registry.drain();
        if (tryReserve(bytes)) return true;
        for (LongSupplier hook : pressureHooks) hook.getAsLong();
        if (tryReserve(bytes)) return true;
        waits.incrementAndGet();
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000L;
        long pressure = Math.max(Shadow.bytesFor(bytes, limit), 1L << 20);
        long sleepMillis = 1;
        boolean interrupted = false;
        try {
            while (true) {
                Budget.nudge(pressure);
                try {
                    Registry.awaitProgress(sleepMillis);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (tryReserve(bytes)) return true;
                // what the GC freed meanwhile may have gone back to a pool, idle but still reserved
                for (LongSupplier hook : pressureHooks) hook.getAsLong();
                if (tryReserve(bytes)) return true;
                if (System.nanoTime() - deadline > 0) return false;
                pressure = Math.min(pressure * 2, Budget.config().maxNudgeBytes());
                sleepMillis = Math.min(sleepMillis * 2, 32);
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Gives back a reservation; called by the cleanup that freed the memory. */
    public void unreserve(long bytes) {
        if (bytes == 0) return;
        long after = reserved.addAndGet(-bytes);
        if (after < 0) {
            reserved.addAndGet(bytes);
            throw new IllegalStateException("unbalanced unreserve: budget=" + name + " bytes=" + bytes + " reserved=" + (after + bytes));
        }
    }

    /**
     * A heap object for the owner of {@code bytes} of this budget to hold (null when it would be
     * tiny): the GC's view of the memory, never read.
     */
    public Object shadow(long bytes) {
        return Shadow.of(bytes, limit);
    }

    private boolean tryReserve(long bytes) {
        while (true) {
            long cur = reserved.get();
            long next = cur + bytes;
            if (next > limit || next < 0) return false;
            if (reserved.compareAndSet(cur, next)) {
                long p;
                while (next > (p = peak.get()) && !peak.compareAndSet(p, next)) Thread.onSpinWait();
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return "MemoryBudget[" + name + " reserved=" + reserved.get() + " limit=" + limit + "]";
    }
}

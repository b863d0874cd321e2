package dev.panamax.tensor.spi;

import dev.panamax.core.memory.BufferPool;
import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.core.memory.SegmentAccess;

/**
 * Where {@link HostStorage#allocate} takes tensor memory from: one process-wide core
 * {@link BufferPool} of power-of-two size classes. A storage freed by close, by its scope or by the
 * GC gives its block back to its class, and the next storage of that class takes it: no
 * {@code malloc}, no first-touch page faults, and no new heap shadow (a block keeps the shadow it was
 * allocated with), which for a 4 MiB result is most of its cost. Every lease is still a core handle:
 * budgeted, GC-visible, scoped, freed exactly once, tracked by leak detection.
 *
 * <p>Storage under {@value #MIN_POOLED_BYTES} bytes is a plain {@code NativeBuffer} from
 * {@code malloc}, whose per-thread caches already are a size-class pool for small blocks and cost
 * less than a shared pool's locking (a 16-element add with a new result: 268-275 ns of CPU with
 * {@code malloc}, 285-308 ns through the pool); such blocks carry no heap shadow worth keeping either.
 *
 * <p>One pool for the process rather than one per backend: every host backend (the {@code cpu}
 * and {@code reference} backends, and any backend that keeps the default {@link Backend#allocate})
 * uses the same kind of memory, so a block one of them freed serves the next tensor of any of
 * them, on any thread, and idle memory is capped once against the one native budget. The budget
 * trims the pool when it runs short, before it waits for the GC.
 *
 * <pre>{@code
 * PoolMetrics before = StoragePool.metrics();
 * for (int i = 0; i < 100; i++) Tensor.ones(1024).close();       // 4 KiB: one miss, then hits
 * double hitRate = StoragePool.metrics().hitRateSince(before);     // 0.99
 * }</pre>
 *
 * Settings (system properties): {@code panamax.tensor.pool} ({@code true} by default; {@code false}
 * gives every storage a plain {@code NativeBuffer} of its own), {@code panamax.tensor.pool.maxIdleBytes}
 * (idle bytes kept at most; default 1/8 of the native memory limit), {@code panamax.tensor.pool.maxIdlePerClass}
 * (idle blocks kept per size class, default {@value #DEFAULT_MAX_IDLE_PER_CLASS}).
 */
public final class StoragePool {
    /**
     * Idle blocks kept per size class by default: a recording of a thousand small ops frees a
     * thousand storages of one class at once, and all of them are wanted again by the next one (the
     * cap on idle bytes still bounds what large classes keep).
     */
    public static final int DEFAULT_MAX_IDLE_PER_CLASS = 1024;
    /** Storage this large or larger comes from the pool; smaller storage straight from {@code malloc}. */
    public static final long MIN_POOLED_BYTES = 1024;
    private static final boolean ENABLED = dev.panamax.tensor.TensorSettings.POOL.get();
    private static final BufferPool POOL = BufferPool.createForProcess(
            dev.panamax.tensor.TensorSettings.POOL_MAX_IDLE_PER_CLASS.get(),
            dev.panamax.tensor.TensorSettings.POOL_MAX_IDLE_BYTES.get());

    private StoragePool() {}

    /** Whether storage comes from the pool ({@code panamax.tensor.pool}). */
    public static boolean isEnabled() {
        return ENABLED;
    }

    /**
     * {@code bytes} of owned memory, content undefined, usable from any thread: a pooled block when
     * pooling is on and {@code bytes} is at least {@value #MIN_POOLED_BYTES}.
     */
    static NativeBuffer lease(long bytes) {
        return ENABLED && bytes >= MIN_POOLED_BYTES ? POOL.acquireShared(bytes)
                : NativeBuffer.allocate(bytes, SegmentAccess.SHARED, false);
    }

    /** Hits, misses, idle and leased bytes, per size class; all zero when pooling is off. */
    public static PoolMetrics metrics() {
        return POOL.metrics();
    }

    /** Frees every idle block now; returns the bytes freed. */
    public static long trim() {
        return POOL.trim();
    }
}

package dev.panamax.core.memory;

import java.util.List;

/**
 * A snapshot of a {@link BufferPool}: totals and each size class that has seen use.
 *
 * @param hits        acquires served from idle blocks
 * @param misses      acquires that allocated (including requests too large to pool)
 * @param allocations blocks allocated
 * @param frees       blocks freed
 * @param bytesInUse  bytes of blocks leased now
 * @param bytesIdle   bytes of blocks idle in the pool
 * @param classes     per size class, smallest first (classes never used are left out)
 */
public record PoolMetrics(long hits, long misses, long allocations, long frees, long bytesInUse, long bytesIdle,
                          List<SizeClassMetric> classes) {
    public PoolMetrics {
        classes = List.copyOf(classes);
    }

    /** Acquires served from idle blocks, as a fraction of all acquires; NaN before the first acquire. */
    public double hitRate() {
        long all = hits + misses;
        return all == 0 ? Double.NaN : (double) hits / all;
    }

    /**
     * The hit rate of the acquires made since {@code earlier} (a snapshot of the same pool), NaN when
     * there were none: what one run of a program saw.
     *
     * <pre>{@code
     * PoolMetrics start = pool.metrics();
     * ... run ...
     * double hitRate = pool.metrics().hitRateSince(start);
     * }</pre>
     */
    public double hitRateSince(PoolMetrics earlier) {
        long h = hits - earlier.hits, all = h + misses - earlier.misses;
        return all == 0 ? Double.NaN : (double) h / all;
    }
}

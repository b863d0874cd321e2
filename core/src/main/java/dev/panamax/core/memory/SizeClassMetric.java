package dev.panamax.core.memory;

/**
 * One size class of a {@link BufferPool}.
 *
 * @param classSize   the block size (a power of two)
 * @param hits        acquires served from idle blocks
 * @param misses      acquires that had to allocate
 * @param allocations blocks allocated from the C allocator
 * @param frees       blocks given back to the C allocator (trim, caps, close)
 * @param inUse       blocks leased now
 * @param idle        blocks idle in the pool now
 */
public record SizeClassMetric(long classSize, long hits, long misses, long allocations, long frees, long inUse, long idle) {
    public long bytesInUse() {
        return inUse * classSize;
    }

    public long bytesIdle() {
        return idle * classSize;
    }
}

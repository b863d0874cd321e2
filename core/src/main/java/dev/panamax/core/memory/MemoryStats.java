package dev.panamax.core.memory;

import java.util.Map;

/**
 * A snapshot of native memory accounting ({@link NativeMemory#stats()}).
 *
 * @param reservedBytes  bytes reserved now (live handles plus idle pooled memory)
 * @param pooledIdleBytes the part of {@code reservedBytes} idle in buffer pools
 * @param peakBytes      the most ever reserved at once
 * @param limitBytes     the hard limit
 * @param byType         live handles, bytes and releases per handle type ({@code BufferPool} counts open pools;
 *                       their idle memory is in {@link BufferPool#metrics()})
 * @param releasedByCode releases done by code, all types
 * @param releasedByGc   releases done by the GC (leaks), all types
 * @param waits          reservations that had to wait for the GC to free memory
 * @param leaksReported  leaks of tracked handles seen (before deduplication)
 */
public record MemoryStats(long reservedBytes, long pooledIdleBytes, long peakBytes, long limitBytes, Map<String, TypeStats> byType,
                          long releasedByCode, long releasedByGc, long waits, long leaksReported) {
    public MemoryStats {
        byType = Map.copyOf(byType);
    }
}

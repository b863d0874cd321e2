package dev.panamax.compute;

import dev.panamax.core.memory.PoolMetrics;

/**
 * A device's memory as its budget and pool see it.
 *
 * @param limitBytes    the budget's hard limit ({@code -Dpanamax.compute.memoryLimit}, default the device's memory)
 * @param reservedBytes memory reserved now: buffers in use plus idle pooled blocks
 * @param peakBytes     the highest reservation so far
 * @param liveBuffers   buffers neither closed nor collected
 * @param waits         allocations that had to wait for the GC to free unreachable buffers
 * @param pool          the size-class pool: hits, misses, allocations, frees, bytes in use and idle, per class
 */
public record DeviceMemoryStats(long limitBytes, long reservedBytes, long peakBytes, long liveBuffers, long waits, PoolMetrics pool) {
}

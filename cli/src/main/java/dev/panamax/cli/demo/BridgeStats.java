package dev.panamax.cli.demo;

import dev.panamax.core.memory.MemoryStats;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.StoragePool;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bridge's own figures over a run: the backend's counters (native crossings, kernels, ...) as
 * they grew, the tensor storage pool's hit rate over the run's allocations ({@code poolHitRate}, NaN
 * when pooling is off or nothing was allocated) and the bytes it holds idle at the end, the native
 * memory high-water mark, handles the GC had to free, and the handles the run created and never
 * released ({@code handlesLeaked}, 0 when every tensor, parameter and optimizer state was freed by
 * code).
 *
 * <pre>{@code
 * BridgeStats.Start start = BridgeStats.start(backend);
 * ... train, then close everything ...
 * BridgeStats stats = start.finish();
 * }</pre>
 */
record BridgeStats(String backend, Map<String, Long> counters, double poolHitRate, long poolIdleBytes, long peakNativeBytes,
                   long releasedByGc, long handlesLeaked) {
    BridgeStats {
        counters = Map.copyOf(counters);
    }

    /** Counters and accounting at the start of a run. */
    record Start(Backend backend, Map<String, Long> counters, PoolMetrics pool, MemoryStats memory, long checkpoint) {
        /** The figures since the start; call it after everything the run made was closed. */
        BridgeStats finish() {
            Map<String, Long> grown = new LinkedHashMap<>();
            backend.counters().forEach((name, value) -> grown.put(name, value - counters.getOrDefault(name, 0L)));
            MemoryStats now = NativeMemory.stats();
            PoolMetrics poolNow = StoragePool.metrics();
            return new BridgeStats(backend.name(), grown, poolNow.hitRateSince(pool), poolNow.bytesIdle(), now.peakBytes(),
                    now.releasedByGc() - memory.releasedByGc(), NativeMemory.outstandingSince(checkpoint).size());
        }
    }

    static Start start(Backend backend) {
        backend.sync();
        return new Start(backend, backend.counters(), StoragePool.metrics(), NativeMemory.stats(), NativeMemory.checkpoint());
    }

    /** The counter {@code name}, or -1 when the backend keeps none by that name. */
    long counter(String name) {
        return counters.getOrDefault(name, -1L);
    }

    /** Native crossings that ran kernels (-1: the backend keeps no such count). */
    long crossings() {
        return counter("crossings");
    }

    /** Bytes of tensor operands native kernels used in place, by address (-1: the backend keeps no such count). */
    long zeroCopyBytes() {
        return counter("zeroCopyBytes");
    }

    /** Kernels run per native crossing, or NaN without crossings. */
    double kernelsPerCrossing() {
        long c = counter("crossings"), k = counter("kernels");
        return c > 0 && k >= 0 ? (double) k / c : Double.NaN;
    }
}

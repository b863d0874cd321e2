package dev.panamax.cli.demo;

import dev.panamax.core.memory.MemoryStats;
import dev.panamax.core.memory.NativeMemory;
import dev.panamax.core.memory.PoolMetrics;
import dev.panamax.tensor.spi.Backend;
import dev.panamax.tensor.spi.StoragePool;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bridge's own figures over a run: the backend's counters (native crossings, kernels, command
 * buffers committed, CLBlast products, ...) as they grew (a ratio among them, such as
 * {@code kernelsPerCommit}, recomputed over the run), the tensor storage pool's hit rate over the run's allocations ({@code poolHitRate}, NaN
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
            return finish(() -> {});
        }

        /**
         * The figures since the start, the backend's counters read before {@code release} runs (it
         * closes a backend made for the run), the memory after it; call it after everything the run
         * made was closed.
         */
        BridgeStats finish(Runnable release) {
            Map<String, Long> grown = new LinkedHashMap<>();
            backend.counters().forEach((name, value) -> grown.put(name, value - counters.getOrDefault(name, 0L)));
            // a ratio, not a count: the difference of two ratios means nothing
            grown.computeIfPresent("kernelsPerCommit", (name, value) -> {
                long commits = grown.getOrDefault("commits", 0L), kernels = grown.getOrDefault("kernels", 0L);
                return commits > 0 ? Math.round((double) kernels / commits) : 0L;
            });
            release.run();
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

    /** Command buffers committed to a device (-1: the backend keeps no such count). */
    long commits() {
        return counter("commits");
    }

    /** Kernels per committed command buffer, or NaN without commits. */
    double kernelsPerCommit() {
        long c = counter("commits"), k = counter("kernels");
        return c > 0 && k >= 0 ? (double) k / c : Double.NaN;
    }

    /** Kernels run per native crossing, or NaN without crossings. */
    double kernelsPerCrossing() {
        long c = counter("crossings"), k = counter("kernels");
        return c > 0 && k >= 0 ? (double) k / c : Double.NaN;
    }
}

package dev.panamax.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Native memory for the copies of an array product on the standard tier. Each platform thread keeps
 * one block between products, grown to the largest product it has staged up to {@link #CACHE_BYTES}
 * ({@code -Dpanamax.blas.stagingCacheBytes}, 64 MiB by default: three 2,300×2,300 float matrices) and
 * freed by the GC with the thread; reusing it spares the page faults of fresh memory, which cost more
 * than the copies. Larger products, and products on virtual threads (thousands of them would each keep
 * a block), take memory for the one call. A thread stages one product at a time: cblas never calls back.
 */
final class Staging {
    static final long CACHE_BYTES = BlasSettings.STAGING_CACHE_BYTES.get();
    private static final long ALIGNMENT = 64;
    private static final ThreadLocal<Staging> PER_THREAD = ThreadLocal.withInitial(Staging::new);

    private MemorySegment block = MemorySegment.NULL;

    private Staging() {}

    /** Bytes for arrays of these lengths, each starting on a 64-byte boundary. */
    static long bytes(ValueLayout element, int... lengths) {
        long total = 0;
        for (int length : lengths) total += align(Math.max(1, length * element.byteSize()));
        return total;
    }

    /** Room for {@code bytes}, from the thread's block when it may keep one that large. */
    static Lease lease(long bytes) {
        if (bytes > CACHE_BYTES || Thread.currentThread().isVirtual()) {
            Arena call = Arena.ofConfined();
            return new Lease(call.allocate(bytes, ALIGNMENT), call);
        }
        Staging s = PER_THREAD.get();
        if (s.block.byteSize() < bytes) s.block = Arena.ofAuto().allocate(bytes, ALIGNMENT);
        return new Lease(s.block, null);
    }

    /** Returns the current size of the calling thread's kept block (0 when it has none). */
    static long keptBytes() {
        return PER_THREAD.get().block.byteSize();
    }

    private static long align(long bytes) {
        return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** Memory for one product: copies are laid out one after another; closing frees a one-call arena. */
    static final class Lease implements AutoCloseable {
        private final MemorySegment memory;
        private final Arena arena;
        private long used;

        private Lease(MemorySegment memory, Arena arena) {
            this.memory = memory;
            this.arena = arena;
        }

        /** A copy of the first {@code length} elements of {@code array} (a primitive array of {@code element}). */
        MemorySegment copyOf(ValueLayout element, Object array, int length) {
            long size = length * element.byteSize();
            MemorySegment copy = memory.asSlice(used, size);
            used += align(Math.max(1, size));
            MemorySegment.copy(array, 0, copy, element, 0, length);
            return copy;
        }

        @Override
        public void close() {
            if (arena != null) arena.close();
        }
    }
}

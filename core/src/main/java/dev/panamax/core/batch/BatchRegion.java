package dev.panamax.core.batch;

import dev.panamax.core.memory.NativeBuffer;
import dev.panamax.core.memory.SegmentAccess;

import java.lang.foreign.MemorySegment;

/**
 * One growable part of a batch's native memory (the command buffer, the argument area): an owned
 * {@link NativeBuffer}, so it is reserved against the native memory budget before it is allocated,
 * carries a heap shadow, and is freed and reported by leak detection if its batch is never closed.
 * Growing allocates a larger buffer, copies the used bytes and closes the old one, so the
 * reservation always matches what is held, and a segment taken before the move fails in Java
 * (closed) instead of reading memory the batch no longer uses.
 *
 * <p>Confined to the thread that created the batch, as the batch is, unless the batch was created
 * shared. The buffers belong to the batch, which closes them (no scope open meanwhile takes them).
 */
final class BatchRegion {
    /** Start alignment of the usable segment: a cache line, and the largest block alignment a batch accepts. */
    static final int ALIGN = 64;

    private final String label;
    private final SegmentAccess access;
    private NativeBuffer buffer;
    private MemorySegment segment;

    BatchRegion(String label, long capacity, SegmentAccess access) {
        this.label = label;
        this.access = access;
        this.buffer = allocate(label, capacity, access);
        this.segment = aligned(buffer, capacity);
    }

    /** The usable memory: {@code capacity()} zeroed-at-allocation bytes, {@value #ALIGN}-byte aligned. */
    MemorySegment segment() {
        return segment;
    }

    long capacity() {
        return segment.byteSize();
    }

    /** Native bytes held (and reserved), alignment slack included. */
    long nativeBytes() {
        return buffer.byteSize();
    }

    /**
     * Moves to a buffer of {@code newCapacity} bytes holding a copy of the first {@code used} bytes;
     * the old buffer is freed. If allocating fails nothing changes.
     */
    MemorySegment grow(long newCapacity, long used) {
        NativeBuffer bigger = allocate(label, newCapacity, access);
        MemorySegment s;
        try {
            s = aligned(bigger, newCapacity);
            MemorySegment.copy(segment, 0, s, 0, used);
        } catch (Throwable t) {
            bigger.close();
            throw t;
        }
        NativeBuffer old = buffer;
        buffer = bigger;
        segment = s;
        old.close();
        return s;
    }

    /** Frees the memory; exactly once (later calls do nothing). Fails, changing nothing, on another thread. */
    void close() {
        buffer.close();
    }

    private static NativeBuffer allocate(String label, long capacity, SegmentAccess access) {
        // malloc aligns to 16: ALIGN bytes of slack let the usable part start on a 64-byte boundary
        NativeBuffer b = NativeBuffer.allocate(capacity + ALIGN, access, true);
        b.touch(label);
        return b;
    }

    private static MemorySegment aligned(NativeBuffer b, long capacity) {
        MemorySegment whole = b.segment();
        long pad = -whole.address() & (ALIGN - 1);
        return whole.asSlice(pad, capacity);
    }
}

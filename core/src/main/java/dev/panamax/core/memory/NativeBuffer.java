package dev.panamax.core.memory;

import dev.panamax.core.internal.memory.Budget;
import dev.panamax.core.internal.memory.LibC;

/**
 * An owned block of native memory from the C allocator: reserved against the budget, then
 * allocated, then registered (freed at once if registering fails). 16-byte aligned, as malloc.
 *
 * <pre>{@code
 * try (NativeBuffer b = NativeBuffer.allocate(4096)) {
 *     MemorySegment s = b.segment();
 *     s.fill((byte) 1);
 * }
 * }</pre>
 */
public sealed class NativeBuffer extends NativeHandle permits PooledBuffer {
    /** Buffers this large ask for transparent huge pages (fewer page faults when first touched). */
    private static final long HUGE_PAGE_THRESHOLD = 4L << 20;
    private static final ReleaseAction FREE = (address, byteSize) -> LibC.free(address);

    NativeBuffer(long address, long byteSize, SegmentAccess access, ReleaseAction action, long reservedBytes) {
        super(address, byteSize, access, action, reservedBytes);
    }

    /** For pooled blocks, whose shadow lives as long as the block and is given here. */
    NativeBuffer(long address, long byteSize, SegmentAccess access, ReleaseAction action, long reservedBytes, Object shadow) {
        super(address, byteSize, access, action, reservedBytes, shadow);
    }

    /** {@code byteSize} zeroed bytes, usable from any thread. */
    public static NativeBuffer allocate(long byteSize) {
        return allocate(byteSize, SegmentAccess.SHARED, true);
    }

    /** {@code byteSize} zeroed bytes for the calling thread only (cheaper to release). */
    public static NativeBuffer allocateConfined(long byteSize) {
        return allocate(byteSize, SegmentAccess.CONFINED, true);
    }

    /** {@code byteSize} bytes with undefined content (no zeroing pass), usable from any thread. */
    public static NativeBuffer allocateUninitialized(long byteSize) {
        return allocate(byteSize, SegmentAccess.SHARED, false);
    }

    /**
     * {@code byteSize} bytes, zeroed or not, for the given access.
     *
     * @throws OutOfMemoryError when the native memory budget stays exhausted or the C allocator fails
     */
    public static NativeBuffer allocate(long byteSize, SegmentAccess access, boolean zeroed) {
        if (byteSize < 0) throw new IllegalArgumentException("negative buffer size: byteSize=" + byteSize);
        Budget.reserve(byteSize);
        long address;
        try {
            long n = Math.max(1, byteSize);
            address = zeroed ? LibC.calloc(n) : LibC.malloc(n);
        } catch (Throwable t) {
            Budget.unreserve(byteSize);
            throw t;
        }
        if (address == 0) {
            Budget.unreserve(byteSize);
            throw new OutOfMemoryError("C allocator failed: byteSize=" + byteSize + " reserved=" + Budget.reserved()
                    + " limit=" + Budget.limit());
        }
        if (byteSize >= HUGE_PAGE_THRESHOLD) LibC.adviseHugePages(address, byteSize);
        return new NativeBuffer(address, byteSize, access, FREE, byteSize);
    }

    @Override
    public NativeBuffer retain() {
        super.retain();
        return this;
    }

    @Override
    public NativeBuffer touch(Object hint) {
        super.touch(hint);
        return this;
    }
}

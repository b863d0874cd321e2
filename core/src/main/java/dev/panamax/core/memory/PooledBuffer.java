package dev.panamax.core.memory;

/**
 * A buffer leased from a {@link BufferPool}: when its reference count drops to zero (or it is
 * closed, or the GC finds it unreachable) its memory goes back to its size class, not to free().
 * Its {@link #byteSize()} is what was asked for; the block behind it is the size class. Its heap
 * shadow is the block's, made when the block was allocated and handed on from lease to lease.
 */
public final class PooledBuffer extends NativeBuffer {
    private final long classSize;

    PooledBuffer(long address, long byteSize, long classSize, SegmentAccess access, ReleaseAction giveBack, Object shadow) {
        super(address, byteSize, access, giveBack, 0, shadow);
        this.classSize = classSize;
    }

    /** The size class (a power of two) this buffer came from. */
    public long classSize() {
        return classSize;
    }

    @Override
    public PooledBuffer retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledBuffer touch(Object hint) {
        super.touch(hint);
        return this;
    }
}

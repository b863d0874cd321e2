package dev.panamax.compute;

import dev.panamax.core.memory.NativeHandle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A device object the caller closes: a {@link Buffer}, a {@link Library}, a {@link ComputePipeline}.
 * It holds the owned {@link NativeHandle} of its native object, and that handle's reference count is
 * the resource's (one count, not two): the caller holds one reference, and a
 * {@link References#RETAINED} command buffer holds one more from commit to completion, so
 * {@link #close()} during a run drops only the caller's and the object goes when the run is done. A
 * resource belongs to its maker alone: no {@code NativeScope} or {@code TensorScope} open when it was
 * made takes it. A resource nobody closes is freed by the GC (its handle's cleanup) and reported as a
 * leak, with the place it was made.
 */
public abstract class Resource implements AutoCloseable {
    private static final VarHandle CLOSED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(Resource.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ComputeDevice device;
    private final NativeHandle handle;
    @SuppressWarnings("unused") // through CLOSED
    private volatile boolean closed;
    /** The serial of the last command buffer that noted this resource as used (a plain field: see CommandBuffer.use). */
    long notedBy;

    /**
     * For backends: a resource of {@code device} whose native object {@code handle} owns (and frees on
     * its last release).
     *
     * @throws IllegalArgumentException when the handle is borrowed or already released
     */
    protected Resource(ComputeDevice device, NativeHandle handle) {
        Objects.requireNonNull(handle, "handle");
        if (!handle.isOwner() || handle.isReleased())
            throw new IllegalArgumentException("a resource needs an owned, live handle: handle=" + handle);
        this.device = device;
        this.handle = handle;
    }

    /** The device that made it. */
    public final ComputeDevice device() {
        return device;
    }

    /** Whether the caller closed it (command buffers may still hold it). */
    public final boolean isClosed() {
        return closed;
    }

    /** Whether the native object is gone: every reference dropped (or the handle closed). */
    public final boolean isFreed() {
        return handle.isReleased();
    }

    /** What it is, for messages: {@code buffer#7 (4096 bytes, SHARED)}. */
    public abstract String describe();

    /** Drops the caller's reference; the object is freed when no command buffer holds it. Idempotent. */
    @Override
    public final void close() {
        if (CLOSED.compareAndSet(this, false, true)) handle.release();
    }

    /** The owned handle of the native object, for backends. */
    protected final NativeHandle nativeHandle() {
        return handle;
    }

    /**
     * The owned handle of the native object, for an owner that tracks the object with core's
     * lifetimes instead of {@link #close()}: a tensor's device storage hands it to a
     * {@code TensorScope}, whose end (or the GC) frees the object exactly once. Closing or releasing
     * it frees the object as {@code close()} does; a command buffer in flight keeps it until done.
     */
    public final NativeHandle handle() {
        return handle;
    }

    /** Takes a reference; false when the object is already freed or closed by the caller. */
    final boolean acquire() {
        return !closed && handle.tryRetain();
    }

    /**
     * Drops a reference {@link #acquire()} took.
     *
     * @throws IllegalStateException when there is none left to drop
     */
    final void releaseReference() {
        try {
            handle.release();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("unbalanced release of " + describe(), e);
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}

package dev.panamax.compute;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device object the caller closes: a {@link Buffer}, a {@link Library}, a {@link ComputePipeline}.
 * It is reference-counted: the caller holds one reference, and a {@link References#RETAINED}
 * command buffer holds one more from encoding to completion, so {@link #close()} during a run
 * drops only the caller's and the object goes when the run is done. A resource nobody closes is
 * freed by the GC and reported as a leak.
 */
public abstract class Resource implements AutoCloseable {
    private final ComputeDevice device;
    private final AtomicInteger references = new AtomicInteger(1);
    private volatile boolean closed;
    /** The serial of the last command buffer that noted this resource as used (a plain field: see CommandBuffer.use). */
    long notedBy;

    protected Resource(ComputeDevice device) {
        this.device = device;
    }

    /** The device that made it. */
    public final ComputeDevice device() {
        return device;
    }

    /** Whether the caller closed it (command buffers may still hold it). */
    public final boolean isClosed() {
        return closed;
    }

    /** What it is, for messages: {@code buffer#7 (4096 bytes, SHARED)}. */
    public abstract String describe();

    /** Drops the caller's reference; the object is freed when no command buffer holds it. Idempotent. */
    @Override
    public final void close() {
        synchronized (references) {
            if (closed) return;
            closed = true;
        }
        releaseReference();
    }

    /** Frees the native object: called once, when the last reference goes. */
    protected abstract void free();

    /** Takes a reference; false when the object is already freed or closed by the caller. */
    final boolean acquire() {
        if (closed) return false;
        while (true) {
            int n = references.get();
            if (n == 0) return false;
            if (references.compareAndSet(n, n + 1)) return true;
        }
    }

    final void releaseReference() {
        int n = references.decrementAndGet();
        if (n == 0) {
            free();
        } else if (n < 0) {
            references.incrementAndGet();
            throw new IllegalStateException("unbalanced release of " + describe());
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}

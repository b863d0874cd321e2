package dev.panamax.compute;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The references a {@link References#RETAINED} command buffer took on its resources at commit, dropped
 * once by {@link #run()}: at its finish, or by a driver freeing a dropped queue whose run nobody will
 * finish ({@link dev.panamax.compute.spi.Submission#referenceRelease()}). Holds the resources only,
 * never the command buffer or its queue, so a driver may keep it without keeping the queue alive.
 */
final class ResourceLease extends AtomicBoolean implements Runnable {
    private static final long serialVersionUID = 1L;
    private final transient Resource[] resources;   // an AtomicBoolean is Serializable; a lease is never serialized
    private final int count;

    ResourceLease(Resource[] resources, int count) {
        this.resources = resources;
        this.count = count;
    }

    @Override
    public void run() {
        if (compareAndSet(false, true)) CommandBuffer.release(resources, count);
    }
}

package dev.panamax.compute;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pins a command buffer made for recording took on its resources as it encoded them
 * ({@link CommandQueue#commandBufferForRecording()}), dropped once by {@link #run()} when its
 * recording closes: a resource its owner freed meanwhile goes then.
 */
final class ResourcePins extends AtomicBoolean implements Runnable {
    private static final long serialVersionUID = 1L;
    private final transient Resource[] resources;   // an AtomicBoolean is Serializable; pins are never serialized
    private final int count;

    ResourcePins(Resource[] resources, int count) {
        this.resources = resources;
        this.count = count;
    }

    @Override
    public void run() {
        if (!compareAndSet(false, true)) return;
        for (int i = 0; i < count; i++) resources[i].handle().unpin();
    }
}

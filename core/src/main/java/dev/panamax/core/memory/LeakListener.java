package dev.panamax.core.memory;

/** Receives leak reports ({@link LeakDetection#addListener}); called on the cleaner thread, must not block. */
@FunctionalInterface
public interface LeakListener {
    void onLeak(LeakReport report);
}

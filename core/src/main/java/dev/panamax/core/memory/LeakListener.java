package dev.panamax.core.memory;

/**
 * Receives leak reports ({@link LeakDetection#addListener}). Called on the thread that cleans up
 * the leaked handle (Panamax's cleaner thread, or an allocating thread draining the queue when
 * the budget runs low), so it must be quick and must not block.
 */
@FunctionalInterface
public interface LeakListener {
    void onLeak(LeakReport report);
}

package dev.panamax.testsupport;

/**
 * Bytes the current thread has allocated on the Java heap, from HotSpot's
 * {@code com.sun.management.ThreadMXBean}, read reflectively so that a test in a named module
 * need not read {@code java.management}.
 */
public final class ThreadAllocation {
    private ThreadAllocation() {}

    /** The current thread's allocated bytes so far; take the difference of two readings. */
    public static long bytes() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes").invoke(bean);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("thread allocation counter unavailable", e);
        }
    }
}

package dev.panamax.core.internal.memory;

/**
 * The heap shadow of native memory: a plain {@code byte[]} held by a handle, sized in proportion
 * to the native bytes it owns so that the GC sees native memory as heap occupancy and allocation.
 * The ratio makes the shadows of a whole budget add up to {@code shadowFraction} of the maximum
 * heap. Shadows are never read; large ones are humongous objects on G1, which a young collection
 * frees at once when their handle is dead (eager reclaim), so they cost no copying.
 */
public final class Shadow {
    private static final double RATIO = Budget.config().shadowFraction()
            * Runtime.getRuntime().maxMemory() / (double) Budget.limit();
    /** Below this a shadow would cost more in header than it says; the handle object itself is the signal. */
    private static final long MIN_SHADOW = 64;
    /**
     * G1's ergonomic region size for this heap (maxHeap / 2048 as a power of two, 1 to 32 MiB).
     * A humongous object takes whole regions, so large shadows are sized to a whole number of
     * regions less the array header instead of spilling a few bytes into one more region.
     */
    private static final long REGION = Math.clamp(Long.highestOneBit(Math.max(1, Runtime.getRuntime().maxMemory() / 2048)),
            1L << 20, 32L << 20);
    private static final long ARRAY_HEADER = 16;

    private Shadow() {}

    /** Shadow bytes for {@code nativeBytes}. */
    public static long bytesFor(long nativeBytes) {
        return scaled(nativeBytes, RATIO);
    }

    /**
     * Shadow bytes for {@code nativeBytes} of a budget of {@code budgetLimit} bytes: the shadows of
     * that whole budget add up to {@code shadowFraction} of the maximum heap.
     */
    public static long bytesFor(long nativeBytes, long budgetLimit) {
        return scaled(nativeBytes, Budget.config().shadowFraction() * Runtime.getRuntime().maxMemory() / (double) budgetLimit);
    }

    /** A shadow for {@code nativeBytes} of a budget of {@code budgetLimit} bytes, or null when it would be tiny. */
    public static Object of(long nativeBytes, long budgetLimit) {
        return array(bytesFor(nativeBytes, budgetLimit));
    }

    private static long scaled(long nativeBytes, double ratio) {
        long n = (long) (nativeBytes * ratio);
        if (n < REGION / 2) return n;
        return Math.max(1, Math.round((double) n / REGION)) * REGION - ARRAY_HEADER;
    }

    /** A shadow for {@code nativeBytes}, or null when it would be tiny. */
    public static Object of(long nativeBytes) {
        return array(bytesFor(nativeBytes));
    }

    private static Object array(long n) {
        if (n < MIN_SHADOW) return null;
        return new byte[(int) Math.min(n, Integer.MAX_VALUE - 16)];
    }
}

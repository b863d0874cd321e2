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

    private Shadow() {}

    /** Shadow bytes for {@code nativeBytes}. */
    public static long bytesFor(long nativeBytes) {
        return (long) (nativeBytes * RATIO);
    }

    /** A shadow for {@code nativeBytes}, or null when it would be tiny. */
    public static Object of(long nativeBytes) {
        long n = bytesFor(nativeBytes);
        if (n < MIN_SHADOW) return null;
        return new byte[(int) Math.min(n, Integer.MAX_VALUE - 16)];
    }
}

package dev.panamax.core.binding;

/**
 * What {@code MethodHandle.invokeExact} throws, rethrown without wrapping what needs none.
 *
 * <pre>{@code
 * try {
 *     return (int) HANDLE.invokeExact(x);
 * } catch (Throwable t) {
 *     throw Unchecked.of(t);
 * }
 * }</pre>
 */
public final class Unchecked {
    private Unchecked() {}

    /**
     * A {@link RuntimeException} as it is; an {@link Error} thrown at once; a checked exception (which no
     * downcall or upcall stub throws, but the handle's type cannot say so) wrapped in an
     * {@link IllegalStateException} naming it.
     */
    public static RuntimeException of(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("unexpected checked exception from a native call: " + t, t);
    }
}

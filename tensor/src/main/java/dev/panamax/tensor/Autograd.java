package dev.panamax.tensor;

/**
 * Whether ops record the graph that {@link Tensor#backward()} walks, per thread.
 *
 * <pre>{@code
 * try (var off = Autograd.noGrad()) {
 *     Tensor prediction = model.forward(x);     // no graph, nothing saved for backward
 * }
 * }</pre>
 */
public final class Autograd {
    private static final ThreadLocal<boolean[]> ENABLED = ThreadLocal.withInitial(() -> new boolean[] {true});

    private Autograd() {}

    /** Whether ops on this thread record gradients. */
    public static boolean isEnabled() {
        return ENABLED.get()[0];
    }

    /** Turns recording off on this thread until the returned mode is closed (modes nest). */
    public static Mode noGrad() {
        return set(false);
    }

    /** Turns recording back on inside a {@link #noGrad()} block, until closed. */
    public static Mode enableGrad() {
        return set(true);
    }

    private static Mode set(boolean enabled) {
        boolean[] flag = ENABLED.get();
        boolean previous = flag[0];
        flag[0] = enabled;
        return () -> flag[0] = previous;
    }

    /** A recording mode in force until closed. */
    public interface Mode extends AutoCloseable {
        @Override
        void close();
    }
}

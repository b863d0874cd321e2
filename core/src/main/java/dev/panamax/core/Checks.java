package dev.panamax.core;

import java.util.Locale;

/**
 * The switch that removes the per-call argument checks, as LWJGL's {@code Checks.CHECKS} does: a
 * {@code static final} read once from the system property {@code panamax.checks} ({@code true} by
 * default), so that the JIT folds away every check it guards.
 *
 * <pre>{@code
 * java -Dpanamax.checks=false -jar app.jar    // for code already run and tested with the checks on
 * }</pre>
 *
 * <p>With it off, the typed layers that bindgen generates skip their argument checks: nulls where the
 * declarations allow none, arrays and segments against the lengths the caller gives, fixed counts,
 * length expressions. A bad argument then reaches C as it is. It also removes the in-call guard of
 * handles ({@link dev.panamax.core.memory.CallGuard}): a typed call no longer publishes the handles it
 * passes, so a {@code close()} on another thread while a call is using a handle frees the object under
 * that call (a use-after-free, as in C or LWJGL) instead of deferring the release until the call
 * returns. What stays: a released handle is still refused before C sees its address, a second release
 * still throws, a batch still keeps what it recorded alive until it is closed, lengths taken from the arrays and segments passed are still their own, and a Java array is
 * still refused where the library may use it after the call returns. The property is read when this
 * class initializes, before any binding runs; a value other than {@code true} or {@code false} is an
 * error naming it.
 */
public final class Checks {
    /** The system property that sets {@link #CHECKS}. */
    public static final String PROPERTY = CoreSettings.CHECKS.name();

    /** Whether the argument checks run; {@code -Dpanamax.checks=false} turns them off. */
    public static final boolean CHECKS = parse(CoreSettings.CHECKS.raw());

    private Checks() {}

    static boolean parse(String value) {
        if (value == null) return true;
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "", "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("bad setting: " + PROPERTY + "=" + value + "; expected true or false");
        };
    }
}

package dev.panamax.tensor.spi;

/**
 * A {@link java.util.ServiceLoader} entry for a backend: named in
 * {@code META-INF/services/dev.panamax.tensor.spi.BackendProvider}. Checking availability must be
 * cheap and must not fail (a backend whose native library cannot load says so here, with the
 * reason, instead of throwing).
 */
public interface BackendProvider {
    /** The name users select the backend by. */
    String name();

    /** Among available backends with no explicit choice, the highest priority is the default. */
    int priority();

    /** Null when the backend can run here, otherwise why not (shown to users who ask for it). */
    String unavailableReason();

    /** Makes the backend; called once per process, when it is first selected. */
    Backend create();
}

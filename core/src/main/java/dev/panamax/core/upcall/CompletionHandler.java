package dev.panamax.core.upcall;

/**
 * The handler of the shared completion registry, {@link CallbackRegistry#completions()}: native code
 * calls {@code void callback(void *user_data, int64_t status)} with the registration id as
 * {@code user_data}, and the handler receives the status.
 */
@FunctionalInterface
public interface CompletionHandler {
    /** The native operation finished with {@code status}. */
    void complete(long status);
}

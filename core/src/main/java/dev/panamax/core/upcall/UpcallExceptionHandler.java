package dev.panamax.core.upcall;

/**
 * Told about an exception thrown by the Java target of an upcall, after it was caught at the
 * boundary (it never reaches native code). Runs on the thread that made the upcall, often a native
 * thread: keep it short and non-blocking. Anything it throws is caught and dropped.
 */
@FunctionalInterface
public interface UpcallExceptionHandler {
    /**
     * @param upcall the name of the upcall stub or callback registry
     * @param error  what the target threw
     */
    void onException(String upcall, Throwable error);
}

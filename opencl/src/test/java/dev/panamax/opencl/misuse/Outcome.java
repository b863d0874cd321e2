package dev.panamax.opencl.misuse;

/**
 * What a misuse case's child JVM must end with: success (exit 0), or a Java exception of a given type
 * escaping {@code main} (exit 1, the JVM's "Exception in thread "main"" line). Anything else fails the
 * suite: a crash (an hs_err file, a signal), another exit code, another exception.
 */
sealed interface Outcome {
    /** The case runs to its end: every misuse in it was caught as an exception it expected. */
    record Success() implements Outcome {}

    /** The case ends with {@code type} thrown out of {@code main}. */
    record Throws(Class<? extends Throwable> type) implements Outcome {}

    static Outcome success() {
        return new Success();
    }

    static Outcome throwsException(Class<? extends Throwable> type) {
        return new Throws(type);
    }
}

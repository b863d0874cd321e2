package dev.panamax.core.call;

/**
 * A native function declared to set errno reported failure. Carries the errno value captured right
 * after the call, its symbolic name where the C library knows it ({@code EBADF}) and its strerror text.
 */
public final class ErrnoException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String function;
    private final int errno;
    private final String errnoName;
    private final String description;

    ErrnoException(String function, int errno, String errnoName, String description) {
        super("native call failed: function=" + function + " errno=" + errno
                + (errnoName == null ? "" : " (" + errnoName + ")") + " message=" + description);
        this.function = function;
        this.errno = errno;
        this.errnoName = errnoName;
        this.description = description;
    }

    /** The native function that failed. */
    public String function() {
        return function;
    }

    /** The errno value the function left. */
    public int errno() {
        return errno;
    }

    /** The symbolic name, e.g. {@code EBADF}, or {@code null} when the C library cannot name it. */
    public String errnoName() {
        return errnoName;
    }

    /** The C library's text for this errno, e.g. {@code Bad file descriptor}. */
    public String description() {
        return description;
    }
}

package dev.panamax.compute;

/** Kernel source that did not compile: the compiler's log and, when it names one, the failing line. */
public final class LibraryBuildException extends ComputeException {
    private static final long serialVersionUID = 1L;
    private final String log;
    private final int line;

    public LibraryBuildException(String message, String log, int line) {
        super(message, null);
        this.log = log;
        this.line = line;
    }

    /** The compiler's whole log. */
    public String log() {
        return log;
    }

    /** The first line the log names as an error (1-based), or -1. */
    public int line() {
        return line;
    }
}

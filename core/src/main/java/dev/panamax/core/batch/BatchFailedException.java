package dev.panamax.core.batch;

/**
 * A batch stopped at an entry whose status check failed. Entries before it ran and their results
 * stay readable; entries after it did not run.
 */
public final class BatchFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int index;
    private final String function;
    private final long code;

    BatchFailedException(int index, String function, long code, int size) {
        super("batch entry failed: index=" + index + " function=" + function + " code=" + code + " size=" + size
                + " (entries 0.." + (index - 1) + " ran and keep their results; later entries did not run)");
        this.index = index;
        this.function = function;
        this.code = code;
    }

    /** Index of the failing entry in the batch. */
    public int index() {
        return index;
    }

    /** The C function of the failing entry. */
    public String function() {
        return function;
    }

    /** The status it returned. */
    public long code() {
        return code;
    }
}

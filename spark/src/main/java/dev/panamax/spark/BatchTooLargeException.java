package dev.panamax.spark;

/**
 * A batch whose tensors would not fit the native memory an executor gives each task
 * ({@link ExecutorMemoryBudget}); the message names the batch, what it needs, the budget and where
 * the budget came from, and the largest batch that fits.
 */
public final class BatchTooLargeException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    BatchTooLargeException(String message) {
        super(message);
    }
}

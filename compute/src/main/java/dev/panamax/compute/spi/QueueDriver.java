package dev.panamax.compute.spi;

/**
 * A backend's side of a {@link dev.panamax.compute.CommandQueue}: it runs committed command buffers
 * in commit order. Must be thread-safe: many threads commit to one queue.
 */
public interface QueueDriver extends AutoCloseable {
    /**
     * Hands the submission's commands to the device without waiting for them. Later, from any thread
     * but never from inside a driver callback that user code could stall, the driver frees what it
     * made for the run and calls {@link Submission#finished} exactly once. A command refused while
     * enqueueing does not throw: the commands before it still run, and the submission finishes with
     * the error.
     */
    void submit(Submission submission);

    /** Blocks until the submission is finished (it has called {@link Submission#finished}). */
    void await(Submission submission) throws InterruptedException;

    /** Frees the native queue; every submission has finished by then. */
    @Override
    void close();
}

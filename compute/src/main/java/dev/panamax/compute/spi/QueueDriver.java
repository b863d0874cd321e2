package dev.panamax.compute.spi;

import java.util.List;

/**
 * A backend's side of a {@link dev.panamax.compute.CommandQueue}: it runs committed command buffers
 * in commit order. Must be thread-safe: many threads commit to one queue.
 */
public interface QueueDriver extends AutoCloseable {
    /**
     * Prepares a recorded command list for repeated submission, once, as a backend sees fit (its
     * calls planned, its argument values staged); each submission of the recording then carries the
     * result. Null, the default: each submission is handed over like any command buffer. A command
     * the backend would refuse makes no preparation: its submissions then fail as a commit would.
     */
    default PreparedRecording prepare(List<Command> commands) {
        return null;
    }

    /**
     * Hands the submission's commands to the device without waiting for them. The run is finished
     * (the driver frees what it made for it and calls {@link Submission#finished} exactly once) by
     * the first of: a thread in {@link #await}, or, when {@link Submission#notifyOnCompletion()} is
     * set or {@link #notifyOnCompletion} is called, the device's completion callback, handled off the
     * driver's thread. A command refused while enqueueing does not throw: the commands before it
     * still run, and the submission finishes with the error.
     */
    void submit(Submission submission);

    /** From now on, finish the submission when the device completes it even if nobody waits. Idempotent. */
    void notifyOnCompletion(Submission submission);

    /**
     * Without blocking: finishes the submission now if the device has completed it (so a caller
     * polling {@code status()} sees it complete though nobody waits or asked to be notified).
     */
    void poll(Submission submission);

    /** Blocks until the submission is finished (it has called {@link Submission#finished}). */
    void await(Submission submission) throws InterruptedException;

    /** Frees the native queue; every submission has finished by then. */
    @Override
    void close();
}

package dev.panamax.compute.spi;

/**
 * A backend's own form of a recorded command list ({@link QueueDriver#prepare}): made once when the
 * commands are recorded, handed back with each of their submissions ({@link Submission#prepared()}),
 * and closed when the recording closes, after its last submission has finished.
 */
public interface PreparedRecording extends AutoCloseable {
    /** Frees what the backend made for the recording. Idempotent. */
    @Override
    void close();
}

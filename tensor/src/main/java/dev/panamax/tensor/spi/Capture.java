package dev.panamax.tensor.spi;

/**
 * A step being captured by a backend ({@link Backend#beginCapture()}): from its beginning until
 * {@link #finish()} or {@link #abandon()}, the kernels the calling thread submits to the backend are
 * recorded into a program instead of run, and nothing of them runs before the program does. While
 * capturing, the backend refuses (with a {@code TensorException}, at capture time) what a replayed
 * program could not repeat: a read of values on the host, a write from Java into storage a captured
 * kernel already uses or that existed before the capture, and a kernel it could only run outside the
 * program (a fallback).
 *
 * <p>Every storage a captured kernel touches is held by the program until the program closes: a
 * tensor freed during the capture (or afterwards) gives its block back to the pool only then.
 */
public interface Capture {
    /** Ends the capture and returns the recorded program; nothing of it has run yet. */
    CapturedProgram finish();

    /** Ends the capture and drops what it recorded, freeing its memory; nothing of it runs. Idempotent. */
    void abandon();
}

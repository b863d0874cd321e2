package dev.panamax.compute;

/** A command buffer's life, as Metal names it. */
public enum CommandBufferStatus {
    /** Being encoded. */
    NOT_ENQUEUED,
    /** Committed: its commands were handed to the device. */
    COMMITTED,
    /** Every command ran; results are visible. */
    COMPLETED,
    /** A command failed (see {@link CommandBuffer#error()}); the commands before it ran. */
    ERROR;

    /** COMPLETED or ERROR. */
    public boolean isFinished() {
        return this == COMPLETED || this == ERROR;
    }
}

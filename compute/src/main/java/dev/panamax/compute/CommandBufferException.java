package dev.panamax.compute;

/**
 * A committed command buffer failed: the device or driver refused or failed one of its commands.
 * The message names the command buffer, the failing command's index and what it was, and the status.
 */
public final class CommandBufferException extends ComputeException {
    private static final long serialVersionUID = 1L;
    private final int commandIndex;

    public CommandBufferException(String message, int commandIndex, Throwable cause) {
        super(message, cause);
        this.commandIndex = commandIndex;
    }

    /** The failing command's index in its command buffer, or -1 when the device did not say which. */
    public int commandIndex() {
        return commandIndex;
    }
}

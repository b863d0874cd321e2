package dev.panamax.compute;

/**
 * Called once a command buffer is finished, on the queue's executor (never on the driver's thread,
 * so a slow handler does not stall the device). An exception it throws is reported and counted
 * ({@link CommandQueue#handlerFailures()}); the queue goes on.
 */
@FunctionalInterface
public interface CompletedHandler {
    void completed(CommandBufferStatus status);
}

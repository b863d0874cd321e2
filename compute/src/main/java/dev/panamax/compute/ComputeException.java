package dev.panamax.compute;

/** Everything the compute API refuses or reports, each saying what, where and what was expected. */
public sealed abstract class ComputeException extends RuntimeException
        permits EncodingException, CommandBufferException, LibraryBuildException, DeviceMemoryException {
    private static final long serialVersionUID = 1L;
    protected ComputeException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.panamax.tensor.opencl;

import dev.panamax.compute.LibraryBuildException;

/**
 * A generated tensor kernel program that a device refused to compile: names the kernel family, its
 * dtypes and the device, and carries the compiler's log (a bug in the generator or a device that
 * lacks a feature the program needs).
 */
public final class KernelBuildException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String log;

    KernelBuildException(String message, LibraryBuildException cause) {
        super(message, cause);
        this.log = cause.log();
    }

    /** The compiler's whole log. */
    public String log() {
        return log;
    }
}

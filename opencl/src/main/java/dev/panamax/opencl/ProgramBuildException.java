package dev.panamax.opencl;

import dev.panamax.opencl.binding.CLException;

/**
 * A program that did not build ({@code CL_BUILD_PROGRAM_FAILURE}): the message carries the build log
 * of every device, so the compiler's error is in the stack trace.
 */
public final class ProgramBuildException extends CLException {
    private static final long serialVersionUID = 1L;

    private final String log;

    ProgramBuildException(String function, long code, String log) {
        super(function, "cl_status", code, "build log:\n" + log);
        this.log = log;
    }

    /** The build log, per device. */
    public String log() {
        return log;
    }
}

package dev.panamax.opencl;

import dev.panamax.opencl.binding.CLApi;
import dev.panamax.opencl.binding.CLException;
import dev.panamax.opencl.binding.ClDeviceId;
import dev.panamax.opencl.binding.ClProgram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A program that does not compile: the exception names the error and carries the compiler's log. */
class BuildFailureTest extends PoclTestBase {
    static final String BROKEN = """
            __kernel void broken(__global float *a) {
                a[0] = no_such_variable_here;
            }
            """;

    @Test
    void aFailedBuildThrowsWithTheBuildLog() {
        ProgramBuildException e = assertThrows(ProgramBuildException.class,
                () -> OpenCl.buildProgram(context, device, BROKEN, ""));
        assertTrue(e.getMessage().startsWith("CL_BUILD_PROGRAM_FAILURE (-11) in clBuildProgram: build log:"), e.getMessage());
        assertTrue(e.getMessage().contains("no_such_variable_here"), e.getMessage());
        assertTrue(e.log().contains("error"), e.log());
        assertEquals(-11, e.code());
    }

    @Test
    void theTypedLayerAloneRaisesTheStatusAndTheLogStaysReadable() {
        try (ClProgram program = CLApi.clCreateProgramWithSource(context, new String[] {BROKEN}, null)) {
            CLException e = assertThrows(CLException.class,
                    () -> CLApi.clBuildProgram(program, new ClDeviceId[] {device}, null, null));
            assertEquals("CL_BUILD_PROGRAM_FAILURE (-11) in clBuildProgram", e.getMessage());
            assertTrue(OpenCl.buildLog(program, device).contains("no_such_variable_here"));
        }
    }
}

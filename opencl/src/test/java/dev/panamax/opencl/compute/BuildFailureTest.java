package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.LibraryBuildException;
import dev.panamax.opencl.binding.CL;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A failing kernel's build log is read defensively: odd line numbers never hide the log. */
class BuildFailureTest {
    @Test
    void aLineNumberThatDoesNotFitIsReportedAsTheLogGivesIt() {
        String source = "#line 99999999999\n__kernel void k(__global float *x) { x[0] = nope; }\n";
        String log = "input.cl:99999999999:47: error: use of undeclared identifier 'nope'";
        LibraryBuildException e = BuildFailure.of(source, "", log, CL.CL_BUILD_PROGRAM_FAILURE);
        assertEquals(-1, e.line());
        assertTrue(e.getMessage().contains("at line 99999999999 (as the source's #line directive numbers it)"), e.getMessage());
        assertTrue(e.getMessage().contains("undeclared identifier 'nope'"), e.getMessage());
        String huge = "x.cl:" + "9".repeat(40) + ":1: error: what";
        assertEquals(-1, BuildFailure.of("k", "", huge, CL.CL_BUILD_PROGRAM_FAILURE).line());
    }

    @Test
    void aRenumberedLineIsNotQuotedFromTheWrongLineOfTheSource() {
        String source = "#line 500\n__kernel void k(__global float *x) { x[0] = nope; }\n";
        LibraryBuildException e = BuildFailure.of(source, "", "input.cl:500:47: error: nope", CL.CL_BUILD_PROGRAM_FAILURE);
        assertEquals(500, e.line());
        assertFalse(e.getMessage().contains("__kernel"), e.getMessage().lines().findFirst().orElse(""));
    }

    @Test
    void withoutALineTheLogIsStillReported() {
        LibraryBuildException e = BuildFailure.of("k", "-Dbad", "", CL.CL_INVALID_BUILD_OPTIONS);
        assertEquals(-1, e.line());
        assertTrue(e.getMessage().contains("invalid build options '-Dbad'") && e.getMessage().contains("(the compiler gave no log)"), e.getMessage());
    }

    @Test
    void aHashLineDirectiveInAFailingKernelOnTheDeviceGivesItsLog() {
        // 2147483647: the error two lines on is at line 2147483649, past an int; 99999999999: the directive itself is the error
        for (String directive : new String[] {"#line 2147483647", "#line 2147483647 \"other.cl\"", "#line 40", "#line 99999999999"}) {
            String source = directive + "\n__kernel void k(__global float *x) {\n    x[0] = not_declared_anywhere;\n}\n";
            LibraryBuildException e = assertThrows(LibraryBuildException.class, () -> ComputeDevice.systemDefault().newLibrary(source));
            assertFalse(e.log().isBlank(), directive);
            assertTrue(e.getMessage().contains(e.log()), directive + ": " + e.getMessage());
            if (!directive.contains("99999999999")) assertTrue(e.log().contains("not_declared_anywhere"), directive + ": " + e.log());
            assertFalse(e.getMessage().lines().findFirst().orElse("").contains("x[0]"), directive + ": " + e.getMessage());
        }
    }

    @Test
    void aSourceOrOptionsWithANulAreRefusedNamingWhere() {
        // OpenCL takes C strings: the second kernel would vanish and the library build without it
        String source = "__kernel void k(__global float *x) { x[0] = 1; }\n\0__kernel void lost(__global float *x) { x[0] = 2; }\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.systemDefault().newLibrary(source));
        assertTrue(e.getMessage().startsWith("kernel source has a NUL character at offset 49 (line 2)"), e.getMessage());
        IllegalArgumentException o = assertThrows(IllegalArgumentException.class,
                () -> ComputeDevice.systemDefault().newLibrary("__kernel void k(__global float *x) { x[0] = 1; }", "-DA=1\0 -DB=2"));
        assertTrue(o.getMessage().startsWith("build options has a NUL character at offset 5 (line 1)"), o.getMessage());
    }
}

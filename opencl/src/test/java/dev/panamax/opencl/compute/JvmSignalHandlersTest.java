package dev.panamax.opencl.compute;

import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.Library;
import dev.panamax.core.JvmSignalHandlers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PoCL starts LLVM, whose crash handlers replace the JVM's handlers of SIGSEGV, SIGBUS and SIGILL;
 * the JVM then dies (exit 139, no error report) at its next deliberate SIGSEGV, a safepoint poll or
 * an implicit null check. The backend puts the JVM's handlers back after the platform starts and
 * after every build.
 */
class JvmSignalHandlersTest {
    @Test
    void theJvmKeepsItsHandlersAfterTheDriverStartsAndBuilds() {
        ComputeDevice device = ComputeDevice.systemDefault();
        try (Library library = device.newLibrary("__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }\n"
                + "// " + System.nanoTime())) { // a source PoCL has not compiled before: its compiler runs
            assertTrue(library != null);
        }
        assertTrue(JvmSignalHandlers.captured(), "the JVM's handlers were captured before OpenCL started");
        Map<String, String> handlers = JvmSignalHandlers.currentHandlers();
        assertFalse(handlers.isEmpty());
        handlers.forEach((signal, library) -> assertTrue(library.contains("libjvm"), signal + " is handled by " + library + ": " + handlers));
    }
}

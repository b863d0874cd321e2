package dev.panamax.opencl.compute;

import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A buffer or pipeline of one device used on another device's queue is refused with both devices
 * named, checked at encoding and unchecked at commit. PoCL shows its pthread and basic drivers as
 * two devices when asked ({@code POCL_DEVICES="pthread basic"}), read once at start: so a child JVM.
 */
class TwoDevicesTest {
    @Test
    void resourcesOfAnotherDeviceAreRefusedNamingBoth() throws Exception {
        ChildJvm c = ChildJvm.run(TwoDevicesMain.class, List.of("-Dpanamax.leakDetection=PARANOID", "-Xmx128m"),
                Map.of("POCL_DEVICES", "pthread basic"));
        String output = c.output();
        assertEquals(0, c.exitCode(), output);
        assertTrue(output.contains("devices 2"), output);
        assertTrue(output.contains("buffer refused: command buffer 'checked' command 0 (pipeline 'inc'), argument 0"), output);
        assertTrue(output.contains("belongs to another device"), output);
        assertTrue(output.contains("pipeline refused: command buffer 'checked' command 0: pipeline 'inc' belongs to another device"), output);
        assertTrue(output.contains("unchecked ERROR index 1: command buffer 'unchecked' command 1"), output);
        assertTrue(output.contains("is not a buffer of this OpenCL device"), output);
        for (String validation : List.of("CHECKED", "UNCHECKED"))
            assertTrue(output.contains("native buffer refused: command buffer 'native " + validation + "' command 0 (native command 'gemm'): buffer#"), output);
        assertTrue(output.contains("belongs to another device ("), output);
        assertFalse(output.contains("accepted a native command's buffer"), output);
        assertTrue(output.contains("first command ran: 1.0"), output);
        assertFalse(output.contains("LEAK"), output);
        assertTrue(output.contains("done"), output);
    }
}

package dev.panamax.cli;

import dev.panamax.clblast.ClBlast;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** {@code panamax info}'s tensor backends: each available or why not, the default, the opencl devices by index, CLBlast. */
class InfoCommandTest {
    @Test
    void listsTheTensorBackendsTheOpenClDevicesAndClBlast() {
        AbiCommandTest.Run r = AbiCommandTest.run("info");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.contains("tensor       cpu (default): available"), r.out());
        assertTrue(lines.contains("tensor       reference: available"), r.out());
        int opencl = lines.indexOf("tensor       opencl: available");
        assertTrue(opencl >= 0, r.out());

        List<ComputeDevice> devices = ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).toList();
        assertFalse(devices.isEmpty(), "PoCL is installed by ./panamax");
        for (int i = 0; i < devices.size(); i++) {
            String line = lines.get(opencl + 1 + i);
            assertTrue(line.startsWith("               device " + i + ": " + devices.get(i).info().name()), line);
            assertTrue(line.endsWith("[demo --device " + i + ", -Dpanamax.tensor.device=" + i + "]"), line);
        }
        String clblast = lines.get(opencl + 1 + devices.size());
        assertEquals(ClBlast.unavailableReason() == null, clblast.contains("CLBlast installed"), clblast);
    }

    @Test
    void theDefaultIsTheOneTheSettingNames() throws Exception {
        ChildJvm c = ChildJvm.run(Main.class, List.of("-Dpanamax.tensor.backend=reference"), "info");
        assertEquals(0, c.exitCode(), c.output());
        assertTrue(c.output().contains("tensor       reference (default): available\n"), c.output());
        assertTrue(c.output().contains("tensor       cpu: available\n"), c.output());
    }

    @Test
    void anUnavailableBackendSaysWhy(@TempDir Path noDrivers) throws Exception {
        ChildJvm c = ChildJvm.run(Main.class, List.of(), Map.of("OCL_ICD_VENDORS", noDrivers.toString()), "info");
        assertEquals(0, c.exitCode(), c.output());
        assertTrue(c.output().contains("tensor       opencl: unavailable: no OpenCL device found (install a driver"), c.output());
        assertTrue(c.output().contains("tensor       cpu (default): available\n"), c.output());
        assertFalse(c.output().contains("               device 0: "), "no device listed: " + c.output());
    }
}

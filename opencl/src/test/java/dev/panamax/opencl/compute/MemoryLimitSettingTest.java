package dev.panamax.opencl.compute;

import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** A bad device memory limit is named as the setting it is, not reported as OpenCL missing. */
class MemoryLimitSettingTest {
    @Test
    void aZeroOrOverflowingMemoryLimitNamesTheSettingNotOpenCl() throws Exception {
        for (String value : new String[] {"0", "-5m", "9999999999t", "lots"}) {
            ChildJvm c = ChildJvm.run(MemoryLimitSettingMain.class, List.of("-Dpanamax.compute.memoryLimit=" + value), Map.of());
            assertEquals(0, c.exitCode(), c.output());
            assertTrue(c.output().contains("refused: no compute device: opencl: a setting is wrong")
                    && c.output().contains("property=panamax.compute.memoryLimit value=" + value + " expected=a positive size"), c.output());
            assertFalse(c.output().contains("not available"), c.output());
        }
        ChildJvm fine = ChildJvm.run(MemoryLimitSettingMain.class, List.of("-Dpanamax.compute.memoryLimit=64m"), Map.of());
        assertTrue(fine.output().contains("device: "), fine.output());
    }
}

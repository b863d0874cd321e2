package dev.panamax.opencl.compute;

import dev.panamax.compute.Buffer;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.compute.DeviceMemoryStats;
import dev.panamax.compute.StorageMode;
import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Device memory the GC can see: buffers dropped unclosed are collected in time with and without
 * {@code -XX:+DisableExplicitGC}, the budget's refusal names what is held and where, and closed
 * buffers come back from the pool.
 */
class DeviceMemoryTest {
    @Test
    void aClosedBufferComesBackFromThePool() {
        ComputeDevice device = ComputeDevice.systemDefault();
        long hits = device.memoryStats().pool().hits();
        long reserved = device.memoryStats().reservedBytes();
        Buffer a = device.newBuffer(3000, StorageMode.PRIVATE); // class 4096
        a.close();
        Buffer b = device.newBuffer(4000, StorageMode.PRIVATE);
        DeviceMemoryStats s = device.memoryStats();
        b.close();
        assertTrue(s.pool().hits() > hits, "pool hits " + hits + " -> " + s.pool().hits());
        assertTrue(s.reservedBytes() >= reserved + 4096 || s.pool().bytesIdle() > 0, s.toString());
        assertTrue(s.pool().classes().stream().anyMatch(c -> c.classSize() == 4096 && c.hits() > 0), s.pool().classes().toString());
        assertTrue(s.liveBuffers() >= 1);
    }

    @Test
    void droppedBuffersAreCollectedInTimeWithoutExplicitGc() throws Exception {
        // 2 GiB of 8 MiB buffers through a 128 MiB device budget, never closed
        for (boolean disableExplicitGc : new boolean[] {false, true}) {
            ChildJvm c = child(List.of("-Xmx128m", disableExplicitGc ? "-XX:+DisableExplicitGC" : "-XX:-DisableExplicitGC"),
                    "churn", Long.toString(2L << 30), Long.toString(8L << 20));
            assertEquals(0, c.exitCode(), "DisableExplicitGC=" + disableExplicitGc + "\n" + c.output());
            assertTrue(c.output().contains("churned"), c.output());
        }
    }

    @Test
    void overTheLimitTheRefusalNamesWhatIsHeldAndWhere() throws Exception {
        ChildJvm c = child(List.of("-Xmx128m", "-Dpanamax.memory.maxWaitMillis=100"), "hold", Long.toString(8L << 20));
        assertEquals(0, c.exitCode(), c.output());
        assertTrue(c.output().contains("held=16"), c.output());
        assertTrue(c.output().contains("memory budget exhausted: requested 8.0 MiB"), c.output());
        assertTrue(c.output().contains("held: 16 buffers, 128.0 MiB in use"), c.output());
        assertTrue(c.output().contains("16x 128.0 MiB PRIVATE at dev.panamax.opencl.compute.DeviceMemoryMain.main(DeviceMemoryMain.java"), c.output());
        assertTrue(c.output().contains("-Dpanamax.compute.memoryLimit"), c.output());
    }

    private static ChildJvm child(List<String> jvmArgs, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("-Dpanamax.compute.memoryLimit=128m", "-Dpanamax.leakDetection=SAMPLED"));
        all.addAll(jvmArgs);
        return ChildJvm.run(DeviceMemoryMain.class, all, Map.of(), args);
    }
}

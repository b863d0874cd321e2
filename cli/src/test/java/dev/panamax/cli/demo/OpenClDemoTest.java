package dev.panamax.cli.demo;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.panamax.clblast.ClBlast;
import dev.panamax.cli.Main;
import dev.panamax.compute.ComputeDevice;
import dev.panamax.testsupport.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.panamax.cli.demo.MlpDemoCommandTest.demo;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code panamax demo --backend opencl} on the OpenCL device this machine has (PoCL's CPU device in
 * CI): a short training end to end, the line naming the backend and device, {@code --device}, and
 * the errors for a device or backend that cannot be used. The demo makes the opencl backend for its
 * run and closes it, so these run in this JVM under the leak check.
 */
class OpenClDemoTest {
    /** A few seconds on PoCL, enough to learn most of the spiral. */
    static final String[] SHORT = {"--steps", "40", "--hidden", "32", "--lr", "0.02"};

    @AfterEach
    void forgetTheDevice() {
        // --device sets the property the opencl backend reads when it is made
        System.clearProperty(MlpDemoCommand.DEVICE_PROPERTY);
    }

    @Test
    void trainsOnTheOpenClDeviceAndSaysWhichOne(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("opencl.json");
        MlpDemoCommandTest.Run r = demo(MlpDemoCommandTest.with(SHORT, "--backend", "opencl", "--device", "0", "--json", json.toString()));
        assertEquals(0, r.exit(), r.err() + r.out());
        String device = ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).findFirst()
                .orElseThrow().info().name();
        assertTrue(r.out().contains("training on opencl:0 (" + device + ")\n"), r.out());
        assertTrue(r.out().indexOf("training on") < r.out().indexOf("accuracy  "), "named before training: " + r.out());
        assertTrue(r.out().contains("handles leaked 0"), r.out());
        assertTrue(r.out().contains(" command buffers ("), r.out());

        Map<String, Object> summary = JSON.std.mapFrom(Files.readString(json));
        assertEquals("opencl", summary.get("backend"));
        assertEquals("opencl:0 (" + device + ")", summary.get("device"));
        assertTrue(((Number) summary.get("accuracy")).doubleValue() >= 0.8, summary.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) summary.get("statistics");
        assertEquals(0, ((Number) stats.get("handlesLeaked")).intValue(), stats.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> counters = (Map<String, Object>) stats.get("backendCounters");
        long kernels = ((Number) counters.get("kernels")).longValue(), commits = ((Number) counters.get("commits")).longValue();
        assertTrue(kernels > 40 && commits > 0, counters.toString());
        assertEquals(Math.round((double) kernels / commits), ((Number) counters.get("kernelsPerCommit")).longValue(),
                "the ratio over the run: " + counters);
        long products = ((Number) counters.get("clblastProducts")).longValue();
        if (ClBlast.unavailableReason() == null) {
            // every step's forward and backward products (three layers) go to CLBlast
            assertTrue(products >= 40 * 3, counters.toString());
            assertTrue(r.out().contains("matrix products on CLBlast") && r.out().contains("CLBlast products "), r.out());
        } else {
            assertEquals(0, products, counters.toString());
        }
    }

    @Test
    void deviceByAPartOfItsName() {
        String name = ComputeDevice.all().stream().filter(d -> d.info().backend().equalsIgnoreCase("opencl")).findFirst()
                .orElseThrow().info().name();
        String part = name.substring(0, Math.min(7, name.length())).toUpperCase(Locale.ROOT);
        MlpDemoCommandTest.Run r = demo("--steps", "3", "--hidden", "8", "--backend", "opencl", "--device", part);
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("training on opencl:"), r.out());
        assertTrue(r.out().contains(name), r.out());
    }

    @Test
    void hostBackendsTrainInHostMemory() {
        for (String backend : List.of("cpu", "reference")) {
            MlpDemoCommandTest.Run r = demo("--steps", "3", "--hidden", "8", "--backend", backend);
            assertEquals(0, r.exit(), r.err() + r.out());
            assertTrue(r.out().contains("training on " + backend + " (host memory)\n"), r.out());
        }
    }

    @Test
    void aDeviceForAHostBackendIsRefusedBeforeTraining() {
        MlpDemoCommandTest.Run r = demo("--steps", "3", "--backend", "cpu", "--device", "0");
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().contains("--device=0: the cpu backend computes in host memory and has no devices to choose; "
                + "expected --backend opencl"), r.err());
        assertFalse(r.out().contains("accuracy  "), "nothing was trained: " + r.out());
    }

    @Test
    void aDeviceNoneMatchesIsOneErrorListingTheDevicesAndTheOtherBackends() {
        MlpDemoCommandTest.Run r = demo("--steps", "3", "--backend", "opencl", "--device", "no-such-device");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("panamax demo: tensor backend 'opencl' cannot run here: "), r.err());
        assertTrue(r.err().contains("no-such-device") && r.err().contains("0: "), "names the setting and the devices: " + r.err());
        assertTrue(r.err().contains("the other tensor backends: cpu (default), reference"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertFalse(r.out().contains("training on"), r.out());
    }

    @Test
    void withoutAnOpenClDeviceTheErrorSaysWhyAndListsTheOtherBackends(@TempDir Path noDrivers) throws Exception {
        // a JVM of its own whose ICD loader finds no driver: the machine as it is without an OpenCL device
        ChildJvm c = ChildJvm.run(Main.class, List.of(), Map.of("OCL_ICD_VENDORS", noDrivers.toString()),
                "demo", "mlp", "--steps", "3", "--backend", "opencl");
        assertEquals(1, c.exitCode(), c.output());
        assertTrue(c.output().contains("panamax demo: tensor backend 'opencl' cannot run here: no OpenCL device found"), c.output());
        assertTrue(c.output().contains("the other tensor backends: cpu (default), reference"), c.output());
        assertFalse(c.output().contains("\tat "), "no stack trace: " + c.output());
    }
}

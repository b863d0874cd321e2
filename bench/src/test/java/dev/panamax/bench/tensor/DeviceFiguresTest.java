package dev.panamax.bench.tensor;

import dev.panamax.tensor.Backends;
import dev.panamax.tensor.opencl.OpenClTensorBackend;
import dev.panamax.tensor.opencl.OpenClTensorProvider;
import dev.panamax.tensor.spi.Backend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DeviceFiguresTest {
    @Test
    void fullRunsTheTargetsSizesAndTheDefaultSmallerOnes() {
        List<DeviceWorkload> full = DeviceFigures.workloads(true);
        assertEquals(List.of("spiral.step.ms", "big.step.ms", "add64m.GBps", "matmul4096.TFLOPS"),
                full.stream().map(DeviceWorkload::figure).toList());
        assertEquals(List.of("spiral.step.ms", "big.step.ms", "add16m.GBps", "matmul1024.TFLOPS"),
                DeviceFigures.workloads(false).stream().map(DeviceWorkload::figure).toList());
        var spiral = (DeviceWorkload.Step) full.getFirst();
        assertEquals(256, spiral.batch());
        assertArrayEquals(new int[]{2, 256, 256, 3}, spiral.sizes());
        var big = (DeviceWorkload.Step) full.get(1);
        assertEquals(1024, big.batch());
        assertArrayEquals(new int[]{784, 1024, 1024, 10}, big.sizes());
    }

    @Test
    void peerCommandsNameWhatPeersPyMeasures() {
        assertEquals("dspiral 100", DeviceFigures.workloads(true).getFirst().peerCommand());
        assertEquals("dadd 67108864 10 64m", DeviceFigures.workloads(true).get(2).peerCommand());
        assertEquals("dmatmul 4096 5", DeviceFigures.workloads(true).get(3).peerCommand());
    }

    @Test
    void sizeLabelsSayMebiElementsOrTheExactLength() {
        assertEquals("64m", DeviceFigures.sizeLabel(64L << 20));
        assertEquals("1000", DeviceFigures.sizeLabel(1000));
    }

    @Test
    void ratiosPairEachRoundWithTheSameRound() {
        assertArrayEquals(new double[]{0.5, 2, 1}, DeviceFigures.ratios(new double[]{1, 4, 3}, new double[]{2, 2, 3}));
        var e = assertThrows(IllegalArgumentException.class, () -> DeviceFigures.ratios(new double[2], new double[3]));
        assertTrue(e.getMessage().contains("2 and 3"), e.getMessage());
    }

    @Test
    void badWorkloadsAreRefusedNamingTheValue() {
        var e = assertThrows(IllegalArgumentException.class, () -> new DeviceWorkload.Add(0, "0", 1));
        assertTrue(e.getMessage().contains("elements=0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new DeviceWorkload.Matmul(8, 0));
        assertTrue(e.getMessage().contains("reps=0"), e.getMessage());
    }

    @Test
    void workloadsRunOnTheCpuBackendAndFreeWhatTheyMade() {
        measureEach(Backends.get("cpu"));
    }

    @Test
    void workloadsRunOnTheOpenClBackendAndFreeWhatTheyMade() {
        var provider = new OpenClTensorProvider();
        assumeTrue(provider.unavailableReason() == null, () -> "no OpenCL device here: " + provider.unavailableReason());
        // a backend of its own, closed at the end: the process-wide one keeps its queue and kernels
        try (var opencl = (OpenClTensorBackend) provider.create()) {
            measureEach(opencl);
            assertTrue(opencl.counters().get("kernels") > 0, opencl.counters().toString());
        }
    }

    /** Tiny versions of each kind: a positive, finite value per round, nothing leaked (PARANOID). */
    private static void measureEach(Backend backend) {
        List<DeviceWorkload> tiny = List.of(
                new DeviceWorkload.Step("tiny", 4, new int[]{3, 5, 2}, 2),
                new DeviceWorkload.Add(1000, "1000", 2),
                new DeviceWorkload.Matmul(16, 2));
        for (DeviceWorkload w : tiny) {
            try (DeviceWorkload.Rounds r = w.prepare(backend)) {
                for (int i = 0; i < 2; i++) {
                    double v = r.measure();
                    assertTrue(v > 0 && Double.isFinite(v), w.describe() + " on " + backend.name() + ": " + v);
                }
            }
        }
    }
}

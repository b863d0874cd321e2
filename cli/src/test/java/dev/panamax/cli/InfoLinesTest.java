package dev.panamax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code panamax info}'s compute backend and OpenBLAS lines, on the real libraries the launcher installs. */
class InfoLinesTest {
    @Test
    void theOpenClBackendReportsPoclsCpuDevice() {
        ComputeBackendStatus opencl = ComputeBackendStatus.all().stream().filter(b -> b.name().equals("opencl")).findFirst()
                .orElseThrow(() -> new AssertionError("no opencl backend in " + ComputeBackendStatus.all()));
        assertFalse(opencl.devices().isEmpty(), "the ICD loader and PoCL are installed by ./panamax: " + opencl.unavailableReason());
        assertEquals("", opencl.unavailableReason());
        assertTrue(opencl.devices().getFirst().computeUnits() >= 1, opencl.devices().getFirst().toString());
        List<String> lines = ComputeBackendStatus.lines(List.of(opencl));
        assertTrue(lines.getFirst().startsWith("compute      opencl: " + opencl.devices().size() + " device"), lines.getFirst());
        assertTrue(lines.get(1).startsWith("               device 0 (default): " + opencl.devices().getFirst().name()), lines.get(1));
        assertTrue(lines.get(1).contains("compute units") && lines.get(1).contains("threadgroups up to"), lines.get(1));
        assertEquals(1 + opencl.devices().size(), lines.size(), String.join("\n", lines));
    }

    @Test
    void aBackendWithoutDevicesIsOneLineSayingWhy() {
        List<String> lines = ComputeBackendStatus.lines(List.of(new ComputeBackendStatus("opencl", List.of(),
                "OpenCL is not available: libOpenCL.so.1 not found (./panamax installs ocl-icd-libopencl1 and pocl-opencl-icd)")));
        assertEquals(List.of("compute      opencl: unavailable: OpenCL is not available: libOpenCL.so.1 not found "
                + "(./panamax installs ocl-icd-libopencl1 and pocl-opencl-icd)"), lines);
        assertEquals(List.of("compute      none: no backend found (add panamax-opencl to the class or module path)"),
                ComputeBackendStatus.lines(List.of()));
    }

    @Test
    void aLoaderWithoutPlatformsSaysWhatToInstall(@TempDir Path emptyVendors) throws Exception {
        // the ICD loader reads its vendor list once per process: a child JVM sees an empty one
        String out = runInfo("OCL_ICD_VENDORS", emptyVendors.toString());
        assertTrue(out.contains("compute      opencl: unavailable: ") && out.contains("pocl-opencl-icd"), out);
    }

    @Test
    void byteCountsReadInBinaryUnits() {
        assertEquals("4.0 GiB", ComputeBackendStatus.bytes(4L << 30));
        assertEquals("512.0 MiB", ComputeBackendStatus.bytes(512L << 20));
        assertEquals("4096 bytes", ComputeBackendStatus.bytes(4096));
    }

    @Test
    void openBlasReportsItsBuildAndThreads() {
        String line = OpenBlasProbe.line(OpenBlasProbe.LIBRARY);
        assertTrue(line.startsWith("openblas     OpenBLAS ") && line.contains(" threads)"), line);
        String missing = OpenBlasProbe.line("libopenblas-panamax-absent.so.9");
        assertTrue(missing.contains("not available") && missing.contains("libopenblas0-pthread"), missing);
    }

    private static String runInfo(String envName, String envValue) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "info").redirectErrorStream(true);
        pb.environment().put(envName, envValue);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "panamax info did not end");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}

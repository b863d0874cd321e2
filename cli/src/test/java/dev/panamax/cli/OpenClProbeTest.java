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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code panamax info}'s OpenCL and OpenBLAS lines, on the real libraries the launcher installs. */
class OpenClProbeTest {
    @Test
    void findsPoclAndItsCpuDevice() {
        OpenClReport.Found found = assertInstanceOf(OpenClReport.Found.class, OpenClProbe.probe(OpenClProbe.LOADER),
                "the ICD loader and PoCL are installed by ./panamax");
        OpenClReport.Platform pocl = found.platforms().stream().filter(p -> p.name().contains("Portable Computing Language"))
                .findFirst().orElseThrow(() -> new AssertionError("no PoCL platform in " + found));
        assertTrue(pocl.version().startsWith("OpenCL "), pocl.version());
        OpenClReport.Device cpu = pocl.devices().stream().filter(d -> d.typeName().contains("cpu")).findFirst()
                .orElseThrow(() -> new AssertionError("no CPU device in " + pocl));
        assertTrue(cpu.computeUnits() >= 1, "computeUnits=" + cpu.computeUnits());
        assertTrue(cpu.globalMemBytes() > 0, "globalMemBytes=" + cpu.globalMemBytes());
        assertFalse(cpu.name().isBlank() || cpu.name().startsWith("?"), cpu.name());
        List<String> lines = OpenClProbe.lines(found);
        assertTrue(lines.getFirst().startsWith("opencl       platform 0: "), lines.getFirst());
        assertTrue(lines.stream().anyMatch(l -> l.contains("compute units") && l.contains("global memory")), String.join("\n", lines));
    }

    @Test
    void aMissingLoaderIsOneClearLine() {
        OpenClReport report = OpenClProbe.probe("libOpenCL-panamax-absent.so.9");
        OpenClReport.NoLoader none = assertInstanceOf(OpenClReport.NoLoader.class, report);
        assertEquals("libOpenCL-panamax-absent.so.9", none.library());
        List<String> lines = OpenClProbe.lines(report);
        assertEquals(1, lines.size());
        assertTrue(lines.getFirst().contains("not available") && lines.getFirst().contains("ocl-icd-libopencl1"), lines.getFirst());
    }

    @Test
    void aLoaderWithoutPlatformsSaysWhatToInstall(@TempDir Path emptyVendors) throws Exception {
        // the ICD loader reads its vendor list once per process: a child JVM sees an empty one
        String out = runInfo("OCL_ICD_VENDORS", emptyVendors.toString());
        assertTrue(out.contains("no OpenCL platform") && out.contains("CL_PLATFORM_NOT_FOUND_KHR") && out.contains("pocl-opencl-icd"), out);
    }

    @Test
    void deviceTypesReadAsNames() {
        assertEquals("cpu", new OpenClReport.Device("d", "v", "1", 1L << 1, 1, 1).typeName());
        assertEquals("cpu+gpu", new OpenClReport.Device("d", "v", "1", (1L << 1) | (1L << 2), 1, 1).typeName());
        assertEquals("type=0x1", new OpenClReport.Device("d", "v", "1", 1L, 1, 1).typeName());
        assertEquals("4.0 GiB", OpenClProbe.bytes(4L << 30));
        assertEquals("512.0 MiB", OpenClProbe.bytes(512L << 20));
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

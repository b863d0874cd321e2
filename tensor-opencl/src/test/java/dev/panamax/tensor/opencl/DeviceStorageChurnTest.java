package dev.panamax.tensor.opencl;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device storage is freed exactly once by close, by a scope's end and by the GC, with leak detection
 * PARANOID, in a child JVM whose device budget is 64 MiB while the GC phase makes 800 MiB of device
 * tensors; once as JVMs run by default and once with {@code -XX:+DisableExplicitGC}, where the
 * budget cannot ask for a collection and must rely on the heap shadows of device buffers.
 */
class DeviceStorageChurnTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void deviceStorageIsFreedOnceByCloseScopeAndGc(boolean disableExplicitGc) throws Exception {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "--enable-native-access=ALL-UNNAMED",
                "-Dpanamax.leakDetection=PARANOID", "-Dpanamax.compute.memoryLimit=64m",
                // a loaded 2-core machine may take longer than the default for the collector to come round
                "-Dpanamax.memory.maxWaitMillis=30000"));
        if (disableExplicitGc) cmd.add("-XX:+DisableExplicitGC");
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), DeviceStorageChurn.class.getName(), "800"));
        Path err = Files.createTempFile("device-churn", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child did not finish: " + out);
            if (p.exitValue() != 0) {
                // the leak reports of the GC phase are expected there; the failure is what matters, so
                // it comes first (a report may show the message's first line only): the exception, or
                // the JVM's own fatal error, which it prints to standard output
                String failure = Files.readAllLines(err).stream()
                        .filter(l -> l.contains("Exception") || l.contains("Error") || l.startsWith("Caused by") || l.startsWith("\tat "))
                        .limit(12).reduce("", (a, b) -> a + " | " + b);
                String fatal = out.lines().filter(l -> l.startsWith("# ")).limit(12).reduce("", (a, b) -> a + " | " + b);
                assertEquals(0, p.exitValue(), "child exited " + p.exitValue() + ":" + failure + fatal + " | output: " + out.replace('\n', ' '));
            }
            check(out);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static void check(String out) {
        long start = live(out, "start"), closed = live(out, "closed"), scoped = live(out, "scoped");
        assertEquals(start, closed, "buffers left after closing every tensor: " + out);
        assertEquals(start, scoped, "buffers left after every scope ended: " + out);
        assertTrue(out.contains("leaks=0"), "a tensor freed by close or scope was reported as leaked: " + out);
        assertTrue(out.contains("collected live=") && out.contains("done total="), out);
    }

    private static long live(String out, String phase) {
        Matcher m = Pattern.compile(phase + " live=(\\d+)").matcher(out);
        assertTrue(m.find(), phase + " missing: " + out);
        return Long.parseLong(m.group(1));
    }
}

package dev.panamax.tensor;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ten thousand training steps with no scope and no close, in a JVM of 256 MiB heap: every tensor
 * is left to the GC, which sees each storage's size through its shadow and frees in time.
 */
class ChurnTest {
    static final int STEPS = 10_000;
    /** Peak resident set (VmHWM) allowed: the heap (256 MiB) plus the JVM's own and the live native tensors. */
    static final long PEAK_RSS_BOUND_KIB = 512 * 1024;

    @Test
    void tenThousandStepsWithoutScopesStayBounded() throws Exception {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                // GC-freed handles are what this run is about; SAMPLED (the default) reports 1 in 128 as leaks
                "-Dpanamax.leakDetection=SAMPLED", "-cp", System.getProperty("java.class.path")));
        String backend = System.getProperty(Backends.PROPERTY);
        if (backend != null) cmd.add("-D" + Backends.PROPERTY + "=" + backend);
        cmd.addAll(List.of(ChurnTraining.class.getName(), String.valueOf(STEPS)));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child did not finish");
        assertEquals(0, p.exitValue(), "child failed: " + out);
        Matcher m = Pattern.compile("steps=(\\d+) loss=(\\S+) peakRssKiB=(\\d+) releasedByGc=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        assertEquals(STEPS, Integer.parseInt(m.group(1)));
        long peak = Long.parseLong(m.group(3));
        System.out.println("churn: " + out.strip());
        assertTrue(peak < PEAK_RSS_BOUND_KIB, "peak RSS " + peak + " KiB over the bound " + PEAK_RSS_BOUND_KIB + " KiB: " + out);
        assertTrue(Long.parseLong(m.group(4)) > 0, "the GC freed nothing, so nothing was left to it: " + out);
        assertTrue(Double.parseDouble(m.group(2)) < 0.5, "training did not converge: " + out);
    }

}

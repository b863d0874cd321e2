package dev.panamax.opencl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The generated typed layer allocates nothing on the Java heap for a call with handles, a staged
 * Java array, arrays feeding one length parameter and a checked status: an enqueue and a clFinish,
 * as in the dispatch benchmark, once warm. Measured in a JVM without escape analysis
 * ({@link TypedCallAllocationChild}), so that an object the call makes is counted even where C2
 * would have removed it: the figure cannot depend on the draw of a compilation.
 */
class TypedCallAllocationTest {
    private static final Pattern RESULT = Pattern.compile("allocatedBytes=(\\d+) calls=(\\d+)");

    @Test
    void enqueueAndFinishAllocateNothingEvenWithoutEscapeAnalysis() throws IOException, InterruptedException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:-DoEscapeAnalysis", "--enable-native-access=ALL-UNNAMED", "-Dpanamax.leakDetection=PARANOID",
                "-cp", classPath, TypedCallAllocationChild.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish: " + out);
        assertEquals(0, child.exitValue(), "child JVM failed: " + out);
        Matcher m = RESULT.matcher(out);
        assertTrue(m.find(), "no result line in: " + out);
        long allocated = Long.parseLong(m.group(1));
        long calls = Long.parseLong(m.group(2));
        // a little slack for a stray JIT or GC bookkeeping object; one 16-byte object per call would be 80 KB
        assertTrue(allocated < 16_000, "allocated " + allocated + " bytes in " + calls + " round trips: " + out);
    }
}

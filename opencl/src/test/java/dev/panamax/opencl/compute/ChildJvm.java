package dev.panamax.opencl.compute;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A test's {@code main} run in a JVM of its own on this JVM's class path, for what a JVM reads once
 * (heap size, GC flags, PoCL's device list): its exit code and everything it printed.
 */
record ChildJvm(int exit, String output) {
    static ChildJvm run(Class<?> main, List<String> jvmArgs, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(environment);
        Process p = pb.start();
        byte[] out;
        try (var in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("child did not finish: " + cmd);
        }
        return new ChildJvm(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}

package dev.panamax.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A test's {@code main} run in a JVM of its own on this JVM's class path, for what a JVM reads once
 * (heap size, GC flags, environment such as PoCL's device list): its exit code and everything it
 * printed. A child that runs past two minutes is killed and fails the test.
 *
 * <pre>{@code
 * ChildJvm c = ChildJvm.run(ChurnMain.class, List.of("-Xmx64m"));
 * assertEquals(0, c.exitCode(), c.output());
 * }</pre>
 */
public record ChildJvm(int exitCode, String output) {
    public static ChildJvm run(Class<?> main, List<String> jvmFlags, String... args) throws IOException, InterruptedException {
        return run(main, jvmFlags, Map.of(), args);
    }

    public static ChildJvm run(Class<?> main, List<String> jvmFlags, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmFlags);
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
            throw new AssertionError("child JVM did not finish in 120 s: " + cmd);
        }
        return new ChildJvm(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}

package dev.panamax.opencl.misuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a {@link MisuseCase} in a JVM of its own, on this JVM's class path, with its fatal-error log
 * directed into a fresh directory: what came out, the exit code, and every hs_err file written.
 */
final class ChildJvm {
    /** How a child ended. {@code timedOut}: killed after the time limit. */
    record Result(int exitCode, String output, List<Path> fatalErrorLogs, boolean timedOut) {}

    private static final long TIME_LIMIT_SECONDS = 120;

    private ChildJvm() {}

    static Result run(MisuseCase c, Path workDir) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Dpanamax.leakDetection=PARANOID");
        command.add("-XX:ErrorFile=" + workDir.resolve("hs_err_pid%p.log"));
        command.add("-Xmx256m");
        command.addAll(c.jvmOptions());
        command.add("-cp");
        command.add(classPath);
        command.add(c.main().getName());
        command.addAll(c.args());
        Process child = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
        // read while it runs, so a chatty child never blocks on a full pipe
        var out = new java.io.ByteArrayOutputStream();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (var in = child.getInputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the child is gone
            }
        });
        boolean done = child.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!done) child.destroyForcibly().waitFor();
        reader.join(5_000);
        List<Path> logs;
        try (Stream<Path> files = Files.list(workDir)) {
            logs = files.filter(p -> p.getFileName().toString().startsWith("hs_err")).sorted().toList();
        }
        return new Result(child.exitValue(), out.toString(StandardCharsets.UTF_8), logs, !done);
    }
}

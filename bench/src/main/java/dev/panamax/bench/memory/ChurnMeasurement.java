package dev.panamax.bench.memory;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Native memory churn in child JVMs with {@code -Xmx512m}: 16 GiB allocated as 16 MiB buffers,
 * each filled once and dropped unfreed. Panamax with a 1 GiB budget, with and without
 * {@code -XX:+DisableExplicitGC}; side by side JavaCPP ({@code BytePointer}) with {@code maxBytes}
 * at the same 1 GiB, and JavaCPP at its defaults under {@code -XX:+DisableExplicitGC}.
 * Peak RSS is the child's VmHWM. An unmeasured warm-up child runs first, and the measured runs
 * alternate between Panamax and JavaCPP, so neither side carries the machine's first-run costs.
 */
public final class ChurnMeasurement implements Measurement {
    static final long TOTAL_MIB = 16 * 1024;
    static final long EACH_MIB = 16;
    static final long BUDGET_MIB = 1024;

    /** One child run's outcome. */
    record Run(boolean completed, double seconds, double peakRssMiB, String error) {}

    @Override
    public String suite() {
        return "memory";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int repeats = quick ? 1 : 3;
        List<String> heap = List.of("-Xmx512m");
        List<String> panamax = concat(heap, "-Dpanamax.memory.limit=" + BUDGET_MIB + "m");
        List<String> javacpp = concat(heap, "-Dorg.bytedeco.javacpp.maxBytes=" + BUDGET_MIB + "m",
                "-Dorg.bytedeco.javacpp.maxPhysicalBytes=0");

        // The first large churn after other work pays for the kernel compacting memory into huge
        // pages; whichever JVM ran first would carry it. One unmeasured run takes that cost.
        child("panamax", panamax, TOTAL_MIB / 4);
        Map<String, List<Run>> runs = new HashMap<>();
        for (int i = 0; i < repeats; i++) {
            runs.computeIfAbsent("panamax", k -> new ArrayList<>()).add(child("panamax", panamax));
            runs.computeIfAbsent("javacpp", k -> new ArrayList<>()).add(child("javacpp", javacpp));
            runs.computeIfAbsent("panamaxNoGc", k -> new ArrayList<>()).add(child("panamax", concat(panamax, "-XX:+DisableExplicitGC")));
        }
        Run javacppDefaults = child("javacpp", concat(heap, "-XX:+DisableExplicitGC"));

        List<Result> out = new ArrayList<>();
        out.add(Result.single("churn.budget.MiB", "MiB", BUDGET_MIB));
        out.add(completed("churn.completed", runs.get("panamax")));
        out.add(stat("churn.peakRss.MiB", "MiB", runs.get("panamax"), Run::peakRssMiB, "javacpp.churn.peakRss.MiB"));
        out.add(stat("panamax.churn.seconds", "s", runs.get("panamax"), Run::seconds, "javacpp.churn.seconds"));
        out.add(completed("churn.noExplicitGc.completed", runs.get("panamaxNoGc")));
        out.add(stat("churn.noExplicitGc.peakRss.MiB", "MiB", runs.get("panamaxNoGc"), Run::peakRssMiB, "javacpp.churn.peakRss.MiB"));
        out.add(stat("churn.noExplicitGc.seconds", "s", runs.get("panamaxNoGc"), Run::seconds, "javacpp.churn.seconds"));
        out.add(completed("javacpp.churn.completed", runs.get("javacpp")));
        out.add(stat("javacpp.churn.peakRss.MiB", "MiB", runs.get("javacpp"), Run::peakRssMiB, ""));
        out.add(stat("javacpp.churn.seconds", "s", runs.get("javacpp"), Run::seconds, ""));
        out.add(Result.single("javacpp.noExplicitGc.completed", "1/0", javacppDefaults.completed() ? 1 : 0));
        if (!javacppDefaults.completed()) {
            System.err.println("panamax bench: JavaCPP at its defaults under -XX:+DisableExplicitGC: " + javacppDefaults.error());
        }
        return out;
    }

    private static Result completed(String name, List<Run> runs) {
        double[] v = runs.stream().mapToDouble(r -> r.completed() ? 1 : 0).toArray();
        return new Result(name, "1/0", Result.median(v), Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0), "");
    }

    private static Result stat(String name, String unit, List<Run> runs, java.util.function.ToDoubleFunction<Run> f, String baseline) {
        return Result.of(name, unit, runs.stream().mapToDouble(f).toArray(), baseline);
    }

    private static List<String> concat(List<String> base, String... more) {
        List<String> l = new ArrayList<>(base);
        l.addAll(List.of(more));
        return l;
    }

    /** Runs {@link ChurnChild} in a fresh JVM and parses its result line. */
    static Run child(String mode, List<String> flags) throws IOException, InterruptedException {
        return child(mode, flags, TOTAL_MIB);
    }

    static Run child(String mode, List<String> flags, long totalMiB) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(ChurnChild.class.getName());
        cmd.add(mode);
        cmd.add(Long.toString(totalMiB));
        cmd.add(Long.toString(EACH_MIB));
        System.err.println("panamax bench: churn " + mode + " totalMiB=" + totalMiB + " " + String.join(" ", flags));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Run(false, Double.NaN, Double.NaN, "timed out");
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("result ")) {
                Map<String, String> kv = new HashMap<>();
                for (String part : line.substring(7).split(" ", 4)) {
                    int eq = part.indexOf('=');
                    kv.put(part.substring(0, eq), part.substring(eq + 1));
                }
                return new Run("1".equals(kv.get("completed")), Double.parseDouble(kv.get("seconds")),
                        Long.parseLong(kv.get("peakRssKiB")) / 1024.0, kv.getOrDefault("error", ""));
            }
        }
        // the child died without a result line (e.g. an error thrown outside the loop)
        String tail = out.length() > 400 ? out.substring(out.length() - 400) : out;
        return new Run(false, Double.NaN, Double.NaN, "exit=" + p.exitValue() + " output=" + tail.replace('\n', ' '));
    }
}

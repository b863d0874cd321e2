package dev.panamax.bench.compute;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.bench.opencl.DispatchAlternation;
import dev.panamax.bench.opencl.PairedInterval;
import dev.panamax.compute.References;
import dev.panamax.compute.Validation;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./panamax bench compute}: every figure of the compute API in one run, each side by side
 * with its peer in alternating rounds on the same PoCL device: dispatch cost in a 1,000-dispatch
 * command buffer (against the generated batched path and LWJGL's hand loop), the round trip
 * (against LWJGL) and the inference simulation serial and pipelined (against LWJGL), paired round
 * by round over several fresh JVMs with 95% intervals; SAXPY over 16M floats (against a C STREAM
 * triad on as many threads), the four command-buffer kinds and one whose every dispatch changes an
 * argument; the raw enqueues of 5 to 1,000 commands with and without the user-event gate the
 * backend puts in front of a long command buffer; and the churn of 64 GiB of unclosed 64 MiB device
 * buffers in child JVMs (with and without {@code -XX:+DisableExplicitGC}).
 */
public final class ComputeFigures implements Measurement {
    static final int SAXPY_N = 16 << 20;
    static final long CHURN_TOTAL = 64L << 30;
    static final long CHURN_SIZE = 64L << 20;

    @Override
    public String suite() {
        return "compute";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        List<Result> out = new ArrayList<>();
        int scale = quick ? 1 : 3;
        out.addAll(dispatch(quick));
        try (ComputeSide compute = new ComputeSide()) {
            progress("warm-up: every command-buffer kind until the JIT has compiled it");
            for (int i = 0; i < 300; i++) {
                for (References r : References.values()) for (Validation v : Validation.values()) compute.batched1000(r, v);
                compute.batched1000Distinct();
            }
            progress("command-buffer kinds: 1,000 tiny kernels each, repeated and with an argument changed per dispatch");
            Rounds kinds = new Rounds("us");
            for (References r : References.values()) {
                for (Validation v : Validation.values()) {
                    String name = "compute.variant." + r.name().toLowerCase(Locale.ROOT) + "." + v.name().toLowerCase(Locale.ROOT) + ".perKernel.us";
                    kinds.side(name, "compute.variant.retained.checked.perKernel.us", () -> compute.batched1000(r, v));
                }
            }
            // the kinds above repeat one dispatch; here every dispatch changes an argument
            kinds.side("compute.variant.retained.checked.distinct.perKernel.us", "compute.variant.retained.checked.perKernel.us",
                    compute::batched1000Distinct);
            out.addAll(shown(kinds.run(10, 30 * scale)));

            progress("gated submission: the same raw enqueues with and without a user-event gate, " + GatedEnqueues.COUNTS[0] + " to "
                    + GatedEnqueues.COUNTS[GatedEnqueues.COUNTS.length - 1] + " commands");
            out.addAll(shown(gated(40 * scale)));

            int threads = compute.device().info().computeUnits();
            progress("SAXPY over 16M floats against a C STREAM triad on " + threads + " threads");
            try (StreamTriad triad = new StreamTriad(SAXPY_N, threads)) {
                List<Result> bandwidth = shown(new Rounds("GB/s")
                        .side("compute.saxpy16m.GBps", "stream.triad.GBps", () -> compute.saxpy(SAXPY_N))
                        .side("stream.triad.GBps", "", () -> {
                            try {
                                return triad.run();
                            } catch (Throwable t) {
                                throw new IllegalStateException(t);
                            }
                        })
                        .run(3, 15 * scale));
                out.addAll(bandwidth);
                out.add(ratio("compute.saxpy16m.vs.streamTriad", bandwidth, 0, 1));
            }
        }
        out.addAll(churn());
        return out;
    }

    /**
     * {@code opencl.gated.<n>.vs.ungated}: for each command count, the time of {@code n} raw enqueues
     * behind a user-event gate over the same enqueues without one, paired round by round (alternating).
     */
    private static List<Result> gated(int rounds) throws Exception {
        List<Result> out = new ArrayList<>();
        try (GatedEnqueues raw = new GatedEnqueues()) {
            for (int n : GatedEnqueues.COUNTS) {
                Map<String, double[]> v = new Rounds("us")
                        .side("gated", "", () -> raw.run(n, true))
                        .side("ungated", "", () -> raw.run(n, false))
                        .values(20, rounds);
                double[] gated = v.get("gated"), ungated = v.get("ungated"), ratios = new double[rounds];
                for (int r = 0; r < rounds; r++) ratios[r] = gated[r] / ungated[r];
                out.add(Result.of("opencl.gated." + n + ".vs.ungated", "x", ratios, ""));
            }
        }
        return out;
    }

    /**
     * The dispatch and inference figures, from {@link ComputeDispatchMain} in fresh JVMs: the sides' per-round figures
     * pooled over every JVM, and each ratio paired round by round with its 95% interval
     * ({@link PairedInterval}: a bootstrap over JVMs and rounds, since a JVM's JIT and code layout move
     * all its rounds together).
     */
    private List<Result> dispatch(boolean quick) throws Exception {
        int jvms = quick ? 6 : 12;
        int rounds = quick ? 60 : 120;
        int inferRounds = quick ? 10 : 20;
        Map<String, Map<String, List<double[]>>> byFigure = new LinkedHashMap<>();
        for (int jvm = 0; jvm < jvms; jvm++) {
            progress("dispatch: JVM " + (jvm + 1) + " of " + jvms + ": warm-up (" + ComputeDispatchMain.ROUNDTRIP_WARMUP
                    + " round trips a side), then " + rounds + " rounds of 1,000 dispatches in one command buffer and of "
                    + ComputeDispatchMain.ROUNDTRIPS_PER_BLOCK + " round trips, " + inferRounds + " rounds of the inference simulation");
            for (var f : dispatchChild(rounds, jvm, inferRounds).entrySet()) {
                for (var side : f.getValue().entrySet()) {
                    byFigure.computeIfAbsent(f.getKey(), k -> new LinkedHashMap<>()).computeIfAbsent(side.getKey(), k -> new ArrayList<>())
                            .add(side.getValue());
                }
            }
        }
        List<Result> out = new ArrayList<>();
        Map<String, List<double[]>> batched = byFigure.get(ComputeDispatchMain.BATCHED);
        Map<String, List<double[]>> roundtrip = byFigure.get(ComputeDispatchMain.ROUNDTRIP);
        for (String side : ComputeDispatchMain.SIDES) {
            out.add(pooled(side + ".dispatch.batched1000.perKernel.us", "us", batched.get(side),
                    side.equals("compute") ? "generated.dispatch.batched1000.perKernel.us" : ""));
        }
        for (String side : List.of("compute", "lwjgl")) {
            out.add(pooled(side + ".dispatch.roundtrip.us", "us", roundtrip.get(side), side.equals("compute") ? "lwjgl.dispatch.roundtrip.us" : ""));
        }
        shown(out);
        out.addAll(paired("compute.dispatch.batched1000.vs.generated", batched.get("compute"), batched.get("generated"), 1.05));
        out.addAll(paired("compute.dispatch.batched1000.vs.lwjgl", batched.get("compute"), batched.get("lwjgl"), 1.0));
        out.addAll(paired("compute.dispatch.roundtrip.vs.lwjgl", roundtrip.get("compute"), roundtrip.get("lwjgl"), 1.05));
        Map<String, List<double[]>> infer = byFigure.get(ComputeDispatchMain.INFER);
        List<Result> inference = List.of(
                pooled("compute.infer.serial.ms", "ms", infer.get("serial"), "lwjgl.infer.ms"),
                pooled("compute.infer.pipelined.ms", "ms", infer.get("pipelined"), "lwjgl.infer.ms"),
                pooled("lwjgl.infer.ms", "ms", infer.get("lwjgl"), ""));
        out.addAll(shown(inference));
        out.addAll(paired("compute.infer.pipelined.vs.lwjgl", infer.get("pipelined"), infer.get("lwjgl"), 1.0));
        out.addAll(paired("compute.infer.pipelining.gain", infer.get("serial"), infer.get("pipelined"), Double.NaN));
        return out;
    }

    private static Result pooled(String name, String unit, List<double[]> perJvm, String baseline) {
        return Result.of(name, unit, perJvm.stream().flatMapToDouble(Arrays::stream).toArray(), baseline);
    }

    /**
     * The paired ratio (min and max: of the per-JVM medians) and {@code .ci95} (min and max: its 95%
     * interval), told against {@code target} (at most; NaN: a figure to report, no target).
     */
    private static List<Result> paired(String name, List<double[]> a, List<double[]> b, double target) {
        Result r = DispatchAlternation.paired(name, a, b);
        PairedInterval ci = PairedInterval.of(DispatchAlternation.ratios(a, b), 0.95, PairedInterval.RESAMPLES, name.hashCode());
        String verdict = Double.isNaN(target) ? ""
                : String.format(Locale.ROOT, ": target <= %.2fx ", target)
                        + (ci.high() <= target ? "met" : ci.low() > target ? "not met" : "a tie (the interval holds the target)");
        System.err.printf(Locale.ROOT, "  %-52s %10.3f x paired (JVMs %.3f-%.3f, 95%% interval %.3f-%.3f)%s%n",
                name, r.median(), r.min(), r.max(), ci.low(), ci.high(), verdict);
        return List.of(r, new Result(name + ".ci95", "x", r.median(), ci.low(), ci.high(), ""));
    }

    /** Runs {@link ComputeDispatchMain} in a fresh JVM: figure -> side -> per-round value. */
    private static Map<String, Map<String, double[]>> dispatchChild(int rounds, int jvm, int inferRounds) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Dpanamax.leakDetection=DISABLED",
                "-cp", System.getProperty("java.class.path"), ComputeDispatchMain.class.getName(), Integer.toString(rounds), Integer.toString(jvm),
                Integer.toString(inferRounds));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) p.destroyForcibly();
        if (p.exitValue() != 0) throw new IllegalStateException("dispatch JVM " + (jvm + 1) + " failed: exit=" + p.exitValue() + "; output:\n" + output);
        return parseRounds(output, Map.of(ComputeDispatchMain.BATCHED, rounds, ComputeDispatchMain.ROUNDTRIP, rounds,
                ComputeDispatchMain.INFER, inferRounds), "dispatch JVM " + (jvm + 1));
    }

    /**
     * The {@code round <figure> <side> <round> <value>} lines of {@link ComputeDispatchMain}'s output:
     * figure -> side -> per-round value. Every figure of {@code rounds} (figure -> its rounds) must be
     * there with every round of every side.
     */
    static Map<String, Map<String, double[]>> parseRounds(String output, Map<String, Integer> roundsByFigure, String source) {
        Map<String, Map<String, double[]>> out = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : output.split("\n")) {
            lineNumber++;
            if (!line.startsWith("round ")) continue;
            String[] f = line.trim().split(" ");
            int round;
            double value;
            try {
                if (f.length != 5) throw new NumberFormatException("5 fields expected, got " + f.length);
                round = Integer.parseInt(f[3]);
                value = Double.parseDouble(f[4]);
            } catch (NumberFormatException e) {
                throw new IllegalStateException(source + ", output line " + lineNumber + ": expected 'round <figure> <side> <round> <value>', got '"
                        + line + "' (" + e.getMessage() + ")");
            }
            Integer figureRounds = roundsByFigure.get(f[1]);
            if (figureRounds == null)
                throw new IllegalStateException(source + ", output line " + lineNumber + ": unknown figure '" + f[1] + "' (expected one of "
                        + roundsByFigure.keySet() + ")");
            int rounds = figureRounds;
            if (round < 0 || round >= rounds)
                throw new IllegalStateException(source + ", output line " + lineNumber + ": round " + round + " is outside 0.." + (rounds - 1));
            double[] values = out.computeIfAbsent(f[1], k -> new LinkedHashMap<>()).computeIfAbsent(f[2], k -> {
                double[] v = new double[rounds];
                Arrays.fill(v, Double.NaN);
                return v;
            });
            values[round] = value;
        }
        for (var figureRounds : roundsByFigure.entrySet()) {
            String figure = figureRounds.getKey();
            int rounds = figureRounds.getValue();
            Map<String, double[]> sides = out.get(figure);
            if (sides == null) throw new IllegalStateException(source + " printed no " + figure + " rounds; output:\n" + output);
            for (var side : sides.entrySet()) {
                for (int r = 0; r < rounds; r++) {
                    if (Double.isNaN(side.getValue()[r]))
                        throw new IllegalStateException(source + ": " + figure + " " + side.getKey() + " has no round " + r + " of " + rounds);
                }
            }
        }
        return out;
    }

    private List<Result> churn() throws Exception {
        List<Result> out = new ArrayList<>();
        long peak = 0;
        for (boolean noExplicitGc : new boolean[] {false, true}) {
            String name = noExplicitGc ? "compute.churn.noExplicitGc" : "compute.churn";
            progress("churn: 64 GiB of unclosed 64 MiB device buffers, -Xmx256m, 1 GiB budget" + (noExplicitGc ? ", -XX:+DisableExplicitGC" : ""));
            Map<String, String> figures = churnChild(noExplicitGc);
            boolean done = "1".equals(figures.get("completed"));
            out.add(Result.single(name + ".completed", "flag", done ? 1 : 0));
            if (done) {
                out.add(Result.single(name + ".seconds", "s", Double.parseDouble(figures.get("seconds"))));
                out.add(Result.single(name + ".budgetPeak.MiB", "MiB", Double.parseDouble(figures.get("budgetPeakMiB"))));
                peak = Math.max(peak, Long.parseLong(figures.get("peakRssMiB")));
            }
        }
        out.add(Result.single("compute.churn.peakRss.MiB", "MiB", peak));
        return out;
    }

    private static Map<String, String> churnChild(boolean noExplicitGc) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-Dpanamax.compute.memoryLimit=1g", "-Dpanamax.leakDetection=SAMPLED",
                noExplicitGc ? "-XX:+DisableExplicitGC" : "-XX:-DisableExplicitGC",
                "-cp", System.getProperty("java.class.path"), ComputeChurnMain.class.getName(),
                Long.toString(CHURN_TOTAL), Long.toString(CHURN_SIZE)));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String last = "";
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) last = line;
        }
        if (!p.waitFor(15, TimeUnit.MINUTES)) p.destroyForcibly();
        Map<String, String> figures = new java.util.HashMap<>();
        Matcher m = Pattern.compile("(\\w+)=([0-9.]+)").matcher(last);
        while (m.find()) figures.put(m.group(1), m.group(2));
        if (p.exitValue() != 0) figures.put("completed", "0");
        return figures;
    }

    private static Result ratio(String name, List<Result> results, int numerator, int denominator) {
        Result a = results.get(numerator), b = results.get(denominator);
        return new Result(name, "x", a.median() / b.median(), a.min() / b.max(), a.max() / b.min(), "");
    }

    private static List<Result> shown(List<Result> results) {
        for (Result r : results) System.err.printf(Locale.ROOT, "  %-52s %10.3f %s (%.3f-%.3f)%n", r.name(), r.median(), r.unit(), r.min(), r.max());
        return results;
    }

    private static void progress(String what) {
        System.err.println("panamax bench compute: " + what);
    }
}

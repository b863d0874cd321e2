package dev.panamax.bench.opencl;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The dispatch figures (a)-(c) of every binding measured side by side in the same JVMs: several
 * fresh JVMs ({@link AlternatingDispatch}) each run all bindings in alternating blocks (in an order
 * shuffled every round, seeded by the JVM's number) on one shared set of OpenCL objects, and a
 * binding is compared with another block by block, round by round ("paired"), so that neither the machine's load at the moment, nor the draw of a JVM (JIT, code and
 * heap layout, PoCL's threads), nor where the driver placed a binding's own queue and kernel can
 * favour one of them. JMH's figures put each binding in its own forks, minutes apart; on a shared
 * host one binding's median moves by ±25% between forks, more than the bindings differ.
 *
 * <p>All of it runs twice, once on each of PoCL's CPU drivers ({@link PoclDriver}): on the default
 * {@code pthread} driver, where the figures keep the names below, and on the {@code basic} driver, which runs
 * the kernels on the calling thread and so resolves what each binding adds per call; its figures carry
 * {@code basic.} before the figure's segment ({@code panamax.dispatch.basic.roundtrip.paired.vs.fasterPeer}).
 * {@code pocl.<driver>.ran} is 1, or 0 when the driver did not come up here (the reason goes to stderr).
 *
 * <p>Figures, per dispatch figure {@code <f>} (roundtrip, batched1000.perKernel, setArgs3):
 * <ul>
 *   <li>{@code <binding>.dispatch.<f>.alternating.us}: median (min-max) of the blocks' µs per dispatch;</li>
 *   <li>{@code panamax.dispatch.<f>.paired.vs.<other>}: Panamax's block over the other binding's block of
 *   the same round, median over all rounds of all JVMs (min-max: the per-JVM medians);</li>
 *   <li>{@code panamax.dispatch.<f>.paired.vs.fasterPeer}: the same against the faster of LWJGL and JOCL
 *   (by their alternating medians), {@code ...fasterPeer.rounds.atLeastAsFast}: the share of rounds
 *   in which Panamax's block took no longer than that peer's, and {@code ...fasterPeer.jvms.atLeastAsFast}:
 *   the share of JVMs whose paired median is at most 1 (rounds in one JVM share its draw; the JVM is the
 *   independent unit), and {@code ...fasterPeer.ci95}: the paired median with, as min-max, its 95%
 *   interval from a bootstrap over JVMs and their rounds ({@link PairedInterval}): an interval that
 *   holds 1.0 is a tie at this host's resolution;</li>
 *   <li>{@code panamax.typedArray.dispatch.<f>.paired.vs.lwjgl.stack} and its {@code .ci95}: the typed layer's
 *   {@code long[]} form against LWJGL writing the work size on its {@code MemoryStack} at each call.</li>
 * </ul>
 */
public final class DispatchAlternation implements Measurement {
    // the peers a Panamax figure is held against; lwjgl.stack is a second way through LWJGL, compared with
    // panamax.typedArray only
    private static final List<String> PEERS = List.of("lwjgl", "jocl");

    @Override
    public String suite() {
        return "opencl";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        // a multiple of the bindings' count: each binding is set up first, second, ... equally often
        int jvms = AlternatingDispatch.ALL.size() * (quick ? 1 : 2);
        int rounds = quick ? 30 : 60;
        double blockMillis = quick ? 15 : 20;
        List<Result> out = new ArrayList<>();
        for (PoclDriver driver : PoclDriver.values()) {
            Map<DispatchFigure, Map<String, List<double[]>>> blocks;
            try {
                blocks = blocksOn(driver, jvms, rounds, blockMillis);
            } catch (DriverMissingException e) {
                // the default driver is what the dispatch figures are defined on: without it there is nothing to report
                if (driver == PoclDriver.PTHREAD) throw e;
                System.err.println("panamax bench: no figures on PoCL's " + driver.name + " driver: " + e.getMessage());
                out.add(Result.single("pocl." + driver.name + ".ran", "flag", 0));
                continue;
            }
            out.add(Result.single("pocl." + driver.name + ".ran", "flag", 1));
            for (var e : blocks.entrySet()) out.addAll(figures(e.getKey(), driver, e.getValue()));
        }
        return out;
    }

    /** Every JVM's blocks on {@code driver}: figure -> binding -> per JVM, per round µs per dispatch. */
    private static Map<DispatchFigure, Map<String, List<double[]>>> blocksOn(PoclDriver driver, int jvms, int rounds,
                                                                           double blockMillis)
            throws IOException, InterruptedException {
        Map<DispatchFigure, Map<String, List<double[]>>> blocks = new TreeMap<>();
        for (int jvm = 0; jvm < jvms; jvm++) {
            System.err.printf("panamax bench: alternating dispatch on PoCL's %s driver, JVM %d of %d (%d rounds, %.0f ms blocks, set up %s)%n",
                    driver.name, jvm + 1, jvms, rounds, blockMillis, setUpOrder(jvm));
            for (var e : child(rounds, blockMillis, setUpOrder(jvm), jvm + 1, driver).entrySet()) {
                for (var b : e.getValue().entrySet()) {
                    blocks.computeIfAbsent(e.getKey(), k -> new TreeMap<>())
                            .computeIfAbsent(b.getKey(), k -> new ArrayList<>()).add(b.getValue());
                }
            }
        }
        return blocks;
    }

    /** A PoCL driver that did not come up in a child JVM: PoCL built without it, or another OpenCL platform listed first. */
    static final class DriverMissingException extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        DriverMissingException(String message) {
            super(message);
        }
    }

    /** The results of one figure from its blocks: binding -> per JVM, per round. */
    static List<Result> figures(DispatchFigure figure, PoclDriver driver, Map<String, List<double[]>> byBinding) {
        List<Result> out = new ArrayList<>();
        Map<String, Double> medians = new LinkedHashMap<>();
        for (String binding : AlternatingDispatch.ALL) {
            List<double[]> perJvm = byBinding.get(binding);
            if (perJvm == null) continue;
            double[] all = pooled(perJvm);
            double median = Result.median(all);
            medians.put(binding, median);
            out.add(new Result(alternatingName(figure, driver, binding), "us", median, min(all), max(all),
                    binding.equals("raw") ? "" : alternatingName(figure, driver, "raw")));
        }
        String fasterPeer = PEERS.stream().filter(medians::containsKey)
                .min((a, b) -> Double.compare(medians.get(a), medians.get(b))).orElse(null);
        List<String> panamaxWays = new ArrayList<>(List.of("panamax", "panamax.typed"));
        panamaxWays.addAll(AlternatingDispatch.VARIANTS);
        for (String panamax : panamaxWays) {
            if (!byBinding.containsKey(panamax)) continue;
            String prefix = panamax + ".dispatch." + driver.namePart + figure.segment + ".paired.vs.";
            for (String other : List.of("raw", "lwjgl", "jocl")) {
                if (byBinding.containsKey(other)) out.add(paired(prefix + other, byBinding.get(panamax), byBinding.get(other)));
            }
            if (fasterPeer != null) {
                Result r = paired(prefix + "fasterPeer", byBinding.get(panamax), byBinding.get(fasterPeer));
                out.add(r);
                out.add(Result.single(prefix + "fasterPeer.rounds.atLeastAsFast", "%",
                        100.0 * atLeastAsFast(byBinding.get(panamax), byBinding.get(fasterPeer))));
                out.add(Result.single(prefix + "fasterPeer.jvms.atLeastAsFast", "%",
                        100.0 * jvmsAtLeastAsFast(byBinding.get(panamax), byBinding.get(fasterPeer))));
                PairedInterval ci = PairedInterval.of(ratios(byBinding.get(panamax), byBinding.get(fasterPeer)),
                        0.95, PairedInterval.RESAMPLES, figure.segment.hashCode());
                out.add(new Result(prefix + "fasterPeer.ci95", "x", r.median(), ci.low(), ci.high(), ""));
                System.err.printf("panamax bench: %s%s: faster peer %s; %s paired %.3fx (JVMs %.3f-%.3f, 95%% interval %.3f-%.3f)%n",
                        driver.namePart, figure.segment, fasterPeer, panamax, r.median(), r.min(), r.max(), ci.low(), ci.high());
            }
        }
        // the long[] form against the peer's idiom for a value made at the call
        if (byBinding.containsKey("panamax.typedArray") && byBinding.containsKey("lwjgl.stack")) {
            String name = "panamax.typedArray.dispatch." + driver.namePart + figure.segment + ".paired.vs.lwjgl.stack";
            Result r = paired(name, byBinding.get("panamax.typedArray"), byBinding.get("lwjgl.stack"));
            out.add(r);
            PairedInterval ci = PairedInterval.of(ratios(byBinding.get("panamax.typedArray"), byBinding.get("lwjgl.stack")),
                    0.95, PairedInterval.RESAMPLES, figure.segment.hashCode());
            out.add(new Result(name + ".ci95", "x", r.median(), ci.low(), ci.high(), ""));
            System.err.printf("panamax bench: %s%s: panamax.typedArray paired %.3fx lwjgl.stack (JVMs %.3f-%.3f, 95%% interval %.3f-%.3f)%n",
                    driver.namePart, figure.segment, r.median(), r.min(), r.max(), ci.low(), ci.high());
        }
        return out;
    }

    static String alternatingName(DispatchFigure figure, PoclDriver driver, String binding) {
        return binding + ".dispatch." + driver.namePart + figure.segment + ".alternating.us";
    }

    /** a / b per round, per JVM. */
    public static List<double[]> ratios(List<double[]> a, List<double[]> b) {
        List<double[]> out = new ArrayList<>(a.size());
        for (int jvm = 0; jvm < a.size(); jvm++) {
            double[] ratio = new double[a.get(jvm).length];
            for (int r = 0; r < ratio.length; r++) ratio[r] = a.get(jvm)[r] / b.get(jvm)[r];
            out.add(ratio);
        }
        return out;
    }

    /** a / b per round; median over all rounds, min and max of the per-JVM medians. */
    public static Result paired(String name, List<double[]> a, List<double[]> b) {
        List<double[]> ratios = ratios(a, b);
        double[] perJvm = ratios.stream().mapToDouble(Result::median).toArray();
        return new Result(name, "x", Result.median(pooled(ratios)), min(perJvm), max(perJvm), "");
    }

    /** The share of JVMs in which the median over rounds of a's block divided by b's is at most 1. */
    static double jvmsAtLeastAsFast(List<double[]> a, List<double[]> b) {
        List<double[]> ratios = ratios(a, b);
        return ratios.isEmpty() ? Double.NaN
                : (double) ratios.stream().filter(r -> Result.median(r) <= 1).count() / ratios.size();
    }

    /** The share of rounds, over all JVMs, in which a's block was no longer than b's. */
    static double atLeastAsFast(List<double[]> a, List<double[]> b) {
        double[] all = pooled(ratios(a, b));
        return all.length == 0 ? Double.NaN : (double) Arrays.stream(all).filter(r -> r <= 1).count() / all.length;
    }

    /**
     * The bindings rotated by {@code jvm} places. Where a binding's context and queue were made among the others
     * moves its figures by up to ±10% on PoCL (measured: raw FFM's (c) went from 0.93x to 1.09x of Panamax's when it
     * was made before instead of after it), so every binding takes every place in turn.
     */
    static List<String> setUpOrder(int jvm) {
        List<String> order = new ArrayList<>(AlternatingDispatch.ALL);
        Collections.rotate(order, -(jvm % order.size()));
        return order;
    }

    /**
     * Runs {@link AlternatingDispatch} in a fresh JVM on PoCL's {@code driver}: figure -> binding -> per round µs per
     * dispatch.
     */
    private static Map<DispatchFigure, Map<String, double[]>> child(int rounds, double blockMillis, List<String> bindings,
                                                                    long seed, PoclDriver driver)
            throws IOException, InterruptedException {
        return child(rounds, blockMillis, bindings, List.of(), List.of(), seed, driver);
    }

    /** {@link #child} with extra JVM options and, when not empty, only {@code figures}. */
    static Map<DispatchFigure, Map<String, double[]>> child(int rounds, double blockMillis, List<String> bindings,
                                                            List<String> jvmOptions, List<DispatchFigure> figures, long seed,
                                                            PoclDriver driver)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(jvmOptions);
        cmd.add("--enable-native-access=ALL-UNNAMED");
        // LWJGL 3.3 reads memory through sun.misc.Unsafe, which JDK 25 warns about unless allowed
        cmd.add("--sun-misc-unsafe-memory-access=allow");
        cmd.add("-Dpanamax.leakDetection=DISABLED");
        cmd.add("-D" + AlternatingDispatch.SEED_PROPERTY + "=" + seed);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(AlternatingDispatch.class.getName());
        cmd.add(Integer.toString(rounds));
        cmd.add(Double.toString(blockMillis));
        cmd.add(String.join(",", bindings));
        if (!figures.isEmpty()) cmd.add(String.join(",", figures.stream().map(f -> f.segment).toList()));
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true);
        builder.environment().put("POCL_DEVICES", driver.name);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("alternating dispatch JVM timed out after 600 s: " + tail(out));
        }
        String device = device(out);
        if (device == null || !driver.drives(device)) {
            throw new DriverMissingException("POCL_DEVICES=" + driver.name + " expected a device named " + driver.name
                    + "-..., got " + (device == null ? "no device (exit=" + p.exitValue() + ")" : "device=" + device)
                    + "; output: " + tail(out));
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("alternating dispatch JVM failed: exit=" + p.exitValue() + " output: " + tail(out));
        }
        return parse(out, rounds);
    }

    /** The name on the {@code device <CL_DEVICE_NAME>} line of one child's output, or null when it has none. */
    static String device(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("device ")) return line.substring("device ".length()).trim();
        }
        return null;
    }

    /** Parses the {@code block <figure> <binding> <round> <µs>} lines of one child. */
    static Map<DispatchFigure, Map<String, double[]>> parse(String output, int rounds) {
        Map<DispatchFigure, Map<String, double[]>> out = new TreeMap<>();
        int lineNumber = 0;
        for (String line : output.split("\n")) {
            lineNumber++;
            if (!line.startsWith("block ")) continue;
            String[] f = line.trim().split(" ");
            if (f.length != 5) {
                throw new IllegalArgumentException("alternating dispatch output line " + lineNumber + ": expected "
                        + "'block <figure> <binding> <round> <us>', got: " + line);
            }
            double[] perRound = out.computeIfAbsent(DispatchFigure.bySegment(f[1]), k -> new TreeMap<>())
                    .computeIfAbsent(f[2], k -> {
                        double[] v = new double[rounds];
                        Arrays.fill(v, Double.NaN);
                        return v;
                    });
            perRound[Integer.parseInt(f[3])] = Double.parseDouble(f[4]);
        }
        for (var e : out.entrySet()) {
            for (var b : e.getValue().entrySet()) {
                for (double v : b.getValue()) {
                    if (Double.isNaN(v)) {
                        throw new IllegalStateException("alternating dispatch: " + e.getKey().segment + " of " + b.getKey()
                                + " is missing rounds (expected " + rounds + ")");
                    }
                }
            }
        }
        return out;
    }

    private static String tail(String s) {
        String t = s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        return t.replace('\n', ' ');
    }

    private static double[] pooled(List<double[]> perJvm) {
        return perJvm.stream().flatMapToDouble(Arrays::stream).toArray();
    }


    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}

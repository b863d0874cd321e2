package dev.panamax.bench.compute;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.bench.opencl.LwjglDispatch;
import dev.panamax.bench.opencl.PanamaxDispatch;
import dev.panamax.compute.References;
import dev.panamax.compute.Validation;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./panamax bench compute}: every figure of the compute API in one run, each side by side
 * with its peer in alternating rounds on the same PoCL device: dispatch cost in a 1,000-dispatch
 * command buffer (against the generated batched path and LWJGL's hand loop), the round trip, the
 * inference simulation serial and pipelined (against LWJGL), SAXPY over 16M floats (against a C
 * STREAM triad on as many threads), the four command-buffer kinds, and the churn of 64 GiB of
 * unclosed 64 MiB device buffers in child JVMs (with and without {@code -XX:+DisableExplicitGC}).
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
        LwjglDispatch.loadIcd(); // held across every LWJGL side of the run
        try (ComputeSide compute = new ComputeSide()) {
            PanamaxDispatch generated = new PanamaxDispatch();
            generated.setup();
            LwjglDispatch lwjgl = new LwjglDispatch();
            lwjgl.setup();
            try {
                progress("warm-up: every compute path until the JIT has compiled it");
                for (int i = 0; i < 300; i++) {
                    for (References r : References.values()) for (Validation v : Validation.values()) compute.batched1000(r, v);
                }
                for (int i = 0; i < 3000; i++) compute.roundtrip();
                for (int i = 0; i < 3; i++) {
                    compute.infer(false);
                    compute.infer(true);
                }
                progress("dispatch: 1,000 tiny kernels per command buffer");
                List<Result> batched = shown(new Rounds("us")
                        .side("compute.dispatch.batched1000.perKernel.us", "generated.dispatch.batched1000.perKernel.us",
                                () -> compute.batched1000(References.RETAINED, Validation.CHECKED))
                        .side("generated.dispatch.batched1000.perKernel.us", "", () -> timed(generated::batched1000, 1000))
                        .side("lwjgl.dispatch.batched1000.perKernel.us", "", () -> timed(lwjgl::batched1000, 1000))
                        .run(20, 30 * scale));
                out.addAll(batched);
                out.add(ratio("compute.dispatch.batched1000.vs.generated", batched, 0, 1));
                out.add(ratio("compute.dispatch.batched1000.vs.lwjgl", batched, 0, 2));

                progress("dispatch: one kernel, commit and wait");
                List<Result> roundtrip = shown(new Rounds("us")
                        .side("compute.dispatch.roundtrip.us", "lwjgl.dispatch.roundtrip.us", () -> repeat(compute::roundtrip, 100))
                        .side("lwjgl.dispatch.roundtrip.us", "", () -> repeat(() -> timed(lwjgl::roundtrip, 1), 100))
                        .run(5, 20 * scale));
                out.addAll(roundtrip);
                out.add(ratio("compute.dispatch.roundtrip.vs.lwjgl", roundtrip, 0, 1));

                progress("command-buffer kinds: 1,000 tiny kernels each");
                Rounds kinds = new Rounds("us");
                for (References r : References.values()) {
                    for (Validation v : Validation.values()) {
                        String name = "compute.variant." + r.name().toLowerCase(Locale.ROOT) + "." + v.name().toLowerCase(Locale.ROOT) + ".perKernel.us";
                        kinds.side(name, "compute.variant.retained.checked.perKernel.us", () -> compute.batched1000(r, v));
                    }
                }
                out.addAll(shown(kinds.run(10, 30 * scale)));
            } finally {
                lwjgl.tearDown();
                generated.tearDown();
            }

            progress("inference: 100 tokens of 300 dispatches");
            try (LwjglInference lwjglInfer = new LwjglInference()) {
                List<Result> infer = shown(new Rounds("ms")
                        .side("compute.infer.serial.ms", "lwjgl.infer.ms", () -> compute.infer(false))
                        .side("compute.infer.pipelined.ms", "lwjgl.infer.ms", () -> compute.infer(true))
                        .side("lwjgl.infer.ms", "", lwjglInfer::infer)
                        .run(2, 7 * scale));
                out.addAll(infer);
                out.add(ratio("compute.infer.pipelining.gain", infer, 0, 1));
                out.add(ratio("compute.infer.pipelined.vs.lwjgl", infer, 1, 2));
            }

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
        } finally {
            LwjglDispatch.releaseIcd();
        }
        out.addAll(churn());
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

    private interface Call {
        void run() throws Exception;
    }

    private static double timed(Call call, int operations) throws Exception {
        long t = System.nanoTime();
        call.run();
        return Rounds.micros(t, operations);
    }

    private static double repeat(Rounds.Block block, int times) throws Exception {
        double[] v = new double[times];
        for (int i = 0; i < times; i++) v[i] = block.run();
        return Result.median(v);
    }

    private static List<Result> shown(List<Result> results) {
        for (Result r : results) System.err.printf(Locale.ROOT, "  %-52s %10.3f %s (%.3f-%.3f)%n", r.name(), r.median(), r.unit(), r.min(), r.max());
        return results;
    }

    private static void progress(String what) {
        System.err.println("panamax bench compute: " + what);
    }
}

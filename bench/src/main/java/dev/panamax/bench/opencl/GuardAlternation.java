package dev.panamax.bench.opencl;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What race-safe handles cost per typed round trip on PoCL's {@code basic} driver (kernels run on the
 * calling thread, so a binding's own nanoseconds show): fresh JVMs of {@link AlternatingDispatch} run
 * the round trip (a) through the typed layer with its in-call guard ({@code panamax}) and through
 * LWJGL, in alternating blocks on one queue, paired round by round; then the same in JVMs started with
 * {@code -Dpanamax.checks=false}.
 *
 * <p>Figures ({@code <checks>} is {@code checksOn} or {@code checksOff}):
 * {@code panamax.handles.basic.<checks>.roundtrip.paired.vs.lwjgl}, with
 * {@code .ci95} (the paired median and its 95% interval from a bootstrap over JVMs and rounds,
 * {@link PairedInterval}), and {@code <way>.handles.basic.<checks>.roundtrip.alternating.us}.
 */
public final class GuardAlternation implements Measurement {
    private static final List<String> WAYS = List.of("panamax", "lwjgl");

    @Override
    public String suite() {
        return "opencl";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int jvms = quick ? 6 : 12;
        int rounds = quick ? 30 : 60;
        double blockMillis = 15;
        List<Result> out = new ArrayList<>();
        for (boolean checks : new boolean[] {true, false}) {
            String part = checks ? "checksOn" : "checksOff";
            Map<String, List<double[]>> byWay = new TreeMap<>();
            for (int jvm = 0; jvm < jvms; jvm++) {
                List<String> order = new ArrayList<>(WAYS);
                java.util.Collections.rotate(order, -(jvm % order.size()));
                System.err.printf("panamax bench: race-safe handles on PoCL's basic driver, %s, JVM %d of %d (%d rounds, %.0f ms blocks)%n",
                        part, jvm + 1, jvms, rounds, blockMillis);
                List<String> options = checks ? List.of() : List.of("-Dpanamax.checks=false");
                var blocks = DispatchAlternation.child(rounds, blockMillis, order, options, List.of(DispatchFigure.ROUNDTRIP),
                        jvm + 1, PoclDriver.BASIC);
                for (var b : blocks.get(DispatchFigure.ROUNDTRIP).entrySet()) {
                    byWay.computeIfAbsent(b.getKey(), k -> new ArrayList<>()).add(b.getValue());
                }
            }
            for (String way : WAYS) {
                double[] all = byWay.get(way).stream().flatMapToDouble(java.util.Arrays::stream).toArray();
                out.add(Result.of(way + ".handles.basic." + part + ".roundtrip.alternating.us", "us", all, ""));
            }
            for (String other : List.of("lwjgl")) {
                String name = "panamax.handles.basic." + part + ".roundtrip.paired.vs." + other.replace("panamax.", "");
                Result r = DispatchAlternation.paired(name, byWay.get("panamax"), byWay.get(other));
                out.add(r);
                PairedInterval ci = PairedInterval.of(DispatchAlternation.ratios(byWay.get("panamax"), byWay.get(other)),
                        0.95, PairedInterval.RESAMPLES, name.hashCode());
                out.add(new Result(name + ".ci95", "x", r.median(), ci.low(), ci.high(), ""));
                System.err.printf("panamax bench: race-safe handles, basic driver, %s: panamax paired %.4fx %s (95%% interval %.4f-%.4f)%n",
                        part, r.median(), other, ci.low(), ci.high());
            }
        }
        return out;
    }
}

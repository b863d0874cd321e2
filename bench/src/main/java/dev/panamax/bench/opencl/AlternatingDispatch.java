package dev.panamax.bench.opencl;

import dev.panamax.bench.BenchSettings;
import dev.panamax.opencl.OpenCl;
import dev.panamax.opencl.binding.CL;
import dev.panamax.opencl.binding.ClDeviceId;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * One JVM of {@link DispatchAlternation}: sets up the JMH states of every binding side by side, all
 * driving the same OpenCL context, queue, kernel and buffer ({@link ClObjects}), and runs the three
 * dispatch figures in alternating blocks, so that each binding's block has a neighbour of every other
 * binding measured moments apart, on the same machine state, JIT and PoCL worker threads. The order
 * of the bindings is shuffled every round (seeded, so a JVM can be repeated): a block pays for what
 * the block before it left behind (measured: whichever binding ran right after JOCL's
 * {@code clSetKernelArg} loop read 6-7% slower on (c), with no collection in between), and a
 * rotation would give every binding the same predecessor in every round.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
 *     -cp bench/target/panamax-bench.jar dev.panamax.bench.opencl.AlternatingDispatch ROUNDS BLOCK_MS [BINDINGS [FIGURES]]</pre>
 *
 * {@code -Dpanamax.alternation.seed=N} seeds the order of the blocks. Prints the device's name
 * ({@code device <CL_DEVICE_NAME>}), then one line per block: {@code block <figure segment> <binding> <round> <µs per dispatch>}.
 * {@code BINDINGS} is a comma-separated subset of {@code panamax,panamax.typed,raw,lwjgl,jocl}, of
 * the {@link #VARIANTS} and the {@link #PEER_VARIANTS} (default: all), or a {@link #DELAY_PROBE}; {@code FIGURES} of {@code roundtrip,batched1000.perKernel,setArgs3} (default: all).
 */
public final class AlternatingDispatch {
    /** System property with the seed of the per-round shuffle (default 1). */
    static final String SEED_PROPERTY = "panamax.alternation.seed";
    /** The bindings, in the order they are set up; {@code panamax.typed} is the typed-layer loop of (b) and (c). */
    static final List<String> BINDINGS = List.of("panamax", "panamax.typed", "raw", "lwjgl", "jocl");
    /**
     * More ways through Panamax: the generated raw layer ({@code CL}, addresses and statuses as C has them,
     * checked by hand as the LWJGL and JOCL states do) on all three figures; for (a) the typed layer given the
     * work size as a {@code long[]} (staged into scratch memory on every call) and the enqueue and clFinish recorded once into a
     * two-entry batch (one crossing per round trip); for (b) a batch of 100 enqueues replayed ten times.
     */
    static final List<String> VARIANTS = List.of("panamax.rawLayer", "panamax.typedArray", "panamax.batched", "panamax.chunked");
    /**
     * Another way through a peer: {@code lwjgl.stack} is LWJGL on (a) with the work size written on its
     * thread-local {@code MemoryStack} on every call, the counterpart of {@code panamax.typedArray}.
     */
    static final List<String> PEER_VARIANTS = List.of("lwjgl.stack");
    /**
     * A probe, not a way a user would call: {@code panamax.rawLayer.delay<NANOS>} is the generated raw layer on
     * (a) and (b) spinning {@code NANOS} ns before each enqueue, to measure what a little more caller work
     * between calls costs on PoCL.
     */
    static final String DELAY_PROBE = "panamax.rawLayer.delay";
    /** Every binding and variant, in the order they are set up by default. */
    static final List<String> ALL = java.util.stream.Stream.of(BINDINGS, VARIANTS, PEER_VARIANTS).flatMap(List::stream).toList();

    private AlternatingDispatch() {}

    /** One benchmark method of one binding's JMH state. */
    @FunctionalInterface
    interface Call {
        void run() throws Throwable;
    }

    /** A binding's set-up state: its calls per figure and how to release what it made. */
    private record Binding(String name, Map<DispatchFigure, Call> calls, Call tearDown) {}

    public static void main(String[] args) throws Throwable {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: AlternatingDispatch ROUNDS BLOCK_MS [BINDINGS [FIGURES]]; got "
                    + String.join(" ", args));
        }
        int rounds = Integer.parseInt(args[0]);
        double blockMillis = Double.parseDouble(args[1]);
        List<String> chosen = args.length > 2 ? List.of(args[2].split(",")) : ALL;
        Set<DispatchFigure> figures = EnumSet.allOf(DispatchFigure.class);
        if (args.length > 3) {
            figures.clear();
            for (String segment : args[3].split(",")) figures.add(DispatchFigure.bySegment(segment));
        }
        // one context, queue, kernel and buffer, made through raw FFM and driven by every binding
        RawDispatch owner = new RawDispatch();
        owner.setup();
        // the device the objects live on, so that the caller can tell which PoCL driver ran
        System.out.println("device " + deviceName());
        List<Binding> bindings = new ArrayList<>();
        bindings.add(new Binding("owner", Map.of(), owner::tearDown));
        try {
            for (String name : chosen) {
                Binding b = setUp(name, owner.objects());
                b.calls().keySet().retainAll(figures);
                bindings.add(b);
            }
            run(bindings.subList(1, bindings.size()), rounds, blockMillis);
        } finally {
            // reverse order of set-up: LWJGL's CL.destroy() then comes after nobody needs the ICD any more
            Throwable first = null;
            for (Binding b : bindings.reversed()) {
                try {
                    b.tearDown().run();
                } catch (Throwable t) {
                    if (first == null) first = t;
                }
            }
            if (first != null) throw first;
        }
    }

    private static void run(List<Binding> bindings, int rounds, double blockMillis) throws Throwable {
        long seed = BenchSettings.ALTERNATION_SEED.get();
        // calls per block, per figure: sized on the first binding so every binding runs the same count
        Map<DispatchFigure, Integer> callsPerBlock = new EnumMap<>(DispatchFigure.class);
        for (DispatchFigure figure : DispatchFigure.values()) {
            Binding probe = bindings.stream().filter(b -> b.calls().containsKey(figure)).findFirst().orElse(null);
            if (probe == null) continue;
            Call call = probe.calls().get(figure);
            for (int i = 0; i < 3; i++) call.run();
            long start = System.nanoTime();
            int n = 0;
            while (System.nanoTime() - start < 50_000_000L) {
                call.run();
                n++;
            }
            double millisPerCall = (System.nanoTime() - start) / 1e6 / n;
            callsPerBlock.put(figure, Math.max(1, (int) Math.round(blockMillis / millisPerCall)));
        }
        // warm-up: every binding's every figure, so the JIT has compiled all of them before round 0
        for (int w = 0; w < 3; w++) {
            for (Binding b : bindings) {
                for (var e : b.calls().entrySet()) block(e.getValue(), callsPerBlock.get(e.getKey()));
            }
        }
        Random order = new Random(seed);
        for (int r = 0; r < rounds; r++) {
            for (DispatchFigure figure : DispatchFigure.values()) {
                List<Binding> taking = new ArrayList<>(bindings.stream().filter(b -> b.calls().containsKey(figure)).toList());
                Collections.shuffle(taking, order);
                for (Binding b : taking) {
                    int calls = callsPerBlock.get(figure);
                    double micros = block(b.calls().get(figure), calls) / ((double) calls * figure.dispatchesPerCall);
                    System.out.printf(Locale.ROOT, "block %s %s %d %.4f%n", figure.segment, b.name(), r, micros);
                }
            }
        }
        System.out.flush();
    }

    /** CL_DEVICE_NAME of the first device of the first platform: the one {@link RawDispatch#setup} makes its objects on. */
    private static String deviceName() {
        ClDeviceId device = OpenCl.devices(OpenCl.platforms().getFirst(), TinyKernel.CL_DEVICE_TYPE_ALL).getFirst();
        return OpenCl.deviceInfo(device, CL.CL_DEVICE_NAME);
    }

    /** Runs {@code call} {@code calls} times; the elapsed µs. */
    private static double block(Call call, int calls) throws Throwable {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) call.run();
        return (System.nanoTime() - start) / 1e3;
    }

    private static Binding setUp(String name, ClObjects objects) throws Throwable {
        return switch (name) {
            case "panamax" -> panamax(name, objects, p -> Map.of(
                    DispatchFigure.ROUNDTRIP, p::roundtrip, DispatchFigure.BATCHED1000, p::batched1000,
                    DispatchFigure.SET_ARGS3, p::setArgs3));
            case "panamax.typed" -> panamax(name, objects, p -> Map.of(
                    DispatchFigure.BATCHED1000, p::batched1000Typed, DispatchFigure.SET_ARGS3, p::setArgs3Typed));
            case "panamax.rawLayer" -> panamax(name, objects, p -> Map.of(
                    DispatchFigure.ROUNDTRIP, p::roundtripRawLayer, DispatchFigure.BATCHED1000, p::batched1000RawLayer,
                    DispatchFigure.SET_ARGS3, p::setArgs3RawLayer));
            case "panamax.typedArray" -> panamax(name, objects, p -> Map.of(DispatchFigure.ROUNDTRIP, p::roundtripTypedArray));
            case "lwjgl.stack" -> {
                LwjglDispatch l = new LwjglDispatch();
                l.adopt(objects);
                yield new Binding(name, new EnumMap<>(Map.of(DispatchFigure.ROUNDTRIP, (Call) l::roundtripStack)), l::tearDown);
            }
            case "panamax.chunked" -> panamax(name, objects, p -> Map.of(DispatchFigure.BATCHED1000, p::batched1000Chunked));
            case "panamax.batched" -> panamax(name, objects, p -> Map.of(DispatchFigure.ROUNDTRIP, p::roundtripBatched));
            case "raw" -> {
                RawDispatch r = new RawDispatch();
                r.adopt(objects);
                yield binding(name, r::tearDown, r::roundtrip, r::batched1000, r::setArgs3);
            }
            case "lwjgl" -> {
                LwjglDispatch l = new LwjglDispatch();
                l.adopt(objects);
                yield binding(name, l::tearDown, l::roundtrip, l::batched1000, l::setArgs3);
            }
            case "jocl" -> {
                JoclDispatch j = new JoclDispatch();
                j.adopt(objects);
                yield binding(name, j::tearDown, j::roundtrip, j::batched1000, j::setArgs3);
            }
            default -> {
                if (!name.startsWith(DELAY_PROBE)) {
                    throw new IllegalArgumentException("unknown binding: name=" + name + " expected one of " + BINDINGS
                            + " or " + VARIANTS + " or " + PEER_VARIANTS + " or " + DELAY_PROBE + "NANOS");
                }
                long nanos = delayNanos(name);
                yield panamax(name, objects, p -> Map.of(DispatchFigure.ROUNDTRIP, () -> p.roundtripRawLayerDelayed(nanos),
                        DispatchFigure.BATCHED1000, () -> p.batched1000RawLayerDelayed(nanos)));
            }
        };
    }

    /** The nanoseconds of a {@link #DELAY_PROBE} name. */
    static long delayNanos(String name) {
        String digits = name.substring(DELAY_PROBE.length());
        if (!digits.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException("bad delay probe: name=" + name + " expected " + DELAY_PROBE
                    + "NANOS with NANOS a whole number of 0-999999999 ns, e.g. " + DELAY_PROBE + "100");
        }
        return Long.parseLong(digits);
    }

    /** A way through Panamax: its own {@link PanamaxDispatch} state on the shared objects, and the calls it takes part with. */
    private static Binding panamax(String name, ClObjects objects, Function<PanamaxDispatch, Map<DispatchFigure, Call>> calls) {
        PanamaxDispatch p = new PanamaxDispatch();
        p.adopt(objects);
        return new Binding(name, new EnumMap<>(calls.apply(p)), p::tearDown);
    }

    /** A peer's state taking part in all three figures. */
    private static Binding binding(String name, Call tearDown, Call roundtrip, Call batched1000, Call setArgs3) {
        Map<DispatchFigure, Call> calls = new EnumMap<>(DispatchFigure.class);
        calls.put(DispatchFigure.ROUNDTRIP, roundtrip);
        calls.put(DispatchFigure.BATCHED1000, batched1000);
        calls.put(DispatchFigure.SET_ARGS3, setArgs3);
        return new Binding(name, calls, tearDown);
    }
}

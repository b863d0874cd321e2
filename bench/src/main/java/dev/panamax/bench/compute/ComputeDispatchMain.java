package dev.panamax.bench.compute;

import dev.panamax.bench.opencl.LwjglDispatch;
import dev.panamax.bench.opencl.PanamaxDispatch;
import dev.panamax.compute.References;
import dev.panamax.compute.Validation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One JVM of the compute suite's dispatch figures: the compute API, the generated binding's batched
 * path and LWJGL on PoCL's default device, each warmed up until C2 has compiled its whole path,
 * then timed in alternating rounds: 1,000 dispatches in one command buffer, one dispatch's round
 * trip, and the inference simulation (serial and pipelined against LWJGL). Prints
 * {@code round <figure> <side> <round> <value>} lines for {@link ComputeFigures} to pair round by
 * round.
 *
 * <p>Arguments: rounds of the dispatch figures, this JVM's number, which rotates the order the sides
 * make their contexts in (where a context is made among the others moves PoCL's figures by several
 * percent, so every side takes every place in turn), and rounds of the inference simulation.
 */
public final class ComputeDispatchMain {
    static final String BATCHED = "batched1000";
    static final String ROUNDTRIP = "roundtrip";
    static final String INFER = "infer";
    static final List<String> SIDES = List.of("compute", "generated", "lwjgl");
    /** Command buffers of 1,000 dispatches of each side before any is timed. */
    static final int BATCHED_WARMUP = 300;
    /**
     * Round trips of each side before any is timed. A round trip runs each step of a commit once, so it
     * takes tens of thousands before C2 has compiled the whole path: after 3,000 the commit still ran in
     * C1's profiling code, 3-5 µs more per round trip on PoCL's {@code basic} driver.
     */
    static final int ROUNDTRIP_WARMUP = 50_000;
    /** Round trips per timed block (the block's median is the round's figure). */
    static final int ROUNDTRIPS_PER_BLOCK = 50;

    private ComputeDispatchMain() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int jvm = Integer.parseInt(args[1]);
        int inferRounds = Integer.parseInt(args[2]);
        List<String> order = new ArrayList<>(SIDES);
        Collections.rotate(order, -(jvm % order.size()));
        LwjglDispatch.loadIcd();
        ComputeSide compute = null;
        PanamaxDispatch generated = null;
        LwjglDispatch lwjgl = null;
        try {
            for (String side : order) {
                switch (side) {
                    case "compute" -> compute = new ComputeSide();
                    case "generated" -> {
                        generated = new PanamaxDispatch();
                        generated.setup();
                    }
                    default -> {
                        lwjgl = new LwjglDispatch();
                        lwjgl.setup();
                    }
                }
            }
            System.out.println("device " + compute.device().info().name());
            ComputeSide c = compute;
            PanamaxDispatch g = generated;
            LwjglDispatch l = lwjgl;
            // one warm-up of both shapes, interleaved: a path compiled for one shape alone is deoptimised
            // by the other's first rounds and then timed in slower code (round trips after 1,000-dispatch
            // command buffers took 2.6 µs instead of 1.0 on basic)
            int every = ROUNDTRIP_WARMUP / BATCHED_WARMUP;
            for (int i = 0; i < ROUNDTRIP_WARMUP; i++) {
                c.roundtrip();
                l.roundtrip();
                if (i % every == 0) {
                    c.batched1000(References.RETAINED, Validation.CHECKED);
                    g.batched1000();
                    l.batched1000();
                }
            }
            print(BATCHED, new Rounds("us")
                    .side("compute", "", () -> c.batched1000(References.RETAINED, Validation.CHECKED))
                    .side("generated", "", () -> timed(g::batched1000, 1000))
                    .side("lwjgl", "", () -> timed(l::batched1000, 1000))
                    .values(10, rounds));
            print(ROUNDTRIP, new Rounds("us")
                    .side("compute", "", () -> repeat(c::roundtrip))
                    .side("lwjgl", "", () -> repeat(() -> timed(l::roundtrip, 1)))
                    .values(5, rounds));
            try (LwjglInference li = new LwjglInference()) {
                for (int i = 0; i < 3; i++) {
                    c.infer(false);
                    c.infer(true);
                    li.infer();
                }
                print(INFER, new Rounds("ms")
                        .side("serial", "", () -> c.infer(false))
                        .side("pipelined", "", () -> c.infer(true))
                        .side("lwjgl", "", li::infer)
                        .values(1, inferRounds));
            }
        } finally {
            try {
                if (lwjgl != null) lwjgl.tearDown();
                if (generated != null) generated.tearDown();
                if (compute != null) compute.close();
            } finally {
                LwjglDispatch.releaseIcd();
            }
        }
    }

    private static void print(String figure, Map<String, double[]> values) {
        StringBuilder out = new StringBuilder();
        for (var e : values.entrySet()) {
            double[] v = e.getValue();
            for (int r = 0; r < v.length; r++) out.append(String.format(Locale.ROOT, "round %s %s %d %.6f%n", figure, e.getKey(), r, v[r]));
        }
        System.out.print(out);
        System.out.flush();
    }

    private interface Call {
        void run() throws Exception;
    }

    private static double timed(Call call, int operations) throws Exception {
        long t = System.nanoTime();
        call.run();
        return Rounds.micros(t, operations);
    }

    private static double repeat(Rounds.Block block) throws Exception {
        double[] v = new double[ROUNDTRIPS_PER_BLOCK];
        for (int i = 0; i < v.length; i++) v[i] = block.run();
        return dev.panamax.bench.Result.median(v);
    }
}

package dev.panamax.bench.compute;

import dev.panamax.bench.Result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Side-by-side timing: every side runs one block per round, in an order that rotates each round,
 * after warm-up rounds that are thrown away; a figure is the median over rounds with the min and
 * max as its spread. The machine is shared, so sides that alternate see the same noise.
 */
final class Rounds {
    /** One block of work, returning the figure it measured (µs per kernel, ms per run, GB/s). */
    @FunctionalInterface
    interface Block {
        double run() throws Exception;
    }

    private final Map<String, Block> sides = new LinkedHashMap<>();
    private final Map<String, String> baselines = new LinkedHashMap<>();
    private final String unit;

    Rounds(String unit) {
        this.unit = unit;
    }

    Rounds side(String figure, String baseline, Block block) {
        sides.put(figure, block);
        baselines.put(figure, baseline);
        return this;
    }

    List<Result> run(int warmup, int rounds) throws Exception {
        Map<String, double[]> values = values(warmup, rounds);
        List<Result> out = new ArrayList<>();
        for (var e : values.entrySet()) out.add(Result.of(e.getKey(), unit, e.getValue(), baselines.get(e.getKey())));
        return out;
    }

    /** Every side's figure per measured round, in the order the sides were added. */
    Map<String, double[]> values(int warmup, int rounds) throws Exception {
        List<String> names = new ArrayList<>(sides.keySet());
        Map<String, double[]> values = new LinkedHashMap<>();
        for (String n : names) values.put(n, new double[rounds]);
        for (int r = -warmup; r < rounds; r++) {
            int shift = Math.floorMod(r, names.size());
            for (int k = 0; k < names.size(); k++) {
                String n = names.get((k + shift) % names.size());
                double v = sides.get(n).run();
                if (r >= 0) values.get(n)[r] = v;
            }
        }
        return values;
    }

    static double micros(long startNanos, int operations) {
        return (System.nanoTime() - startNanos) / 1e3 / operations;
    }
}

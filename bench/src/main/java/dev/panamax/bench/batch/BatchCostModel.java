package dev.panamax.bench.batch;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Derived figures of the batch suite, computed from its JMH results (it runs nothing itself): ns per
 * call for every form and N, speedups over STANDARD and CRITICAL downcalls and over the C-loop
 * floor, and the fit cost(N) = a + bN (a: the fixed cost of a crossing, b: the cost of one more
 * call), like the seed's (68 + 2N) / N model.
 */
public final class BatchCostModel implements Measurement {
    static final String[] FORMS = {"batch", "batch.critical", "batch.fresh", "batch.fresh.critical", "batch.fresh.setters",
            "standard", "critical", "cloop"};
    static final int[] NS = {1, 2, 5, 10, 20, 50, 100, 1000};

    @Override
    public String suite() {
        return "batch";
    }

    @Override
    public List<Result> run(boolean quick) {
        return List.of();
    }

    @Override
    public List<Result> run(boolean quick, List<Result> earlier) {
        return derive(earlier);
    }

    static List<Result> derive(List<Result> earlier) {
        Map<String, Result> byName = new HashMap<>();
        for (Result r : earlier) byName.put(r.name(), r);
        List<Result> out = new ArrayList<>();
        for (String form : FORMS) {
            List<double[]> points = new ArrayList<>();
            for (int n : NS) {
                Result r = byName.get(form + "." + n + ".perBatch");
                if (r == null) continue;
                points.add(new double[] {n, r.median()});
                String baseline = form.startsWith("batch") ? (form.contains("critical") ? "critical." : "standard.") + n + ".perCall" : "";
                out.add(new Result(form + "." + n + ".perCall", "ns/call", r.median() / n, r.min() / n, r.max() / n, baseline));
            }
            if (points.size() >= 2) {
                double[] ab = fit(points);
                out.add(Result.single(form + ".fit.a", "ns", ab[0]));
                out.add(Result.single(form + ".fit.b", "ns/call", ab[1]));
            }
        }
        for (int n : NS) {
            Result cloop = byName.get("cloop." + n + ".perBatch");
            Result std = byName.get("standard." + n + ".perBatch");
            Result crit = byName.get("critical." + n + ".perBatch");
            for (String form : new String[] {"batch", "batch.critical", "batch.fresh", "batch.fresh.critical", "batch.fresh.setters"}) {
                Result b = byName.get(form + "." + n + ".perBatch");
                if (b == null) continue;
                if (std != null) out.add(Result.single(form + "." + n + ".speedupVsStandard", "x", std.median() / b.median()));
                if (crit != null) out.add(Result.single(form + "." + n + ".speedupVsCritical", "x", crit.median() / b.median()));
                if (cloop != null) out.add(Result.single(form + "." + n + ".vsCloop", "x", b.median() / cloop.median()));
            }
        }
        return out;
    }

    /**
     * Fits cost(N) = a + bN to (N, cost) points as the per-call cost a/N + b, by least squares over
     * the per-call figures, so every N weighs alike (a plain fit on totals is ruled by N = 1000).
     * Returns {a, b}.
     */
    static double[] fit(List<double[]> points) {
        double n = points.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (double[] p : points) {
            double x = 1 / p[0];
            double y = p[1] / p[0];
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        double a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        double b = (sy - a * sx) / n;
        return new double[] {a, b};
    }
}

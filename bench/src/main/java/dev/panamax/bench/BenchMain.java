package dev.panamax.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

/**
 * {@code ./panamax bench [suite] [--json FILE]}: runs the JMH benchmarks of a suite (the classes in
 * {@code dev.panamax.bench.<suite>}) and its {@link Measurement}s, prints a table (median, min, max,
 * ratio to the baseline) and optionally writes {@code {"suite": .., "results": [..]}} as JSON.
 */
@Command(name = "panamax bench", mixinStandardHelpOptions = true,
        description = "Run Panamax benchmarks side by side with their peers.")
public final class BenchMain implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE",
            description = "calls, memory, batch, opencl, blas, compute, tensor, bindgen (default: every suite)")
    String suite;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON (a relative path is relative to"
            + " the directory the command was run from).")
    Path json;

    @Option(names = "--full", description = "Longer runs (more forks and iterations) for the figures in docs/BENCHMARKS.md.")
    boolean full;

    @Option(names = "--filter", paramLabel = "REGEX", description = "Only JMH benchmarks whose name matches.")
    String filter;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (json != null && json.toString().isEmpty()) {
            System.err.println("panamax bench: --json is empty; expected the file to write the results to");
            return 2;
        }
        // checked before the runs, relative to where ./panamax was run
        Path jsonFile = json == null ? null : userPath(json);
        String pkg = suite == null ? "dev\\.panamax\\.bench\\.[a-z0-9]+\\." : "dev\\.panamax\\.bench\\." + suite + "\\.";
        List<Result> results = new ArrayList<>(runJmh(filter == null ? pkg + ".*" : pkg + ".*" + filter + ".*"));
        for (Measurement m : ServiceLoader.load(Measurement.class)) {
            if (suite == null || suite.equals(m.suite())) {
                if (filter != null && !m.getClass().getName().matches(".*" + filter + ".*")) continue;
                System.err.printf("panamax bench: running %s%n", m.getClass().getSimpleName());
                results.addAll(m.run(!full, List.copyOf(results)));
            }
        }
        if (results.isEmpty()) {
            System.err.println("panamax bench: no benchmark in suite '" + suite + "'");
            return 2;
        }
        System.out.print(table(results));
        if (jsonFile != null) {
            Files.writeString(jsonFile, json(suite == null ? "all" : suite, results));
            System.out.println("wrote " + jsonFile);
        }
        return 0;
    }

    private List<Result> runJmh(String include) throws RunnerException {
        ChainedOptionsBuilder opts = new OptionsBuilder()
                .include(include)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", "-Dpanamax.leakDetection=DISABLED")
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        if (full) {
            opts.forks(2).warmupIterations(5).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(10).measurementTime(TimeValue.seconds(1));
        } else {
            opts.forks(1).warmupIterations(3).warmupTime(TimeValue.milliseconds(500))
                    .measurementIterations(5).measurementTime(TimeValue.milliseconds(500));
        }
        var runner = new Runner(opts.build());
        Collection<RunResult> runs;
        try {
            runs = runner.run();
        } catch (NoBenchmarksException e) {
            // a filter that names only measurements matches no JMH benchmark
            return List.of();
        } catch (RunnerException e) {
            if (String.valueOf(e.getMessage()).contains("No matching benchmarks")) return List.of();
            throw e;
        }
        List<Result> out = new ArrayList<>();
        for (RunResult r : runs) {
            BenchmarkParams p = r.getParams();
            Statistics s = r.getPrimaryResult().getStatistics();
            Figure f = figureOf(p.getBenchmark());
            String name = f == null ? p.getBenchmark().replaceFirst("^dev\\.panamax\\.bench\\.", "") + paramSuffix(p)
                    : substitute(f.value(), p);
            String baseline = f == null ? "" : substitute(f.baseline(), p);
            Result result = new Result(name, r.getPrimaryResult().getScoreUnit(), s.getPercentile(50), s.getMin(), s.getMax(), baseline);
            out.add(f != null && f.bytesPerOp() > 0 ? inGigabytesPerSecond(result, f.bytesPerOp()) : result);
        }
        return out;
    }

    /**
     * A throughput ({@code ops/s}, {@code ops/ms}, ...) or time-per-operation ({@code ms/op}, ...)
     * figure as bandwidth in GB/s (10^9 bytes per second), given the bytes one operation moves.
     * A time per operation inverts, so its min and max swap.
     */
    static Result inGigabytesPerSecond(Result r, long bytesPerOp) {
        String unit = r.unit();
        double gb = bytesPerOp / 1e9;
        if (unit.startsWith("ops/")) {
            double perSecond = 1 / seconds(unit.substring(4), r);
            return new Result(r.name(), "GB/s", r.median() * perSecond * gb, r.min() * perSecond * gb, r.max() * perSecond * gb, r.baseline());
        }
        if (unit.endsWith("/op")) {
            double s = seconds(unit.substring(0, unit.length() - 3), r);
            return new Result(r.name(), "GB/s", gb / (r.median() * s), gb / (r.max() * s), gb / (r.min() * s), r.baseline());
        }
        throw new IllegalArgumentException("cannot convert to GB/s: figure=" + r.name() + " unit=" + unit
                + " expected ops/<time> or <time>/op");
    }

    private static double seconds(String timeUnit, Result r) {
        return switch (timeUnit) {
            case "ns" -> 1e-9;
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "s" -> 1;
            case "min" -> 60;
            case "hr" -> 3600;
            default -> throw new IllegalArgumentException("cannot convert to GB/s: figure=" + r.name() + " unit=" + r.unit()
                    + " timeUnit=" + timeUnit + " expected ns, us, ms, s, min or hr");
        };
    }

    private static Figure figureOf(String benchmark) {
        int dot = benchmark.lastIndexOf('.');
        try {
            Class<?> c = Class.forName(benchmark.substring(0, dot));
            for (Method m : c.getMethods()) {
                if (m.getName().equals(benchmark.substring(dot + 1))) return m.getAnnotation(Figure.class);
            }
        } catch (ClassNotFoundException e) {
            return null;
        }
        return null;
    }

    private static String substitute(String template, BenchmarkParams p) {
        String s = template;
        for (String key : p.getParamsKeys()) s = s.replace("{" + key + "}", p.getParam(key));
        return s;
    }

    private static String paramSuffix(BenchmarkParams p) {
        StringBuilder b = new StringBuilder();
        for (String key : p.getParamsKeys()) b.append('.').append(key).append('=').append(p.getParam(key));
        return b.toString();
    }

    static String table(List<Result> results) {
        Map<String, Result> byName = new LinkedHashMap<>();
        for (Result r : results) byName.put(r.name(), r);
        int w = Math.max(24, results.stream().mapToInt(r -> r.name().length()).max().orElse(0));
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-" + w + "s %12s %12s %12s  %-10s %s%n", "name", "median", "min", "max", "unit", "vs baseline"));
        for (Result r : results) {
            String ratio = "";
            Result base = byName.get(r.baseline());
            if (base != null && base.median() != 0) {
                ratio = String.format(Locale.ROOT, "%.2fx %s", r.median() / base.median(), base.name());
            }
            b.append(String.format(Locale.ROOT, "%-" + w + "s %12s %12s %12s  %-10s %s%n", r.name(),
                    num(r.median()), num(r.min()), num(r.max()), r.unit(), ratio));
        }
        return b.toString();
    }

    private static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.format(Locale.ROOT, "%.0f", v);
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    static String json(String suite, List<Result> results) {
        StringBuilder b = new StringBuilder("{\"suite\": ").append(quote(suite)).append(", \"results\": [");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            b.append(i == 0 ? "\n  " : ",\n  ")
                    .append("{\"name\": ").append(quote(r.name()))
                    .append(", \"unit\": ").append(quote(r.unit()))
                    .append(", \"median\": ").append(jsonNumber(r.median()))
                    .append(", \"min\": ").append(jsonNumber(r.min()))
                    .append(", \"max\": ").append(jsonNumber(r.max()));
            if (!r.baseline().isEmpty()) b.append(", \"baseline\": ").append(quote(r.baseline()));
            b.append('}');
        }
        return b.append("\n]}\n").toString();
    }

    private static String jsonNumber(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * {@code path} as the user meant it: relative to the directory {@code ./panamax} was run from,
     * which the launcher passes in {@code PANAMAX_WORKDIR} (the JVM's own without it).
     */
    private static Path userPath(Path path) {
        if (path.isAbsolute()) return path;
        String dir = System.getenv("PANAMAX_WORKDIR");
        return Path.of(dir == null || dir.isEmpty() ? System.getProperty("user.dir") : dir).toAbsolutePath().resolve(path).normalize();
    }
}

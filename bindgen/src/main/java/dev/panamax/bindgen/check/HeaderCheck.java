package dev.panamax.bindgen.check;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.Location;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a declarations file against the C headers of its library: every function's result and
 * parameter types, every struct's and union's size, alignment and field offsets, every constant's
 * value, as compile-time assertions compiled by gcc ({@code g++ -fsyntax-only}). A function declared
 * with {@code f32} parameters where the header says {@code double} fails with both types:
 *
 * <pre>{@code
 * HeaderCheck.Result r = HeaderCheck.run(declarations, List.of(), Path.of("target/check"), "g++");
 * // DeclarationsException: shapes.yaml:31:9: function shapes_scale parameter 2 (exact): declared f32, the header has double
 * }</pre>
 *
 * The headers are the file's {@code headers:} plus any given here; a header is {@code <name.h>} (found
 * on the compiler's include path), an absolute path, or a path relative to the declarations file.
 */
public final class HeaderCheck {
    private HeaderCheck() {}

    /** A check that passed: how many facts were asserted, and the generated source. */
    public record Result(int checks, Path source) {}

    private static final Pattern INSTANCE = Pattern.compile("In instantiation of 'struct pmx::(type|layout)<(\\d+), (-?\\d+), (?:(-?\\d+), )?(.*)>':");
    private static final Pattern ASSERTION = Pattern.compile("static assertion failed: check (\\d+)");
    private static final Pattern REDUCES = Pattern.compile("note: the comparison reduces to '\\((.*) == (.*)\\)'");
    private static final Pattern AT_LINE = Pattern.compile(":(\\d+):\\d+: error: (.*)");

    /** The headers to check {@code d} against: its own {@code headers:}, then {@code extra}. */
    public static List<String> headers(Declarations d, List<String> extra) {
        List<String> all = new ArrayList<>(d.headers());
        for (String e : extra) if (!all.contains(e)) all.add(e);
        return all;
    }

    /**
     * Checks {@code d} against {@code headers} (see {@link #headers}), writing the source to
     * {@code workDir}. Returns what was checked; with no headers, checks nothing.
     *
     * @throws DeclarationsException naming each declaration that differs from the headers, at its place
     *                               in the file, with the declared and the real type or value
     */
    public static Result run(Declarations d, List<String> headers, Path workDir, String compiler) {
        if (headers.isEmpty()) return new Result(0, null);
        Path base = Path.of(d.file()).toAbsolutePath().getParent();
        List<String> includes = new ArrayList<>();
        for (String h : headers) {
            if (h.startsWith("<") && h.endsWith(">")) {
                includes.add(h);
                continue;
            }
            Path p = base == null ? Path.of(h) : base.resolve(h);
            if (!Files.isRegularFile(p)) {
                throw new DeclarationsException(new Location(d.file(), 1, 1), "header not found: " + h + " (looked at "
                        + p + "); expected a path relative to the declarations file, an absolute path or <name.h>");
            }
            includes.add("\"" + p.toAbsolutePath().normalize() + "\"");
        }
        Path source = workDir.resolve("pmx_check_" + d.library() + ".cc");
        HeaderCheckSource.Unit unit = HeaderCheckSource.of(d, includes, java.util.Set.of());
        String output = compile(unit, source, compiler, d);
        if (output == null) return new Result(unit.checks().size(), source);
        // structs declared inside other structs: C++ names them through the outer one, once more
        java.util.Set<String> nested = HeaderCheckSource.unnamed(unit.checks(), failures(unit, output));
        if (!nested.isEmpty()) {
            unit = HeaderCheckSource.of(d, includes, nested);
            output = compile(unit, source, compiler, d);
            if (output == null) return new Result(unit.checks().size(), source);
        }
        throw new DeclarationsException(firstLocation(unit, output, d), problems(unit, output, source, headers));
    }

    /** Compiles the unit; null when it compiles, else the compiler's output. */
    private static String compile(HeaderCheckSource.Unit unit, Path source, String compiler, Declarations d) {
        String output;
        int status;
        try {
            Files.createDirectories(source.getParent());
            Files.writeString(source, unit.source(), StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder(compiler, "-std=gnu++17", "-fsyntax-only", "-w",
                    "-fno-diagnostics-show-caret", "-fmax-errors=0", source.toString()).redirectErrorStream(true);
            pb.environment().put("LC_ALL", "C");
            Process p = pb.start();
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            status = p.waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + compiler + " to check " + d.file() + " against its headers: "
                    + e.getMessage() + " (install g++)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + d.file() + " against its headers", e);
        }
        return status == 0 ? null : output;
    }
    private static Location firstLocation(HeaderCheckSource.Unit unit, String output, Declarations d) {
        Map<Integer, String> found = failures(unit, output);
        return found.isEmpty() ? new Location(d.file(), 1, 1) : unit.checks().get(found.keySet().iterator().next()).location();
    }

    /** Check id → what the header has, in the order the file states them. */
    private static Map<Integer, String> failures(HeaderCheckSource.Unit unit, String output) {
        Map<Integer, Integer> byLine = new LinkedHashMap<>();
        for (int i = 0; i < unit.lines().size(); i++) byLine.put(unit.lines().get(i), i);
        Map<Integer, String> found = new TreeMap<>();
        String[] lines = output.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = INSTANCE.matcher(lines[i]);
            if (m.find()) {
                int id = Integer.parseInt(m.group(2));
                String real = m.group(5);
                if (m.group(1).equals("layout")) {
                    // the real type's layout: from the note "the comparison reduces to"
                    real = real + layoutNote(lines, i);
                }
                found.putIfAbsent(id, real);
                continue;
            }
            m = ASSERTION.matcher(lines[i]);
            if (m.find()) {
                int id = Integer.parseInt(m.group(1));
                String real = "";
                if (i + 1 < lines.length) {
                    Matcher r = REDUCES.matcher(lines[i + 1]);
                    if (r.find()) real = r.group(1);
                }
                found.putIfAbsent(id, real);
                continue;
            }
            m = AT_LINE.matcher(lines[i]);
            if (m.find() && lines[i].contains("pmx_check_")) {
                Integer id = byLine.get(Integer.parseInt(m.group(1)));
                if (id != null) found.putIfAbsent(id, "error: " + m.group(2));
            }
        }
        return found;
    }

    private static String layoutNote(String[] lines, int from) {
        for (int j = from; j < Math.min(lines.length, from + 6); j++) {
            Matcher r = REDUCES.matcher(lines[j]);
            if (r.find()) return " (" + r.group(1) + ")";
        }
        return "";
    }

    private static String problems(HeaderCheckSource.Unit unit, String output, Path source, List<String> headers) {
        Map<Integer, String> found = failures(unit, output);
        if (found.isEmpty()) {
            return "the headers " + headers + " do not compile as checked (" + source + "):\n"
                    + output.lines().limit(30).reduce((a, b) -> a + "\n" + b).orElse("");
        }
        List<String> out = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (var e : found.entrySet()) {
            HeaderCheckSource.Check c = unit.checks().get(e.getKey());
            if (absent.stream().anyMatch(a -> c.what().startsWith(a + " "))) continue;   // follows from its function's
            if (c.what().startsWith("function ") && !c.what().contains(" result") && !c.what().contains(" parameter ")) absent.add(c.what());
            String real = e.getValue();
            String header;
            if (real.startsWith("error: ")) {
                header = real.contains("was not declared") ? "the headers do not declare it" : real.substring(7);
            } else if (real.equals("-1") && c.what().startsWith("function")) {
                header = "the headers declare it, but not as a function";
            } else if (real.equals("-2") && c.what().startsWith("function")) {
                header = "the header's is variadic";
            } else {
                header = "the header has " + real;
            }
            out.add((out.isEmpty() ? "" : c.location() + ": ") + c.what()
                    + ": declared " + c.declared() + ", " + header);
        }
        return out.size() + " declaration" + (out.size() == 1 ? " differs" : "s differ") + " from the headers "
                + headers + ": " + String.join("\n", out);
    }
}

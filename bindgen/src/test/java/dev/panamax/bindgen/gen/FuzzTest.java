package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * 10,000 mutated declarations files, fixed seed: bindgen either generates code that compiles (every
 * distinct Java output goes through javac, every distinct C glue unit through gcc) or throws its own
 * {@link DeclarationsException} with a place in the file. Any other exception, or a hang, fails.
 */
class FuzzTest {
    /** Fixed; {@code -Dpanamax.fuzz.seed=N} explores another stream of mutations. */
    static final long SEED = Long.getLong("panamax.fuzz.seed", 0x5eed_b1d6L);
    static final int CASES = 10_000;
    /** Distinct outputs compiled per javac task and C glue units per gcc run. */
    static final int OUTPUTS_PER_JAVAC = 120;
    static final int UNITS_PER_GCC = 100;
    static final long TIME_LIMIT_MILLIS = 120_000;

    static final String[] KEYS = {"format", "library", "sonames", "package", "class", "types", "constants", "errors",
            "functions", "name", "returns", "params", "tier", "batchable", "blocking", "type", "status", "ownership",
            "dir", "length", "nullable", "errcode", "success", "names", "struct", "union", "handle", "retain", "release",
            "callback", "user_data", "calls", "align"};
    static final String[] VALUES = {"[1, 2]", "{a: 1}", "true", "-1", "0", "\"x\"", "null", "~", "''", "[]", "{}",
            "99999999999999999999999", "-9223372036854775809", "9223372036854775807", "0x7fffffffffffffff", "1e400",
            "-.inf", ".nan", "f32[2147483647]", "u8[99999][99999]", "i32*****", "char", "void", "ptr*", "opaque",
            "critical", "owned", "borrowed", "out", "inout", "once", "many", "&a [1]", "*a", "!!binary AAAA",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"};
    static final String[] NAMES = {"ñame", "名前", "é", "a\u0301", "\uD83D\uDE00", "\u202Eabc", "int", "class", "native",
            "MemorySegment", "String", "result", "frame", "wait", "toString", "_", "__", "x_", "Point", "Native",
            "DemoApi", "x".repeat(300), "a-b", "1abc", "$x", "null", "true"};
    static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    static final Pattern NUMBER = Pattern.compile("-?(0x)?[0-9a-fA-F]+");

    static List<String> seeds() throws IOException {
        String contract = Files.readString(Path.of("src/test/resources/contract_example.yaml"))
                .replace("types:", "types:\n  cl_context: {handle: opaque, ownership: borrowed}")
                .replace("errors:", "errors:\n  cl_status: {type: i32, success: [0]}");
        return List.of(Files.readString(GoldenTest.DEMO), Files.readString(Path.of("src/test/resources/abi_fixtures.yaml")),
                contract);
    }

    static String mutate(String text, Random rnd) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int mutations = 1 + rnd.nextInt(3);
        for (int m = 0; m < mutations && !lines.isEmpty(); m++) {
            int at = rnd.nextInt(lines.size());
            String line = lines.get(at);
            switch (rnd.nextInt(11)) {
                case 0 -> lines.remove(at);                                             // deleted line
                case 1 -> {                                                             // swapped lines
                    int other = rnd.nextInt(lines.size());
                    lines.set(at, lines.get(other));
                    lines.set(other, line);
                }
                case 2 -> lines.set(at, replaceKey(line, rnd));                        // swapped keys
                case 3 -> lines.set(at, replaceValue(line, rnd));                      // wrong types, huge numbers
                case 4 -> {                                                             // truncated YAML
                    String joined = String.join("\n", lines);
                    return joined.substring(0, rnd.nextInt(joined.length() + 1));
                }
                case 5 -> lines.set(at, replaceWord(line, NAMES[rnd.nextInt(NAMES.length)], rnd));   // unicode, keywords
                case 6 -> lines.add(at, line);                                          // duplicated line
                case 7 -> lines.set(at, line.isEmpty() ? line : line.substring(0, rnd.nextInt(line.length())));  // cut line
                case 8 -> lines.set(at, (rnd.nextBoolean() ? " " : "\t") + line);       // indentation
                case 9 -> lines.set(at, replaceNumber(line, rnd));                      // numbers
                default -> {                                                            // stray tokens
                    String[] tokens = {"[", "]", "{", "}", ":", "- ", ",", "#", "'", "\"", "*", "&", "!", "|", ">", "%"};
                    int pos = line.isEmpty() ? 0 : rnd.nextInt(line.length());
                    lines.set(at, line.substring(0, pos) + tokens[rnd.nextInt(tokens.length)] + line.substring(pos));
                }
            }
        }
        return String.join("\n", lines);
    }

    static String replaceKey(String line, Random rnd) {
        int colon = line.indexOf(':');
        if (colon < 0) return line;
        String prefix = line.substring(0, colon);
        int start = prefix.length();
        while (start > 0 && (Character.isLetterOrDigit(prefix.charAt(start - 1)) || prefix.charAt(start - 1) == '_')) start--;
        return prefix.substring(0, start) + KEYS[rnd.nextInt(KEYS.length)] + line.substring(colon);
    }

    static String replaceValue(String line, Random rnd) {
        int colon = line.lastIndexOf(": ");
        String v = VALUES[rnd.nextInt(VALUES.length)];
        if (colon < 0) return replaceWord(line, v, rnd);
        String rest = line.substring(colon + 2);
        int end = rest.indexOf(',') >= 0 && rnd.nextBoolean() ? rest.indexOf(',') : rest.length();
        return line.substring(0, colon + 2) + v + rest.substring(end);
    }

    static String replaceWord(String line, String with, Random rnd) {
        return replaceMatch(line, WORD.matcher(line), with, rnd);
    }

    static String replaceNumber(String line, Random rnd) {
        String[] big = {"99999999999999999999", "4294967296", "-2147483649", "2147483647", "0", "-0", "0x", "1e999", "65536"};
        return replaceMatch(line, NUMBER.matcher(line), big[rnd.nextInt(big.length)], rnd);
    }

    static String replaceMatch(String line, Matcher m, String with, Random rnd) {
        List<int[]> spans = new ArrayList<>();
        while (m.find()) spans.add(new int[] {m.start(), m.end()});
        if (spans.isEmpty()) return line;
        int[] s = spans.get(rnd.nextInt(spans.size()));
        return line.substring(0, s[0]) + with + line.substring(s[1]);
    }

    @Test
    void tenThousandMutatedFilesGenerateCompilableCodeOrFailWithAPlace(@TempDir Path tmp) throws Exception {
        List<String> seeds = seeds();
        List<String> problems = new ArrayList<>();
        Map<String, Declarations> distinctJava = new LinkedHashMap<>();
        Map<String, List<Bindgen.GeneratedFile>> distinctGlue = new LinkedHashMap<>();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<String> current = new AtomicReference<>();
        int[] outcomes = new int[2];   // generated, refused
        Thread worker = new Thread(() -> {
            Random rnd = new Random(SEED);
            for (int i = 0; i < CASES; i++) {
                String text = mutate(seeds.get(rnd.nextInt(seeds.size())), rnd);
                current.set(text);
                try {
                    Declarations d = DeclarationsParser.parse(text, "fuzz.yaml");
                    Bindgen.Generation g = Bindgen.generate(d);
                    outcomes[0]++;
                    distinctJava.putIfAbsent(digest(g.java()), d);
                    if (!g.c().isEmpty()) distinctGlue.putIfAbsent(digest(g.c()), g.c());
                } catch (DeclarationsException e) {
                    outcomes[1]++;
                    if (e.location() == null || !e.getMessage().startsWith("fuzz.yaml:") || e.location().line() < 1
                            || e.location().column() < 1) {
                        problems.add("refusal without a place: " + e.getMessage() + "\n--- input:\n" + text);
                    }
                } catch (Throwable t) {
                    java.io.StringWriter w = new java.io.StringWriter();
                    t.printStackTrace(new java.io.PrintWriter(w));
                    problems.add("not bindgen's error: " + w + "\n--- input:\n" + text);
                }
                done.incrementAndGet();
            }
        }, "fuzz");
        worker.setDaemon(true);
        worker.start();
        long t0 = System.nanoTime();
        worker.join(TIME_LIMIT_MILLIS);
        System.out.println("fuzz: " + done.get() + " files in " + (System.nanoTime() - t0) / 1_000_000 + " ms, generated="
                + outcomes[0] + " refused=" + outcomes[1] + ", distinct Java outputs=" + distinctJava.size()
                + ", distinct C glue=" + distinctGlue.size());
        assertFalse(worker.isAlive(), "bindgen hung (or the run took over " + TIME_LIMIT_MILLIS + " ms) at case " + done.get()
                + " on:\n" + current.get());
        assertEquals(List.of(), problems.stream().limit(5).toList(), problems.size() + " problem(s)");
        assertEquals(CASES, outcomes[0] + outcomes[1]);
        assertTrue(outcomes[0] > 500 && outcomes[1] > 500, "both outcomes are exercised: generated=" + outcomes[0]
                + " refused=" + outcomes[1]);

        long t1 = System.nanoTime();
        compileEveryDistinctOutput(new ArrayList<>(distinctJava.values()), tmp.resolve("java"));
        long t2 = System.nanoTime();
        compileEveryDistinctGlue(new ArrayList<>(distinctGlue.values()), tmp.resolve("c"));
        System.out.println("fuzz: compiled " + distinctJava.size() + " distinct Java outputs in " + (t2 - t1) / 1_000_000
                + " ms and " + distinctGlue.size() + " distinct C glue units in " + (System.nanoTime() - t2) / 1_000_000 + " ms");
    }

    /**
     * The structural cases (deep nesting, huge counts, long chains): each is refused with a place, or
     * generates code that compiles; nothing else, not a {@link StackOverflowError}, is allowed.
     */
    @Test
    void deepNestingHugeCountsAndLongChainsAreRefusedWithAPlaceOrCompile(@TempDir Path tmp) throws Exception {
        List<String> problems = new ArrayList<>();
        List<Declarations> generated = new ArrayList<>();
        int refused = 0;
        for (Map.Entry<String, String> c : StructuralFuzzCases.all().entrySet()) {
            try {
                Declarations d = DeclarationsParser.parse(c.getValue(), "fuzz.yaml");
                Bindgen.generate(d);
                generated.add(d);
            } catch (DeclarationsException e) {
                refused++;
                if (!e.getMessage().startsWith("fuzz.yaml:") || e.location().line() < 1 || e.location().column() < 1
                        || e.getMessage().length() > 1_000) {
                    problems.add(c.getKey() + ": refusal without a place, or too long: "
                            + e.getMessage().substring(0, Math.min(300, e.getMessage().length())));
                }
            } catch (Throwable t) {
                problems.add(c.getKey() + ": not bindgen's error: " + t);
            }
        }
        System.out.println("fuzz: " + StructuralFuzzCases.all().size() + " structural cases, generated=" + generated.size()
                + " refused=" + refused);
        assertEquals(List.of(), problems);
        compileEveryDistinctOutput(generated, tmp.resolve("java"));
    }

    /**
     * Every distinct generated Java output goes through javac. Each is generated again into a package of its
     * own ({@code fuzz.cN.} in front of the declared one, which stays whole), so many compile in one javac task.
     */
    static void compileEveryDistinctOutput(List<Declarations> outputs, Path classes) throws Exception {
        ExecutorService javacs = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        try {
            List<Future<InProcessCompiler.Outcome>> batches = new ArrayList<>();
            for (int from = 0; from < outputs.size(); from += OUTPUTS_PER_JAVAC) {
                int first = from;
                batches.add(javacs.submit(() -> {
                    List<Bindgen.GeneratedFile> sources = new ArrayList<>();
                    for (int k = first; k < Math.min(outputs.size(), first + OUTPUTS_PER_JAVAC); k++) {
                        sources.addAll(Bindgen.generate(inPackageOfItsOwn(outputs.get(k), k)).java());
                    }
                    return InProcessCompiler.compile(sources, classes.resolve("batch" + first));
                }));
            }
            for (Future<InProcessCompiler.Outcome> batch : batches) {
                InProcessCompiler.Outcome o = batch.get();
                if (!o.ok()) fail("generated sources do not compile:\n" + String.join("\n", o.errors().stream().limit(10).toList()));
            }
        } finally {
            javacs.shutdownNow();
        }
    }

    static Declarations inPackageOfItsOwn(Declarations d, int k) {
        String own = "fuzz.c" + k + (d.javaPackage().isEmpty() ? "" : "." + d.javaPackage());
        return new Declarations(d.file(), d.format(), d.library(), d.sonames(), own, d.className(), d.types(), d.constants(),
                d.errors(), d.functions());
    }

    /** Every distinct C glue unit goes through gcc with the flags the Maven plugin builds it with, warnings as errors. */
    static void compileEveryDistinctGlue(List<List<Bindgen.GeneratedFile>> units, Path dir) throws Exception {
        for (int from = 0; from < units.size(); from += UNITS_PER_GCC) {
            List<String> cmd = new ArrayList<>(List.of("gcc", "-fsyntax-only", "-std=gnu11", "-Wall", "-Werror"));
            for (int k = from; k < Math.min(units.size(), from + UNITS_PER_GCC); k++) {
                Path unit = Files.createDirectories(dir.resolve("u" + k));
                for (Bindgen.GeneratedFile f : units.get(k)) {
                    Files.writeString(unit.resolve(f.path()), f.content());
                    if (f.path().endsWith(".c")) cmd.add(unit.resolve(f.path()).toString());
                }
            }
            Process gcc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String said = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, gcc.waitFor(), "generated C glue does not compile:\n" + said);
        }
    }

    static String digest(List<Bindgen.GeneratedFile> files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Bindgen.GeneratedFile f : files) {
                sha.update(f.path().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                sha.update(f.content().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}

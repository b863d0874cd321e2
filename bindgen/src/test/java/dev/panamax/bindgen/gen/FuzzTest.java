package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * 10,000 mutated declarations files, fixed seed: bindgen either generates (a sample of the
 * generated sources is compiled with javac to prove it compiles) or throws its own
 * {@link DeclarationsException} with a place in the file. Any other exception, or a hang, fails.
 */
class FuzzTest {
    /** Fixed; {@code -Dpanamax.fuzz.seed=N} explores another stream of mutations. */
    static final long SEED = Long.getLong("panamax.fuzz.seed", 0x5eed_b1d6L);
    static final int CASES = 10_000;
    static final int COMPILED_SAMPLES = 8;
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
        List<Bindgen.Generation> samples = new ArrayList<>();
        AtomicInteger done = new AtomicInteger();
        AtomicReference<String> current = new AtomicReference<>();
        int[] outcomes = new int[2];   // generated, refused
        Thread worker = new Thread(() -> {
            Random rnd = new Random(SEED);
            Set<String> sampled = new HashSet<>();
            for (int i = 0; i < CASES; i++) {
                String text = mutate(seeds.get(rnd.nextInt(seeds.size())), rnd);
                current.set(text);
                try {
                    Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(text, "fuzz.yaml"));
                    outcomes[0]++;
                    if (samples.size() < COMPILED_SAMPLES && rnd.nextInt(40) == 0 && sampled.add(text)) samples.add(g);
                } catch (DeclarationsException e) {
                    outcomes[1]++;
                    if (e.location() == null || !e.getMessage().startsWith("fuzz.yaml:") || e.location().line() < 0) {
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
                + outcomes[0] + " refused=" + outcomes[1]);
        assertFalse(worker.isAlive(), "bindgen hung (or the run took over " + TIME_LIMIT_MILLIS + " ms) at case " + done.get()
                + " on:\n" + current.get());
        assertEquals(List.of(), problems.stream().limit(5).toList(), problems.size() + " problem(s)");
        assertEquals(CASES, outcomes[0] + outcomes[1]);
        assertTrue(outcomes[0] > 500 && outcomes[1] > 500, "both outcomes are exercised: generated=" + outcomes[0]
                + " refused=" + outcomes[1]);

        assertTrue(samples.size() >= 4, "samples=" + samples.size());
        int n = 0;
        for (Bindgen.Generation g : samples) {
            InProcessCompiler.Outcome o = InProcessCompiler.compile(g.java(), tmp.resolve("s" + n++));
            if (!o.ok()) {
                StringBuilder sources = new StringBuilder();
                for (Bindgen.GeneratedFile f : g.java()) sources.append("=== ").append(f.path()).append('\n');
                fail("generated sources do not compile:\n" + String.join("\n", o.errors().stream().limit(10).toList()) + "\n" + sources);
            }
        }
    }
}

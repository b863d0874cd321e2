package dev.panamax.bindgen.gen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Declarations files built to break a parser or a generator by their shape rather than their words:
 * deep nesting, huge counts, long chains. Each is named; {@link FuzzTest} requires bindgen to refuse
 * each with a place or to generate code that compiles.
 */
final class StructuralFuzzCases {
    private StructuralFuzzCases() {}

    static final String HEAD = "format: 1\nlibrary: s\npackage: org.example.s\n";

    static Map<String, String> all() {
        Map<String, String> c = new LinkedHashMap<>();
        // deep nesting
        c.put("10,000 nested [ in sonames", HEAD + "sonames: " + "[".repeat(10_000) + "x" + "]".repeat(10_000) + "\n");
        c.put("10,000 nested [ as a parameter", HEAD + "functions:\n  - {name: f, params: " + "[".repeat(10_000) + "]".repeat(10_000) + "}\n");
        c.put("10,000 unclosed [", HEAD + "functions: " + "[".repeat(10_000) + "\n");
        c.put("5,000 nested flow mappings", HEAD + "types: " + "{a: ".repeat(5_000) + "1" + "}".repeat(5_000) + "\n");
        c.put("1,000 nested block lists", HEAD + "sonames:\n" + blockLists(1_000));
        c.put("2,000 nested parentheses in a length", length("(".repeat(2_000) + "n" + ")".repeat(2_000)));
        c.put("10,000 terms in a length", length("n" + " + n".repeat(10_000)));
        c.put("10,000 products in a length", length("n" + " * 1".repeat(10_000)));
        c.put("10,000 unary minus in a length", length("-".repeat(10_000) + "n"));
        c.put("1,000 nested abs in a length", length("abs(".repeat(1_000) + "n" + ")".repeat(1_000)));
        c.put("500 nested choices in a length", length("n > 0 ? ".repeat(500) + "n" + " : n".repeat(500)));
        c.put("31 nested parentheses in a length", length("(".repeat(31) + "n" + ")".repeat(31)));
        c.put("i32 and 10,000 stars", HEAD + "functions:\n  - {name: f, params: [[i32" + "*".repeat(10_000) + ", p]]}\n");
        c.put("i32 and 12 stars", HEAD + "functions:\n  - {name: f, params: [[i32" + "*".repeat(12) + ", p]]}\n");
        c.put("1,000 array dimensions", HEAD + "types:\n  S: {struct: [[u8" + "[2]".repeat(1_000) + ", a]]}\n");
        c.put("a package of 3,000 parts", HEAD.replace("org.example.s", String.join(".", Collections.nCopies(3_000, "p"))));
        c.put("a package of 64 parts", HEAD.replace("org.example.s", String.join(".", Collections.nCopies(64, "p"))));
        // long chains
        c.put("3,000 aliases in a chain", chain(3_000, i -> "  T" + i + ": T" + (i + 1), "  T3000: i32"));
        c.put("62 aliases in a chain", chain(62, i -> "  T" + i + ": T" + (i + 1), "  T62: i32") + "functions:\n  - {name: f, params: [[T0, t]]}\n");
        c.put("3,000 structs by value in a chain", chain(3_000, i -> "  S" + i + ": {struct: [[S" + (i + 1) + ", s]]}", "  S3000: {struct: [[i32, x]]}"));
        c.put("60 structs by value in a chain", chain(60, i -> "  S" + i + ": {struct: [[S" + (i + 1) + ", s]]}", "  S60: {struct: [[i32, x]]}")
                + "functions:\n  - {name: f, returns: S0, params: [[S0, s]]}\n");
        c.put("200 callbacks in a chain", chain(200, i -> "  C" + i + ": {callback: {params: [[C" + (i + 1) + ", c]]}}", "  C200: {callback: {}}"));
        c.put("300 structs by pointer in a chain", chain(300, i -> "  P" + i + ": {struct: [[P" + (i + 1) + "*, next]]}", "  P300: {struct: [[i32, x]]}"));
        // huge counts
        c.put("a function of 300 parameters", params("i32", 300));
        c.put("a function of 10,000 parameters", params("i32", 10_000));
        c.put("a function of 127 i64 parameters", params("i64", 127));
        c.put("a function of 252 i32 parameters", params("i32", 252));
        c.put("a callback of 300 parameters", HEAD + "types:\n  cb: {callback: {params: [" + list("f32", 300) + "]}}\n");
        c.put("a struct of 1,000 fields", HEAD + "types:\n  S: {struct: [" + list("i32", 1_000) + "]}\n");
        c.put("1,000 constants", HEAD + "constants:\n" + lines(1_000, i -> "  K" + i + ": " + i));
        c.put("1,000 error names", HEAD + "errors:\n  st: {type: i32, success: [0], names: {" + String.join(", ",
                range(1_000, i -> (i + 1) + ": E" + i)) + "}}\nfunctions:\n  - {name: f, returns: {type: i32, status: st}}\n");
        c.put("a 100,000-character name", HEAD + "functions:\n  - {name: " + "f".repeat(100_000) + "}\n");
        c.put("a 1,000,000-character length expression", length("n" + " + 1".repeat(250_000)));
        return c;
    }

    private static String length(String expression) {
        return HEAD + "functions:\n  - name: f\n    params:\n      - [i32, n]\n      - {name: b, type: f32*, length: \"" + expression + "\"}\n";
    }

    private static String blockLists(int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) b.append(" ".repeat(2 * i)).append("-\n");
        return b.append(" ".repeat(2 * depth)).append("- x\n").toString();
    }

    private static String chain(int length, java.util.function.IntFunction<String> link, String last) {
        return HEAD + "types:\n" + lines(length, link) + last + "\n";
    }

    private static String params(String type, int n) {
        return HEAD + "functions:\n  - {name: f, returns: i32, params: [" + list(type, n) + "]}\n";
    }

    private static String list(String type, int n) {
        return String.join(", ", range(n, i -> "[" + type + ", p" + i + "]"));
    }

    private static String lines(int n, java.util.function.IntFunction<String> line) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(line.apply(i)).append('\n');
        return b.toString();
    }

    private static List<String> range(int n, java.util.function.IntFunction<String> item) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(item.apply(i));
        return out;
    }
}

package dev.panamax.bindgen.decl;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every structure of a declarations file that nests or chains stops at its documented {@link Limits}
 * with an error at its place; one level below the limit is still read.
 */
class LimitsTest {
    static final String HEAD = "format: 1\nlibrary: t\n";

    static DeclarationsException refused(String yaml) {
        return assertThrows(DeclarationsException.class, () -> DeclarationsParser.parse(yaml, "t.yaml"));
    }

    static void assertMessage(DeclarationsException e, String location, String... fragments) {
        assertTrue(e.getMessage().startsWith("t.yaml:" + location + ": "), e.getMessage());
        for (String f : fragments) assertTrue(e.getMessage().contains(f), "missing '" + f + "' in: " + e.getMessage());
    }

    static String nested(int levels) {
        return "[".repeat(levels) + "x" + "]".repeat(levels);
    }

    @Test
    void tenThousandNestedListsStopAtTheSixtyFifthLevel() {
        // "sonames: " takes 9 columns; the document's mapping is level 1, so the 64th '[' is level 65
        assertMessage(refused(HEAD + "sonames: " + nested(10_000) + "\n"), "3:73",
                "the YAML nests deeper than 64 levels; expected at most 64 nested lists and mappings");
        assertMessage(refused(HEAD + "sonames: " + nested(64) + "\n"), "3:73", "nests deeper than 64 levels");
        // one level less is read, and refused for what it is
        assertMessage(refused(HEAD + "sonames: " + nested(63) + "\n"), "3:11", "an entry of sonames is a list; expected a string");
    }

    @Test
    void nestedMappingsCountAsWell() {
        String deep = "{a: ".repeat(5_000) + "1" + "}".repeat(5_000);
        assertMessage(refused(HEAD + "types: " + deep + "\n"), "3:" + (8 + 4 * 63), "the YAML nests deeper than 64 levels");
    }

    static String lengthParam(String expression) {
        return HEAD + "package: p\nfunctions:\n  - name: f\n    params:\n      - [i32, n]\n"
                + "      - {name: b, type: f32*, length: \"" + expression + "\"}\n";
    }

    @Test
    void twoThousandNestedParenthesesInALengthExpression() {
        DeclarationsException e = refused(lengthParam("(".repeat(2_000) + "n" + ")".repeat(2_000)));
        assertMessage(e, "8:39", "length of parameter b: '((((", "' nests deeper than 32 levels at character 33;"
                + " expected at most 32 levels of parentheses, operators, calls and choices");
        assertTrue(e.getMessage().length() < 400, e.getMessage());
        // 31 pairs are read
        assertEquals("n", DeclarationsParser.parse(lengthParam("(".repeat(31) + "n" + ")".repeat(31)), "t.yaml")
                .functions().getFirst().params().get(1).expression().text());
    }

    @Test
    void longChainsOfOperatorsAndUnaryMinus() {
        assertMessage(refused(lengthParam("n" + " + n".repeat(10_000))), "8:39", "nests deeper than 32 levels at character 131");
        assertMessage(refused(lengthParam("-".repeat(10_000) + "n")), "8:39", "nests deeper than 32 levels at character 33");
        assertMessage(refused(lengthParam("abs(".repeat(100) + "n" + ")".repeat(100))), "8:39", "nests deeper than 32 levels");
        // 31 operators make a tree 32 levels tall: read
        LengthExpr e = DeclarationsParser.parse(lengthParam("n" + " + n".repeat(31)), "t.yaml").functions().getFirst()
                .params().get(1).expression();
        assertEquals("n" + " + n".repeat(31), e.text());
        assertMessage(refused(lengthParam("n" + " + n".repeat(32))), "8:39", "nests deeper than 32 levels");
    }

    @Test
    void tenThousandPointerStars() {
        assertMessage(refused(HEAD + "functions:\n  - {name: f, params: [[i32" + "*".repeat(10_000) + ", p]]}\n"), "4:25",
                "type 'i32*****", "' has more than 12 pointer stars and array dimensions; expected at most 12");
        assertMessage(refused(HEAD + "types:\n  S: {struct: [[u8" + "[2]".repeat(13) + ", a]]}\n"), "4:17",
                "more than 12 pointer stars and array dimensions");
        // twelve are a type
        TypeRef t = DeclarationsParser.parse(HEAD + "functions:\n  - {name: f, params: [[i32" + "*".repeat(12) + ", p]]}\n", "t.yaml")
                .functions().getFirst().params().getFirst().type();
        assertEquals("i32" + "*".repeat(12), t.spelling());
    }

    @Test
    void aPackageOfThreeThousandParts() {
        String pkg = String.join(".", java.util.Collections.nCopies(3_000, "a"));
        assertMessage(refused(HEAD + "package: " + pkg + "\n"), "3:10", "package 'a.a.a", "' has 5999 characters; expected at most 1000");
        String parts = String.join(".", java.util.Collections.nCopies(65, "a"));
        assertMessage(refused(HEAD + "package: " + parts + "\n"), "3:10", "' has 65 parts; expected at most 64");
        assertEquals(String.join(".", java.util.Collections.nCopies(64, "a")), DeclarationsParser.parse(
                HEAD + "package: " + String.join(".", java.util.Collections.nCopies(64, "a")) + "\n", "t.yaml").javaPackage());
        assertMessage(refused(HEAD + "package: a..b\n"), "3:10", "package 'a..b' is not a Java package name");
    }

    static String aliasChain(int length) {
        StringBuilder b = new StringBuilder(HEAD + "types:\n");
        for (int i = 0; i < length; i++) b.append("  T").append(i).append(": T").append(i + 1).append('\n');
        return b.append("  T").append(length).append(": i32\n").toString();
    }

    @Test
    void chainsOfNamedTypes() {
        assertMessage(refused(aliasChain(3_000)), "66:8", "types nest deeper than 63 levels: T0 -> T1 -> T2 -> ... -> T62 -> T63;"
                + " expected at most 63 named types inside each other");
        StringBuilder structs = new StringBuilder(HEAD + "types:\n");
        for (int i = 0; i < 3_000; i++) structs.append("  S").append(i).append(": {struct: [[S").append(i + 1).append(", s]]}\n");
        structs.append("  S3000: {struct: [[i32, x]]}\n");
        assertMessage(refused(structs.toString()), "66:19", "types nest deeper than 63 levels: S0 -> S1 -> S2 -> ... -> S62 -> S63");
        assertEquals(63, DeclarationsParser.parse(aliasChain(62), "t.yaml").types().size());
    }
}

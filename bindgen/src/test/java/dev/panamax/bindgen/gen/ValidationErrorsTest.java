package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Every file bindgen refuses is refused with {@code file:line:column}, what was found and what was expected. */
class ValidationErrorsTest {
    static final String HEAD = "format: 1\nlibrary: t\npackage: org.example.t\n";

    static DeclarationsException error(String yaml) {
        return assertThrows(DeclarationsException.class, () -> Bindgen.generate(DeclarationsParser.parse(yaml, "t.yaml")));
    }

    static void assertError(String yaml, String at, String... fragments) {
        DeclarationsException e = error(yaml);
        assertTrue(e.getMessage().startsWith("t.yaml:" + at + ": "), e.getMessage());
        for (String f : fragments) assertTrue(e.getMessage().contains(f), "missing '" + f + "' in: " + e.getMessage());
    }

    @Test
    void namesTooLongForAFileName() {
        String longName = "x".repeat(250);
        assertError("format: 1\nlibrary: " + longName + "\npackage: org.example.t\n", "1:1",
                "library " + longName + " makes the file name libpanamax_glue_", "(269 bytes)", "expected a shorter name");
        assertError("format: 1\nlibrary: t\npackage: org.example." + longName + "x".repeat(10) + "\n", "1:1",
                "package org.example.", "(260 bytes)");
        assertError(HEAD + "types:\n  " + longName + ": {struct: [[i32, a]]}\n", "5:255", "type " + longName, "(263 bytes)");
        assertError(HEAD + "functions:\n  - {name: " + longName + "}\n", "5:5", "function " + longName, "TApi$", "(267 bytes)");
        // at the limit, everything is made
        String longest = "x".repeat(Planner.MAX_FILE_NAME_BYTES - "TApi$".length() - "Result.class".length());
        assertEquals(1, Bindgen.generate(DeclarationsParser.parse(HEAD + "functions:\n  - {name: " + longest + "}\n", "t.yaml"))
                .plan().rawFunctions().size());
    }

    @Test
    void aFunctionNamedAsAType() {
        // C gives typedef names and function names one namespace: no C library can have both
        assertError(HEAD + "types:\n  Point: {struct: [[f32, x]]}\nfunctions:\n  - {name: Point}\n", "7:5",
                "function Point has the name of type Point (t.yaml:5:10)", "expected names that differ");
    }

    @Test
    void unknownKey() {
        assertError(HEAD + "functions:\n  - {name: f, tiers: critical}\n", "5:15", "unknown key 'tiers'", "expected one of");
    }

    @Test
    void unknownType() {
        assertError(HEAD + "functions:\n  - {name: f, params: [[u33, x]]}\n", "5:25", "unknown type 'u33'", "expected a primitive");
    }

    @Test
    void lengthNamingNoParameter() {
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: f32*, length: n}\n",
                "7:39", "length 'n' names no parameter of function f", "expected one of");
    }

    @Test
    void lengthNamingAParameterThatIsNotAnInteger() {
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: f32*, length: q}\n      - [f32, q]\n",
                "7:25", "length 'q' of parameter p of f names a parameter of type f32", "expected an integer parameter");
    }

    @Test
    void aReturnedLengthNeedsAReturnedPointerAndAnIntegerParameter() {
        // line 6 is the returns mapping; its length value starts at column 34
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: ptr, length: n}\n    params: [[u64, size]]\n",
                "6:34", "length 'n' of the return of f names no parameter of f", "expected one of [size]");
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: ptr, length: q}\n    params: [[f32, q]]\n",
                "6:34", "length 'q' of the return of f names a parameter of type f32", "expected an integer parameter passed by value");
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: ptr, length: q}\n    params: [[u64*, q]]\n",
                "6:34", "names a parameter of type u64*", "passed by value");
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: i64, length: n}\n    params: [[u64, n]]\n",
                "6:34", "length 'n' of the return of f: the return type is i64", "expected a returned pointer (T*, ptr)");
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: char*, length: n}\n    params: [[u64, n]]\n",
                "6:36", "the return type is char*", "expected a returned pointer");
        assertError(HEAD + "errors:\n  s: {type: i32, success: [0]}\nfunctions:\n  - name: f\n    returns: {type: i32, status: s, length: n}\n"
                        + "    params: [[u64, n]]\n",
                "8:45", "the result is checked as status s", "expected a returned pointer");
    }

    @Test
    void aLengthExpressionIsParsedCheckedAndItsErrorsLocated() {
        String head = HEAD + "functions:\n  - name: f\n    params:\n      - [i32, n]\n      - [i32, inc]\n";
        assertError(head + "      - {name: p, type: f32*, length: 1 + (n - 1 * abs(inc)}\n",
                "9:39", "length of parameter p: the end at character 22 of '1 + (n - 1 * abs(inc)'", "expected ')'");
        assertError(head + "      - {name: p, type: f32*, length: n * sqrt(inc)}\n",
                "9:39", "'s' at character 5 of 'n * sqrt(inc)'", "expected one of the functions [abs, max, min]");
        assertError(head + "      - {name: p, type: f32*, length: n * stride}\n",
                "9:39", "length 'stride' names no parameter of function f", "expected one of [");
        assertError(head + "      - {name: p, type: f32*, length: \"n > 0 ? n * q\"}\n      - [f32, q]\n",
                "9:39", "the end at character 14 of 'n > 0 ? n * q'", "expected ':'");
        assertError(head + "      - {name: p, type: f32*, length: \"n > 0 ? n * q : 0\"}\n      - [f32, q]\n",
                "9:25", "length of parameter p of f reads 'q' of type f32", "expected only integer parameters passed by value");
        assertError(head + "      - {name: p, type: i64, length: n * inc}\n",
                "9:25", "parameter p of f has a length expression but type i64", "expected a pointer type");
        assertError(head + "      - {name: p, type: f32*, length: n * 99999999999999999999}\n",
                "9:39", "at character 5", "expected a number that fits in 64 bits");
    }

    @Test
    void aFixedLengthOutOfRangeOrOnAScalar() {
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: f32*, length: 0}\n",
                "7:39", "length 0 of parameter p is out of range", "expected a count from 1 to 65536 or the name of the parameter");
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: f32*, length: 99999999999999999999}\n",
                "7:39", "length '99999999999999999999' is out of range");
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: i32, length: 3}\n",
                "7:25", "parameter p of f has length 3 but type i32", "expected a pointer type");
    }

    @Test
    void aTerminatedListMustBeIntegersPassedIn() {
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: f32*, terminated: true}\n",
                "7:25", "parameter p of f is terminated but is f32*", "expected an in pointer to integers without a length");
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: i64*, dir: out, terminated: true}\n",
                "7:25", "is terminated but is i64* dir out");
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: i64*, length: 2, terminated: true}\n",
                "7:25", "is terminated but is i64* with a length");
        assertError(HEAD + "functions:\n  - name: f\n    params:\n      - {name: p, type: i64*, terminated: yes please}\n",
                "7:43", "terminated is a scalar (yes please)", "expected true or false");
    }

    @Test
    void typesLargerThanTwoGigabytes() {
        assertError(HEAD + "types:\n  V: {struct: [[f32[2147483647], v]]}\n", "5:17", "array type f32[2147483647] takes 8589934588 bytes",
                "expected at most 2147483647");
        assertError(HEAD + "types:\n  V: {struct: [[u8[2000000000], a], [u8[2000000000], b]]}\n", "5:6",
                "struct V is larger than 2147483647 bytes");
    }

    @Test
    void aLibraryNameThatIsNotAnIdentifier() {
        assertError("format: 1\nlibrary: 1abc\n", "2:10", "library '1abc' is not an identifier", "expected [A-Za-z_]");
    }

    @Test
    void handleWithoutRelease() {
        assertError(HEAD + "types:\n  h: {handle: opaque}\n", "5:15", "handle h has no release",
                "expected release: FUNCTION", "ownership: borrowed");
    }

    @Test
    void ownedHandleOfATypeThatCannotBeReleased() {
        assertError(HEAD + "types:\n  h: {handle: opaque, ownership: borrowed}\nfunctions:\n  - name: f\n    returns: {type: h, ownership: owned}\n",
                "8:21", "hands out owned h handles, but h has no release");
    }

    @Test
    void duplicateNames() {
        assertError(HEAD + "functions:\n  - {name: f}\n  - {name: f}\n", "6:12", "function 'f' is declared twice", "expected unique names");
        assertError(HEAD + "types:\n  cl_mem: {handle: opaque, ownership: borrowed}\n  ClMem: {handle: opaque, ownership: borrowed}\n",
                "6:10", "type ClMem would be the Java class ClMem, already the class of type cl_mem");
        assertError(HEAD + "types:\n  String: {struct: [[i32, a]]}\n", "5:11", "type String would be the Java class String");
        assertError(HEAD + "class: TApi\ntypes:\n  t_api: {struct: [[i32, a]]}\n", "6:10", "already the class of the generated class TApi");
    }

    @Test
    void recursiveStruct() {
        assertError(HEAD + "types:\n  A: {struct: [[B, b]]}\n  B: {struct: [[A, a]]}\n", "6:17", "recursive type: A -> B -> A",
                "use a pointer");
    }

    @Test
    void keysThatDoNotFitTheirType() {
        assertError(HEAD + "errors:\n  st: {type: i32, success: [0]}\nfunctions:\n  - name: f\n    returns: {type: f32, status: st}\n",
                "8:21", "status st on f returning f32", "expected an integer or bool return type");
        assertError(HEAD + "errors:\n  st: {type: i32, success: [0]}\nfunctions:\n  - name: f\n    params: [{name: e, type: i32, errcode: st}]\n",
                "8:30", "errcode st on parameter e of f", "expected a pointer to an integer");
        assertError(HEAD + "functions:\n  - name: f\n    returns: {type: ptr, ownership: owned}\n", "6:21",
                "ownership on f returning ptr", "expected a handle return type");
        assertError(HEAD + "functions:\n  - name: f\n    params: [{name: n, type: i32, dir: out}]\n", "6:30",
                "has dir out and type i32", "expected a pointer type");
        assertError(HEAD + "functions:\n  - name: f\n    params: [{name: n, type: i32, nullable: true}]\n", "6:30",
                "is nullable but has type i32");
        assertError(HEAD + "types:\n  h: {handle: opaque, release: rel}\nfunctions:\n  - {name: rel, params: [[i32, x]]}\n", "7:5",
                "release function rel of handle h takes [i32]", "expected exactly one parameter of type h");
        assertError(HEAD + "types:\n  cb: {callback: {params: [[f32, x]], user_data: x}}\n", "5:29",
                "user_data parameter x of callback cb has type f32");
    }

    @Test
    void aBatchableStatusABatchCannotCheck() {
        assertError(HEAD + "errors:\n  st: {type: i32, success: [0, 2]}\nfunctions:\n  - name: f\n    returns: {type: i32, status: st}\n"
                + "    batchable: true\n", "8:21", "success codes [0, 2] of status convention st", "not one contiguous range");
    }

    @Test
    void namesJavaOrCCannotUse() {
        assertError(HEAD + "constants:\n  class: 1\n", "5:3", "constant 'class' is a Java keyword");
        assertError(HEAD + "functions:\n  - {name: f, params: [[i32, int]]}\n", "5:25", "parameter name 'int' is a C keyword");
        assertError("format: 1\nlibrary: t\n", "1:1", "no package", "expected package: org.example.t");
        assertError("format: 1\nlibrary: t\npackage: org.example.new\n", "1:1", "Java keyword 'new'");
    }

    @Test
    void aJavaKeywordAsFunctionNameIsSkippedWithItsReason() {
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(HEAD + "functions:\n  - {name: native}\n  - {name: ok}\n", "t.yaml"));
        assertEquals(1, g.plan().rawFunctions().size());
        assertEquals("native", g.plan().skipped().getFirst().function());
        assertTrue(g.report().content().contains("native [raw, typed, thunk]: 'native' is a Java keyword"), g.report().content());
    }

    @Test
    void notYamlIsAnErrorWithAPlace() {
        assertError(HEAD + "functions: [\n", "5:1", "not valid YAML");
    }
}

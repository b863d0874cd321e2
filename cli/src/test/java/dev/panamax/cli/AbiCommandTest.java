package dev.panamax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class AbiCommandTest {
    static final String DECLS = """
            format: 1
            library: demo
            package: org.example.demo
            types:
              Point: {struct: [[f32, x], [f32, y]]}
              NSRange: {struct: [[u64, location], [u64, length]]}
            functions:
              - {name: wrap, returns: ptr, params: [[Point, p]]}
              - {name: range, returns: NSRange, params: [[i32, loc]]}
              - {name: reset}
              - {name: add, returns: i32, params: [[i32, a], [i32, b]]}
            """;

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void printsTheClassificationAsJson(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("demo.yaml"), DECLS);
        Run r = run("abi", f.toString(), "wrap");
        assertEquals(0, r.exit(), r.err());
        assertEquals("{\"mode\": \"VOID_PTR\", \"leaf\": \"G\", \"block\": {\"size\": 8, \"align\": 8, \"return\": null,"
                + " \"params\": [{\"name\": \"p\", \"offset\": 0, \"size\": 8}]}}\n", r.out());
        assertEquals("{\"mode\": \"STRUCT\", \"leaf\": \"STRUCT\", \"block\": {\"size\": 24, \"align\": 8, \"return\":"
                + " {\"offset\": 0, \"size\": 16}, \"params\": [{\"name\": \"loc\", \"offset\": 16, \"size\": 4}]}}\n",
                run("abi", f.toString(), "range").out());
        assertEquals("{\"mode\": \"VOID\", \"leaf\": \"VOID\", \"block\": {\"size\": 0, \"align\": 1, \"return\": null,"
                + " \"params\": []}}\n", run("abi", f.toString(), "reset").out());
    }

    @Test
    void errorsGoToStderrWithANonZeroExit(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("demo.yaml"), DECLS);
        Run missing = run("abi", f.toString(), "nope");
        assertNotEquals(0, missing.exit());
        assertEquals("", missing.out());
        assertTrue(missing.err().contains("function 'nope' is not declared") && missing.err().contains("wrap, range"), missing.err());

        Path bad = Files.writeString(dir.resolve("bad.yaml"), "format: 1\nlibrary: x\nfunctions:\n  - {name: f, returns: u33}\n");
        Run r = run("abi", bad.toString(), "f");
        assertNotEquals(0, r.exit());
        assertTrue(r.err().contains("bad.yaml:4:24: unknown type 'u33'"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());

        Run noFile = run("abi", dir.resolve("absent.yaml").toString(), "f");
        assertNotEquals(0, noFile.exit());
        assertTrue(noFile.err().contains("cannot read"), noFile.err());
    }

    /** A file bindgen refuses past parsing (planning: names, limits) is refused by abi with the same message. */
    @Test
    void refusesExactlyWhatBindgenRefuses(@TempDir Path dir) throws IOException {
        String[] refusedByThePlan = {
                DECLS.replace("package: org.example.demo\n", ""),                          // no package
                DECLS.replace("library: demo", "library: demo\nclass: int"),              // a keyword as the class
                DECLS.replace("Point: {struct", "DemoApi: {struct").replace("[Point, p]", "[DemoApi, p]"),   // a clash
        };
        for (String text : refusedByThePlan) {
            Path f = Files.writeString(dir.resolve("refused.yaml"), text);
            Run bindgen = run("bindgen", f.toString(), "--out", dir.resolve("out").toString());
            Run abi = run("abi", f.toString(), "add");
            assertEquals(1, bindgen.exit(), bindgen.err());
            assertEquals(1, abi.exit(), abi.err());
            assertEquals(bindgen.err().replace("panamax bindgen: ", ""), abi.err().replace("panamax abi: ", ""));
            assertTrue(abi.err().startsWith("panamax abi: " + f + ":"), abi.err());
        }
    }
}

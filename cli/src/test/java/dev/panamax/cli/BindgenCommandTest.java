package dev.panamax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class BindgenCommandTest {
    static final String DECLS = """
            format: 1
            library: demo
            package: org.example.demo
            types:
              Point: {struct: [[f32, x], [f32, y]]}
            functions:
              - {name: mid, returns: Point, params: [[Point, a], [Point, b]], batchable: true}
              - {name: add, returns: i32, params: [[i32, a], [i32, b]], tier: critical}
            """;

    @Test
    void writesSourcesGlueAndReport(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("demo.yaml"), DECLS);
        Path out = dir.resolve("out");
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("demo: 2 raw, 2 typed, 1 thunks, 0 skipped"), r.out());
        assertTrue(Files.readString(out.resolve("java/org/example/demo/Demo.java")).contains("public static int add(int a, int b)"));
        assertTrue(Files.exists(out.resolve("java/org/example/demo/DemoApi.java")));
        assertTrue(Files.exists(out.resolve("java/org/example/demo/Point.java")));
        assertTrue(Files.readString(out.resolve("c/pmx_thunks_demo.c")).contains("pmx_thunk_mid"));
        assertTrue(Files.readString(out.resolve("bindgen-demo.txt")).contains("add  tier=critical raw typed"));
    }

    @Test
    void anOutputPathThatIsAFileIsRefusedNamingIt(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("demo.yaml"), DECLS);
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", f.toString());
        assertEquals(2, r.exit(), r.out());
        assertTrue(r.err().startsWith("panamax bindgen: --out " + f + ": it exists and is not a directory; expected the directory"), r.err());
        assertEquals(DECLS, Files.readString(f), "the declarations file is left as it was");
    }

    @Test
    void aBadFileIsOneLineWithItsPlace(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("bad.yaml"), DECLS.replace("tier: critical", "tier: fast"));
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", dir.resolve("out").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("panamax bindgen: " + f + ":8:"), r.err());
        assertTrue(r.err().contains("tier 'fast'; expected one of [standard, critical, critical_heap]"), r.err());
        assertFalse(Files.exists(dir.resolve("out/java")), "nothing is written for a bad file");
    }

    @Test
    void headerFlagChecksEveryDeclarationAgainstTheHeaderWithGcc(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("demo.h"), "typedef struct { float x, y; } Point;\nPoint mid(Point a, Point b);\nint add(int a, double b);\n");
        Path f = Files.writeString(dir.resolve("demo.yaml"), DECLS);
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", dir.resolve("out").toString(),
                "--header", dir.resolve("demo.h").toString());
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.err().contains(f + ":8:"), r.err());
        assertTrue(r.err().contains("function add parameter 2 (b): declared i32, the header has double"), r.err());
        assertFalse(Files.exists(dir.resolve("out/java")), "nothing is generated from a file its header contradicts");

        Files.writeString(dir.resolve("demo.h"), "typedef struct { float x, y; } Point;\nPoint mid(Point a, Point b);\nint add(int a, int b);\n");
        r = AbiCommandTest.run("bindgen", f.toString(), "--out", dir.resolve("out").toString(), "--header", dir.resolve("demo.h").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("facts agree"), r.out());
    }

    @Test
    void importWritesADeclarationsFileFromAHeader(@TempDir Path dir) throws IOException {
        Path h = Files.writeString(dir.resolve("demo.h"), "typedef struct demo demo;\nint demo_open(const char *name, demo **out);\nint demo_sum(int (*f)(int, ...), ...);\n");
        Path out = dir.resolve("demo.yaml");
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", "import", h.toString(), "--library", "demo", "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("demo: 1 functions"), r.out());
        assertTrue(r.out().contains("skipped demo_sum (function, " + h + ":3:5): variadic"), r.out());
        assertTrue(Files.readString(out).contains("- [demo*, out]   # annotate: dir, ownership"), Files.readString(out));
        r = AbiCommandTest.run("bindgen", "import", h.toString(), "--library", "demo", "--filter", "^zz", "--out", dir.resolve("x.yaml").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("panamax bindgen import: --filter '^zz' matches nothing"), r.err());
    }
}

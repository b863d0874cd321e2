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
    void aBadFileIsOneLineWithItsPlace(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("bad.yaml"), DECLS.replace("tier: critical", "tier: fast"));
        AbiCommandTest.Run r = AbiCommandTest.run("bindgen", f.toString(), "--out", dir.resolve("out").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("panamax bindgen: " + f + ":8:"), r.err());
        assertTrue(r.err().contains("tier 'fast'; expected one of [standard, critical, critical_heap]"), r.err());
        assertFalse(Files.exists(dir.resolve("out/java")), "nothing is written for a bad file");
    }
}

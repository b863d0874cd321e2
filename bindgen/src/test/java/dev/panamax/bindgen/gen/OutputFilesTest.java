package dev.panamax.bindgen.gen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.*;

/** Generated files are written only when their bytes change, and files no longer generated are removed. */
class OutputFilesTest {
    @Test
    void unchangedFilesAreNotRewrittenAndStaleOnesAreDeleted(@TempDir Path out) throws Exception {
        Path java = out.resolve("java");
        Path c = out.resolve("c");
        Bindgen.Generation g = Bindgen.run(GoldenTest.DEMO, java, c, out);
        Path raw = java.resolve("org/example/demo/Demo.java");
        Path header = c.resolve("pmx_thunks_demo.h");
        FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(raw, old);
        Files.setLastModifiedTime(header, old);
        Path stale = java.resolve("org/example/demo/Gone.java");
        Files.writeString(stale, Source.HEADER + "demo.yaml\nclass Gone {}\n");
        Path mine = java.resolve("org/example/demo/Mine.java");
        Files.writeString(mine, "package org.example.demo;\nclass Mine {}\n");

        Bindgen.run(GoldenTest.DEMO, java, c, out);
        assertEquals(old, Files.getLastModifiedTime(raw), "an unchanged file was rewritten");
        assertEquals(old, Files.getLastModifiedTime(header), "an unchanged C file was rewritten");
        assertFalse(Files.exists(stale), "a generated file no longer generated stays behind");
        assertTrue(Files.exists(mine), "a file bindgen did not write was deleted");
        assertTrue(Files.exists(out.resolve(g.report().path())));

        Files.writeString(raw, "changed by hand");
        Bindgen.run(GoldenTest.DEMO, java, c, out);
        assertTrue(Files.readString(raw).startsWith(Source.HEADER), "a changed file is restored");
    }
}

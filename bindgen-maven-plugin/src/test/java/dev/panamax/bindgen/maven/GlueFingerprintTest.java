package dev.panamax.bindgen.maven;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class GlueFingerprintTest {
    static final List<String> FLAGS = List.of("-O2", "-fPIC", "-std=gnu11", "-Wall");
    static final GlueFingerprint BASE = GlueFingerprint.of("gcc", FLAGS, List.of("-lz"), "header", "source");

    @Test
    void theSameInputsGiveTheSameDigest() {
        assertEquals(BASE, GlueFingerprint.of("gcc", List.copyOf(FLAGS), List.of("-lz"), "header", "source"));
    }

    @Test
    void everyInputChangesTheDigest() {
        List<GlueFingerprint> changed = List.of(
                GlueFingerprint.of("clang", FLAGS, List.of("-lz"), "header", "source"),
                GlueFingerprint.of("gcc", List.of("-O3", "-fPIC", "-std=gnu11", "-Wall"), List.of("-lz"), "header", "source"),
                GlueFingerprint.of("gcc", FLAGS, List.of("-l:libz.so.1"), "header", "source"),
                GlueFingerprint.of("gcc", FLAGS, List.of("-lz"), "header2", "source"),
                GlueFingerprint.of("gcc", FLAGS, List.of("-lz"), "header", "source2"),
                // parts do not run into each other
                GlueFingerprint.of("gcc", FLAGS, List.of("-lz"), "headers", "ource"));
        for (GlueFingerprint f : changed) assertNotEquals(BASE, f);
        assertEquals(changed.size(), changed.stream().distinct().count());
    }

    @Test
    void aLibraryIsUpToDateOnlyWhenItExistsAndItsStampMatches(@TempDir Path dir) throws IOException {
        Path library = dir.resolve("libpanamax_glue_z.so");
        Path stamp = dir.resolve("libpanamax_glue_z.so.inputs");
        assertFalse(BASE.builtInto(library, stamp), "nothing built yet");
        Files.writeString(library, "elf");
        assertFalse(BASE.builtInto(library, stamp), "a library with no record of its inputs is rebuilt");
        BASE.record(stamp);
        assertTrue(BASE.builtInto(library, stamp));
        assertFalse(GlueFingerprint.of("gcc", List.of("-O0"), List.of("-lz"), "header", "source").builtInto(library, stamp),
                "other flags rebuild it");
        Files.delete(library);
        assertFalse(BASE.builtInto(library, stamp), "a deleted library is rebuilt whatever its stamp says");
    }
}

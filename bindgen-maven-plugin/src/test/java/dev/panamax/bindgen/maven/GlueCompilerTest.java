package dev.panamax.bindgen.maven;

import dev.panamax.bindgen.gen.Bindgen;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.batch.ParamBlock;
import dev.panamax.core.batch.Thunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The glue library records nothing of the machine that built it: no run path, no dependency by absolute
 * path (even when the bound library is given as one), no directory of the build in its bytes (even with
 * debug information), so a jar built here runs where the bound library is installed elsewhere.
 */
class GlueCompilerTest {
    @Test
    void theGlueNamesNoPathOfTheBuildMachine(@TempDir Path tmp) throws Exception {
        Path libm = mappedLibrary("libm.so.6");
        Path build = tmp.resolve("a-build-directory-of-this-machine");
        Path cDir = build.resolve("c");
        Path yaml = build.resolve("m.yaml");
        Files.createDirectories(cDir);
        Files.writeString(yaml, "format: 1\nlibrary: m\nsonames: [" + libm + "]\npackage: org.example.m\n"
                + "functions:\n  - {name: cos, returns: f64, params: [[f64, x]], batchable: true}\n");
        Bindgen.Generation g = Bindgen.run(yaml, build.resolve("java"), cDir, build);
        String source = g.c().stream().map(Bindgen.GeneratedFile::path).filter(f -> f.endsWith(".c")).findFirst().orElseThrow();
        Path library = build.resolve("native").resolve(g.plan().glueLibraryFile());
        Files.createDirectories(library.getParent());

        // with debug information too, which records directories unless they are mapped away
        GlueCompiler gcc = new GlueCompiler("gcc", List.of("-O2", "-fPIC", "-std=gnu11", "-Wall", "-g"), w -> { });
        assertNull(gcc.compile(cDir, source, library, libm.toString()));

        String dynamic = run("readelf", "-d", library.toString());
        assertFalse(dynamic.contains("(RPATH)") || dynamic.contains("(RUNPATH)"), dynamic);
        List<String> needed = dynamic.lines().filter(l -> l.contains("(NEEDED)")).toList();
        assertTrue(needed.stream().anyMatch(l -> l.contains("[libm.so.6]")), "libm by its soname:\n" + dynamic);
        for (String l : needed) assertFalse(l.contains("/"), "a dependency by path: " + l);

        String bytes = new String(Files.readAllBytes(library), StandardCharsets.ISO_8859_1);
        assertFalse(bytes.contains(build.toString()), "the build directory is in the glue");
        assertFalse(bytes.contains(tmp.toString()), "the temporary directory is in the glue");
        assertFalse(bytes.contains("/" + source), "the source is named by a path");
        assertTrue(bytes.contains(source), "the source is named by its file name (symbols, debug information)");

        // and it runs: the thunk calls libm's cos, which the loader found by soname
        SymbolLookup glue = SymbolLookup.libraryLookup(library, Arena.global());
        Thunk cos = Thunk.find(glue, new CFunction("cos", CFunctionType.of(CType.F64, "x", CType.F64)));
        try (Arena arena = Arena.ofConfined()) {
            ParamBlock b = cos.newBlock(arena).setDouble(0, 0.0);
            cos.invoke(b);
            assertEquals(1.0, b.returnDouble());
        }
    }

    @Test
    void aLibraryGivenAsAPathIsLinkedByItsDirectoryAndFileName() {
        assertEquals(List.of("-L/opt/vendor/lib", "-l:libfoo.so.2"), GlueCompiler.linkOptions("/opt/vendor/lib/libfoo.so.2"));
        assertEquals(List.of("-l:libOpenCL.so.1"), GlueCompiler.linkOptions("-l:libOpenCL.so.1"));
        assertEquals(List.of("-lz"), GlueCompiler.linkOptions("-lz"));
    }

    /** The file this JVM mapped for {@code soname} (where this machine keeps it). */
    private static Path mappedLibrary(String soname) throws Exception {
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            return maps.map(l -> l.substring(l.lastIndexOf(' ') + 1)).filter(f -> f.endsWith("/" + soname)).findFirst()
                    .map(Path::of).orElseThrow(() -> new IllegalStateException(soname + " is not mapped in this JVM"));
        }
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(cmd))).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}

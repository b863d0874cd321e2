package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Pins the generated sources of a small declarations file ({@code golden/demo.yaml}) byte for byte.
 * After an intended change of the output, regenerate the expected files with
 * {@code mvn verify -pl bindgen -am -Dtest=GoldenTest -Dpanamax.golden.update=true} and review the diff.
 */
class GoldenTest {
    static final Path DEMO = Path.of("src/test/resources/golden/demo.yaml");
    static final Path EXPECTED = Path.of("src/test/resources/golden/demo");

    static List<Bindgen.GeneratedFile> generated() {
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(DEMO));
        List<Bindgen.GeneratedFile> all = new ArrayList<>();
        for (Bindgen.GeneratedFile f : g.java()) all.add(new Bindgen.GeneratedFile("java/" + f.path() + ".txt", f.content()));
        for (Bindgen.GeneratedFile f : g.c()) all.add(new Bindgen.GeneratedFile("c/" + f.path() + ".txt", f.content()));
        all.add(new Bindgen.GeneratedFile(g.report().path() + ".txt", g.report().content()));
        return all;
    }

    @Test
    void generatedSourcesMatchTheGoldenFiles() throws IOException {
        List<Bindgen.GeneratedFile> files = generated();
        if (Boolean.getBoolean("panamax.golden.update")) {
            try (Stream<Path> old = Files.exists(EXPECTED) ? Files.walk(EXPECTED) : Stream.empty()) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
            for (Bindgen.GeneratedFile f : files) {
                Path p = EXPECTED.resolve(f.path());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.content(), StandardCharsets.UTF_8);
            }
        }
        List<String> expectedPaths;
        try (Stream<Path> s = Files.walk(EXPECTED)) {
            expectedPaths = s.filter(Files::isRegularFile).map(p -> EXPECTED.relativize(p).toString()).sorted().toList();
        }
        assertEquals(expectedPaths, files.stream().map(Bindgen.GeneratedFile::path).sorted().toList(), "generated file set");
        for (Bindgen.GeneratedFile f : files) {
            String expected = Files.readString(EXPECTED.resolve(f.path()), StandardCharsets.UTF_8);
            assertEquals(expected, f.content(), "generated " + f.path() + " differs from its golden file"
                    + " (regenerate with -Dpanamax.golden.update=true after an intended change)");
        }
    }

    @Test
    void generationIsDeterministic() {
        assertEquals(generated(), generated());
    }

    @Test
    void goldenSourcesCompile(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(DEMO));
        InProcessCompiler.Outcome o = InProcessCompiler.compile(g.java(), tmp);
        assertEquals(List.of(), o.errors());
    }
}

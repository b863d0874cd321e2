package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A library of thousands of functions generates code that compiles (javac: no class over the JVM's
 * limits on code per method, constants per class, methods per class) and runs. The size is
 * {@code -Dpanamax.scale.functions=N} (default 2,000, where one class file no longer held the raw layer; {@code ./panamax bench bindgen} compiles 20,000).
 */
class ScaleTest {
    static final int FUNCTIONS = Integer.getInteger("panamax.scale.functions", 2_000);

    @Test
    void thousandsOfFunctionsCompileAndCall(@TempDir Path tmp) throws Exception {
        Path yaml = tmp.resolve("scale.yaml");
        Files.writeString(yaml, SyntheticLibrary.yaml(FUNCTIONS));
        Bindgen.Generation g = Bindgen.generate(DeclarationsParser.parse(yaml));
        InProcessCompiler.Outcome out = InProcessCompiler.compile(g.java(), tmp.resolve("classes"));
        assertTrue(out.ok(), () -> String.join("\n", out.errors().subList(0, Math.min(20, out.errors().size()))));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {out.classes().toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> raw = Class.forName("org.example.scale.Scale", true, loader);
            Class<?> typed = Class.forName("org.example.scale.ScaleApi", true, loader);
            assertEquals(3, raw.getMethod("abs", int.class).invoke(null, -3));
            assertEquals(5L, typed.getMethod("labs", long.class).invoke(null, -5L));
            assertEquals((FUNCTIONS - 1) * 7, raw.getField("SC_C" + (FUNCTIONS - 1)).get(null));
        }
    }
}

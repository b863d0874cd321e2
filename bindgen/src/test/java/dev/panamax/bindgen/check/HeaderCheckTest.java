package dev.panamax.bindgen.check;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderCheckTest {
    @TempDir
    Path dir;

    private Path file(String yaml) throws IOException, URISyntaxException {
        Path src = Path.of(getClass().getResource("/check/shapes.h").toURI());
        Files.copy(src, dir.resolve("shapes.h"));
        Path f = dir.resolve("shapes.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static String original() throws IOException {
        try (var in = HeaderCheckTest.class.getResourceAsStream("/check/shapes.yaml")) {
            return new String(in.readAllBytes());
        }
    }

    private HeaderCheck.Result check(Path f) {
        Declarations d = DeclarationsParser.parse(f);
        return HeaderCheck.run(d, HeaderCheck.headers(d, List.of()), dir.resolve("check"), "g++");
    }

    @Test
    void declarationsThatAgreeWithTheHeaderPass() throws Exception {
        HeaderCheck.Result r = check(file(original()));
        assertTrue(r.checks() > 40, "checks: " + r.checks());
        assertTrue(Files.readString(r.source()).contains("template struct pmx::type<"));
    }

    @Test
    void f32DeclaredWhereTheHeaderSaysDoubleFailsWithBothTypesAndTheLine() throws Exception {
        Path f = file(original().replace("params: [[f32, factor], [f64, exact]]", "params: [[f32, factor], [f32, exact]]"));
        DeclarationsException e = assertThrows(DeclarationsException.class, () -> check(f));
        assertEquals(f + ":28:30: 1 declaration differs from the headers [shapes.h]: function shapes_scale parameter 2 (exact):"
                + " declared f32, the header has double", e.getMessage());
    }

    @Test
    void everyDifferenceIsListedAtItsLine() throws Exception {
        Path f = file(original()
                .replace("returns: f32\n", "returns: f64\n")
                .replace("SHAPES_MASK: 19", "SHAPES_MASK: 18")
                .replace("[u8[4], flags]", "[u16[4], flags]")
                .replace("shapes_value: {union: [[i32, i], [f32, f]]}", "shapes_value: {union: [[i64, i], [f32, f]]}")
                .replace("params: [[char*, name], [shapes_canvas*, out]]", "params: [[char*, name]]")
                .replace("  - name: shapes_mid\n", "  - name: shapes_gone\n    params: [[i32, x]]\n  - name: shapes_mid\n"));
        String m = assertThrows(DeclarationsException.class, () -> check(f)).getMessage();
        assertTrue(m.contains("function shapes_open: declared 1 parameters, the header has 2"), m);
        assertTrue(m.contains("function shapes_scale result: declared f64, the header has float"), m);
        assertTrue(m.contains("function shapes_gone: declared 1 parameters, the headers do not declare it"), m);
        assertTrue(m.contains("union shapes_value size: declared 8, the header has 4"), m);
        assertTrue(m.contains("struct shapes_rect field flags size: declared u16[4], 8 bytes, the header has 4"), m);
        assertTrue(m.contains("constant SHAPES_MASK: declared 18, the header has 19"), m);
        assertTrue(m.contains(f + ":12:"), m);   // each at its line
    }

    @Test
    void aMissingHeaderIsAnError() throws Exception {
        Path f = file(original().replace("headers: [shapes.h]", "headers: [nope.h]"));
        String m = assertThrows(DeclarationsException.class, () -> check(f)).getMessage();
        assertTrue(m.contains("header not found: nope.h"), m);
    }
}

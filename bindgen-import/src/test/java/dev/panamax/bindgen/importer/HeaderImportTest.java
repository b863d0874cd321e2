package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.gen.Bindgen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderImportTest {
    @TempDir
    Path dir;

    static Path header(String name) {
        try {
            return Path.of(HeaderImportTest.class.getResource("/headers/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path copy(String name) throws IOException {
        Path h = dir.resolve(name);
        Files.copy(header(name), h);
        return h;
    }

    private static ImportOptions options(Path header, String filter) {
        return new ImportOptions(List.of(header), "shapes", List.of(), List.of(),
                filter == null ? null : Pattern.compile(filter), "org.example.shapes");
    }

    @Test
    void importsFunctionsTypesConstantsCallbacksAndHandles() throws IOException {
        Path out = dir.resolve("shapes.yaml");
        HeaderImport.Result r = HeaderImport.run(options(copy("shapes.h"), null), out);
        Declarations d = DeclarationsParser.parse(out);   // what it writes parses and validates
        assertEquals("shapes", d.library());
        assertEquals(List.of("shapes.h"), d.headers());
        Map<String, TypeDecl> t = d.types();
        assertEquals("i32", ((TypeDecl.Alias) t.get("shapes_status")).target().spelling());
        assertInstanceOf(TypeDecl.Handle.class, t.get("shapes_canvas"));           // typedef struct X X, used as X *
        assertInstanceOf(TypeDecl.Handle.class, t.get("shapes_brush"));            // typedef struct _X *X
        assertEquals("[f32 x, f32 y]", fields(t.get("shapes_point")));
        assertEquals("[i32 i, f32 f]", fields(t.get("shapes_value")));
        assertInstanceOf(TypeDecl.Union.class, t.get("shapes_value"));
        assertEquals("[shapes_point origin, shapes_point size, u8[4] flags]", fields(t.get("shapes_rect")));
        TypeDecl.Callback done = (TypeDecl.Callback) t.get("shapes_done");
        assertEquals("user_data", done.userData());
        assertEquals(3L, d.constants().get("SHAPES_VERSION").value());
        assertEquals(19L, d.constants().get("SHAPES_MASK").value());
        assertEquals(4294967296L, d.constants().get("SHAPES_BIG").value());
        assertEquals(0.5, d.constants().get("SHAPES_HALF").value());
        assertEquals(-4L, d.constants().get("SHAPES_BLUE").value());
        assertEquals("f32 shapes_scale(f32 factor, f64 exact)", signature(d, "shapes_scale"));
        assertEquals("shapes_status shapes_open(char* name, shapes_canvas* out)", signature(d, "shapes_open"));
        assertEquals("i32 shapes_visit(shapes_canvas canvas, shapes_visit_visitor visitor, ptr ctx)", signature(d, "shapes_visit"));
        assertEquals("void shapes_close(shapes_canvas canvas)", signature(d, "shapes_close"));

        Map<String, String> skipped = r.skipped().stream().collect(Collectors.toMap(Skipped::name, Skipped::reason));
        assertTrue(skipped.get("shapes_printf").startsWith("variadic"), skipped.toString());
        assertTrue(skipped.get("shapes_precise").startsWith("long double"), skipped.toString());
        assertTrue(skipped.get("shapes_packed_bits").contains("bitfield a"), skipped.toString());
        assertTrue(skipped.get("shapes_bits").contains("bitfield a"), skipped.toString());
        assertTrue(skipped.get("shapes_tagged").contains("anonymous nested union"), skipped.toString());
        assertTrue(skipped.get("shapes_twice").startsWith("static"), skipped.toString());
        assertTrue(skipped.get("SHAPES_NAME").contains("string"), skipped.toString());
        assertTrue(r.skipped().stream().allMatch(s -> s.place().contains("shapes.h:")), r.skipped().toString());

        // each place a person must decide is marked
        String text = Files.readString(out);
        assertTrue(text.contains("- [shapes_canvas*, out]   # annotate: dir, ownership"), text);
        assertTrue(text.contains("shapes_canvas: {handle: opaque, ownership: borrowed}   # annotate: release"), text);
        assertTrue(text.contains("returns: shapes_status   # annotate: status"), text);

        // and bindgen generates from it
        Bindgen.Generation g = Bindgen.generate(d);
        assertEquals(d.functions().size(), g.plan().rawFunctions().size());
    }

    @Test
    void reimportKeepsAnnotationsAndReportsWhatTheHeaderChanged() throws IOException {
        Path h = copy("shapes.h");
        Path out = dir.resolve("shapes.yaml");
        HeaderImport.run(options(h, "^(shapes|SHAPES)_"), out);
        // a person annotates
        String text = Files.readString(out)
                .replace("shapes_canvas: {handle: opaque, ownership: borrowed}   # annotate: release, retain (to own these handles)",
                        "shapes_canvas: {handle: opaque, release: shapes_close}")
                .replace("returns: shapes_status   # annotate: status", "returns: {type: shapes_status, status: shapes_err}")
                .replace("- [shapes_canvas*, out]   # annotate: dir, ownership, length, nullable", "- {name: out, type: shapes_canvas*, dir: out}")
                .replace("- [f32*, values]   # annotate: dir, length, nullable", "- {name: values, type: f32*, length: count}")
                .replace("\nfunctions:\n", "\nerrors:\n  shapes_err: {type: i32, success: [0]}\n\nfunctions:\n    # checked\n".replace("    # checked\n", ""));
        text = "# Shapes: annotated by hand.\n" + text;
        Files.writeString(out, text);
        DeclarationsParser.parse(out);
        // the header changes: one function gone, one new, a parameter float -> double, a constant's value
        Files.writeString(h, Files.readString(h)
                .replace("float shapes_scale(float factor, double exact);", "float shapes_scale(double factor, double exact);")
                .replace("void shapes_close(shapes_canvas *canvas);", "void shapes_close(shapes_canvas *canvas);\nint shapes_count(shapes_canvas *canvas);")
                .replace("shapes_point shapes_mid(shapes_point a, shapes_point b);", "")
                .replace("#define SHAPES_VERSION 3", "#define SHAPES_VERSION 4"));
        HeaderImport.Result r = HeaderImport.run(options(h, "^(shapes|SHAPES)_"), out);
        assertNull(r.problem());
        assertEquals(List.of("function shapes_count"), r.changes().added());
        assertEquals(List.of("function shapes_mid"), r.changes().removed());
        assertEquals(List.of("constant SHAPES_VERSION: 3 -> 4", "constant SHAPES_MASK: 19 -> 20",
                        "function shapes_scale: parameter 1 factor: f32 -> f64"),
                r.changes().changed());
        String after = Files.readString(out);
        assertTrue(after.startsWith("# Shapes: annotated by hand.\n"), after);
        assertTrue(after.contains("shapes_canvas: {handle: opaque, release: shapes_close}\n"), after);
        assertTrue(after.contains("returns: {type: shapes_status, status: shapes_err}"), after);
        assertTrue(after.contains("- {name: out, type: shapes_canvas*, dir: out}\n"), after);
        assertTrue(after.contains("- {name: values, type: f32*, length: count}\n"), after);
        assertTrue(after.contains("shapes_err:"), after);
        Declarations d = DeclarationsParser.parse(out);
        assertEquals("f32 shapes_scale(f64 factor, f64 exact)", signature(d, "shapes_scale"));
        assertFalse(d.function("shapes_mid").isPresent());

        // the same header again: nothing changes, the file is byte-equal
        HeaderImport.Result again = HeaderImport.run(options(h, "^(shapes|SHAPES)_"), out);
        assertTrue(again.changes().isEmpty(), again.changes().lines().toString());
        assertEquals(after, Files.readString(out));
    }

    @Test
    void headersThatDoNotParseAreReportedWithFileLineAndColumn() throws IOException {
        Path h = copy("broken.h");
        ImportException e = assertThrows(ImportException.class, () -> HeaderImport.run(options(h, null), dir.resolve("b.yaml")));
        assertTrue(e.getMessage().contains("broken.h:3:19: error: "), e.getMessage());
        assertFalse(Files.exists(dir.resolve("b.yaml")));
    }

    @Test
    void aMissingHeaderIncludeDirectoryOrAFilterMatchingNothingIsAnError() throws IOException {
        Path h = copy("shapes.h");
        Path out = dir.resolve("x.yaml");
        assertEquals("header not found: " + dir.resolve("nope.h"), assertThrows(ImportException.class,
                () -> HeaderImport.run(options(dir.resolve("nope.h"), null), out)).getMessage());
        assertEquals("include directory not found: " + dir.resolve("inc"), assertThrows(ImportException.class,
                () -> HeaderImport.run(new ImportOptions(List.of(h), "shapes", List.of(dir.resolve("inc")), List.of(), null, null), out))
                .getMessage());
        String m = assertThrows(ImportException.class, () -> HeaderImport.run(options(h, "^zlib_"), out)).getMessage();
        assertTrue(m.startsWith("--filter '^zlib_' matches nothing the headers declare"), m);
        assertFalse(Files.exists(out));
    }

    @Test
    void theFileIsWrittenInPlaceAtomicallyAndNeverOverADirectory() throws IOException {
        Path h = copy("shapes.h");
        Path asDirectory = Files.createDirectory(dir.resolve("taken.yaml"));
        Files.writeString(asDirectory.resolve("inside.txt"), "kept");
        java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class,
                () -> HeaderImport.run(options(h, null), asDirectory));
        assertTrue(e.getMessage().contains("it exists and is a directory"), e.getMessage());
        assertEquals("kept", Files.readString(asDirectory.resolve("inside.txt")));

        Path out = dir.resolve("shapes.yaml");
        HeaderImport.run(options(h, null), out);
        long modified = Files.getLastModifiedTime(out).toMillis();
        HeaderImport.run(options(h, null), out);   // nothing changed: the file is not written again
        assertEquals(modified, Files.getLastModifiedTime(out).toMillis());
        try (var files = Files.list(dir)) {
            assertEquals(List.of("shapes.h", "shapes.yaml", "taken.yaml"), files.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void definesReachThePreprocessor() throws IOException {
        Path h = dir.resolve("cfg.h");
        Files.writeString(h, "#ifdef WIDE\ntypedef long long cfg_int;\n#else\ntypedef int cfg_int;\n#endif\ncfg_int cfg_get(void);\n");
        Path out = dir.resolve("cfg.yaml");
        HeaderImport.run(new ImportOptions(List.of(h), "cfg", List.of(), List.of("WIDE=1"), null, null), out);
        assertEquals("i64", ((TypeDecl.Alias) DeclarationsParser.parse(out).types().get("cfg_int")).target().spelling());
    }

    private static String fields(TypeDecl t) {
        List<dev.panamax.bindgen.decl.Field> fs = switch (t) {
            case TypeDecl.Struct s -> s.fields();
            case TypeDecl.Union s -> s.fields();
            default -> throw new AssertionError(t);
        };
        return fs.stream().map(f -> f.type().spelling() + " " + f.name()).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String signature(Declarations d, String name) {
        var f = d.function(name).orElseThrow();
        return f.returns().type().spelling() + " " + name + f.params().stream().map(p -> p.type().spelling() + " " + p.name())
                .collect(Collectors.joining(", ", "(", ")"));
    }
}

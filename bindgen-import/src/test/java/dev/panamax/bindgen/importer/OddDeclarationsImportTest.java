package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.TypeDecl;
import dev.panamax.bindgen.gen.Bindgen;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * odd.h holds declarations that are each odd in one way: 64-bit extremes, macros whose value clang
 * wraps, names that are Java keywords, YAML words or not ASCII, {@code restrict}, structs whose callback
 * takes the struct, types whose Java class another type or the generated code has. Each is imported as it is or skipped with its name, place and reason; the rest of
 * the header is imported, and bindgen generates from the file.
 */
class OddDeclarationsImportTest {
    @TempDir
    static Path dir;
    private static Path header;
    private static HeaderImport.Result result;
    private static Declarations d;
    private static Map<String, Skipped> skipped;

    @BeforeAll
    static void importOddHeader() throws IOException {
        header = dir.resolve("odd.h");
        Files.copy(HeaderImportTest.header("odd.h"), header);
        result = HeaderImport.run(new ImportOptions(List.of(header), "odd", List.of(), List.of(), null, "org.example.odd"),
                dir.resolve("odd.yaml"));
        d = DeclarationsParser.parse(result.file());
        skipped = result.skipped().stream().collect(Collectors.toMap(Skipped::name, s -> s));
    }

    private static void assertSkipped(String name, String kind, int line, String reason) throws IOException {
        Skipped s = skipped.get(name);
        assertTrue(s != null, name + " is not among the skipped: " + result.skipped());
        assertEquals(kind, s.kind());
        assertTrue(s.place().startsWith(header.toRealPath() + ":" + line + ":"), s.toString());
        assertTrue(s.reason().startsWith(reason), s.toString());
    }

    @Test
    void sixtyFourBitExtremesAreExactAndWrappedValuesAreSkipped() throws IOException {
        assertEquals(Long.MIN_VALUE, d.constants().get("ODD_MIN").value());
        assertEquals(Long.MAX_VALUE, d.constants().get("ODD_MAX").value());
        assertEquals(-1L, d.constants().get("ODD_UMAX").value());   // the 64 bits of UINT64_MAX
        assertTrue(result.text().contains("\n  ODD_UMAX: 0xffffffffffffffff\n"), result.text());
        assertTrue(result.text().contains("\n  ODD_MIN: -9223372036854775808\n"), result.text());
        assertEquals(0.5, d.constants().get("ODD_HALF").value());
        assertEquals(-1L, d.constants().get("ODD_WIDE_ALL").value());   // an enum clang makes unsigned long
        assertTrue(result.text().contains("\n  ODD_WIDE_ALL: 0xffffffffffffffff\n"), result.text());
        assertEquals(1L, d.constants().get("ODD_WIDE_ONE").value());
        assertEquals(0x80000000L, d.constants().get("ODD_TOP32").value());   // an unsigned int enum: 2^31, not sign-extended
        assertTrue(result.text().contains("\n  ODD_TOP32: 2147483648\n") || result.text().contains("\n  ODD_TOP32: 0x80000000\n"), result.text());
        assertEquals(1L, d.constants().get("ODD_TOP_ONE").value());
        assertSkipped("ODD_OVERFLOW", "constant", 7, "clang: overflow in expression; result is -9223372036854775808");
        assertSkipped("ODD_SHIFT", "constant", 8, "clang: shift count >= width of type [-Wshift-count-overflow]");
    }

    @Test
    void namesThatAreJavaKeywordsOrNotAsciiAreSkippedWhereJavaCannotUseThem() throws IOException {
        assertSkipped("null", "constant", 27, "'null' is a Java keyword");
        assertSkipped("native", "constant", 28, "'native' is a Java keyword");
        assertSkipped("ODD_\u00c9T\u00c9", "constant", 10, "the name is not an ASCII identifier");
        assertSkipped("odd_caf\u00e9", "function", 21, "the name is not an ASCII identifier");
        assertEquals(4L, d.constants().get("ODD_PLAIN").value());   // the other constant of the same enum
    }

    @Test
    void namesYamlReadsAsNullOrBooleanComeBackAsTheSameStrings() {
        assertEquals(List.of("null", "on", "class", "Off", "NULL_"),
                d.function("odd_keywords").orElseThrow().params().stream().map(p -> p.name()).toList());
        assertEquals(List.of("null", "on", "Yes"),
                ((TypeDecl.Struct) d.types().get("odd_fields")).fields().stream().map(f -> f.name()).toList());
        assertEquals("i32", ((TypeDecl.Alias) d.types().get("yes")).target().spelling());
        assertInstanceOf(TypeDecl.Struct.class, d.types().get("on"));
        assertEquals("yes", d.function("odd_yes").orElseThrow().returns().type().spelling());
        assertEquals("on", d.function("odd_yes").orElseThrow().params().getFirst().type().spelling());
    }

    @Test
    void restrictAndAStructWhoseCallbackTakesAPointerToItAreImported() {
        assertEquals("i32*", d.function("odd_restrict").orElseThrow().returns().type().spelling());
        assertEquals("char*", d.function("odd_restrict").orElseThrow().params().getFirst().type().spelling());
        TypeDecl.Callback visit = (TypeDecl.Callback) d.types().get("odd_node_visit");
        assertEquals("odd_node*", visit.params().getFirst().type().spelling());
        assertEquals("user_data", visit.userData());
        assertEquals("odd_node_visit", ((TypeDecl.Struct) d.types().get("odd_node")).fields().getFirst().type().spelling());
        assertTrue(d.function("odd_walk").isPresent());
    }

    @Test
    void aStructWhoseCallbackTakesItByValueIsSkippedWithWhatUsesIt() throws IOException {
        assertSkipped("odd_by_value", "type", 14, "the declarations format refuses it: recursive type");
        assertSkipped("odd_by_value_compare", "type", 14, "uses odd_by_value, which is skipped");
        assertSkipped("odd_sort", "function", 23, "uses odd_by_value, which is skipped");
    }

    @Test
    void typesWhoseJavaClassIsTakenAreSkippedWithWhatUsesThem() throws IOException {
        assertSkipped("Object", "type", 30, "bindgen refuses it: type Object would be the Java class Object");
        assertSkipped("odd_object", "function", 33, "uses Object, which is skipped");
        assertSkipped("OddPair", "type", 32, "bindgen refuses it: type OddPair would be the Java class OddPair, already the class of type odd_pair");
        assertSkipped("odd_pairs", "function", 34, "uses OddPair, which is skipped");
        assertInstanceOf(TypeDecl.Struct.class, d.types().get("odd_pair"));
    }

    @Test
    void aFunctionPointerReturnedWithoutATypedefIsACallbackNamedAfterTheFunction() {
        assertEquals("odd_handler_returns", d.function("odd_handler").orElseThrow().returns().type().spelling());
        assertEquals("i32", ((TypeDecl.Callback) d.types().get("odd_handler_returns")).params().getFirst().type().spelling());
    }

    @Test
    void theRestIsImportedAndBindgenGeneratesFromIt() {
        assertEquals(List.of("odd_keywords", "odd_restrict", "odd_walk", "odd_yes", "odd_plain", "odd_handler"),
                d.functions().stream().map(f -> f.name()).toList(), result.skipped().toString());
        assertEquals(13, result.skipped().size(), result.skipped().toString());
        Bindgen.Generation g = Bindgen.generate(d);
        assertEquals(6, g.plan().rawFunctions().size());
    }
}

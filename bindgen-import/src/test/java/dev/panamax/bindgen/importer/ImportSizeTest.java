package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.decl.TypeDecl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an import writes and what it asks clang to evaluate grows with the header, not exponentially:
 * function pointer typedefs built from one another and macros that double one another.
 */
class ImportSizeTest {
    @TempDir
    Path dir;

    /** {@code typedef void (*ch_f1)(ch_f0 a, ch_f0 b);} and so on, {@code levels} deep. */
    private static String typedefChain(int levels) {
        StringBuilder h = new StringBuilder("typedef void (*ch_f0)(int value);\n");
        for (int i = 1; i <= levels; i++) h.append("typedef void (*ch_f%d)(ch_f%d a, ch_f%d b);\n".formatted(i, i - 1, i - 1));
        return h.append("void ch_use(ch_f%d f);\n".formatted(levels)).toString();
    }

    private HeaderImport.Result importHeader(String name, String text, Pattern filter) throws IOException {
        Path h = dir.resolve(name + ".h");
        Files.writeString(h, text);
        return HeaderImport.run(new ImportOptions(List.of(h), name, List.of(), List.of(), filter, "org.example." + name),
                dir.resolve(name + ".yaml"));
    }

    @Test
    void aChainOfFunctionPointerTypedefsKeepsTheirNamesAndGrowsLinearly() throws IOException {
        HeaderImport.Result eight = importHeader("chain8", typedefChain(8), null);
        HeaderImport.Result sixteen = importHeader("chain16", typedefChain(16), null);

        Declarations d = DeclarationsParser.parse(sixteen.file());
        assertEquals(17, d.types().size(), d.types().keySet().toString());   // ch_f0 .. ch_f16, nothing else
        for (int i = 1; i <= 16; i++) {
            TypeDecl.Callback c = (TypeDecl.Callback) d.types().get("ch_f" + i);
            assertEquals("ch_f" + (i - 1) + " a, ch_f" + (i - 1) + " b",
                    c.params().stream().map(p -> p.type().spelling() + " " + p.name()).collect(Collectors.joining(", ")));
        }
        assertEquals("ch_f16", d.function("ch_use").orElseThrow().params().getFirst().type().spelling());
        // eight more levels add eight lines' worth, not 2^16 - 2^8 callbacks
        long perLevel = (sixteen.text().length() - eight.text().length()) / 8;
        assertTrue(perLevel < 100, "bytes per level: " + perLevel);
        assertTrue(sixteen.text().length() < 4_000, "the 16-level file has " + sixteen.text().length() + " bytes");
    }

    @Test
    void aChainDeclaredInAnotherLibrarysHeaderIsNotExpandedEither() throws IOException {
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("chain.h"), typedefChain(16).replace("void ch_use(ch_f16 f);\n", ""));
        Path own = Files.createDirectories(dir.resolve("own"));
        Path h = own.resolve("user.h");
        Files.writeString(h, "#include \"../other/chain.h\"\nvoid us_use(ch_f16 f);\n");
        HeaderImport.Result r = HeaderImport.run(new ImportOptions(List.of(h), "user", List.of(), List.of(), null, "org.example.user"),
                own.resolve("user.yaml"));
        Declarations d = DeclarationsParser.parse(r.file());
        assertEquals(17, d.types().size(), d.types().keySet().toString());
        assertEquals("ch_f16", d.function("us_use").orElseThrow().params().getFirst().type().spelling());
        assertTrue(r.text().length() < 4_000, "the file has " + r.text().length() + " bytes");
    }

    /** {@code #define DB_D1 (DB_D0 + DB_D0)} and so on: DB_Dn expands to 2^(n+2) - 3 tokens. */
    private static String doublingMacros(int levels) {
        StringBuilder h = new StringBuilder("#define DB_D0 1\n");
        for (int i = 1; i <= levels; i++) h.append("#define DB_D%d (DB_D%d + DB_D%d)\n".formatted(i, i - 1, i - 1));
        return h.append("#define DB_KEEP 7\nint db_get(int which);\n").toString();
    }

    @Test
    void macrosThatDoubleOneAnotherAreSkippedBeforeClangExpandsThem() throws IOException {
        HeaderImport.Result r = importHeader("doubling", doublingMacros(40), null);
        Declarations d = DeclarationsParser.parse(r.file());
        // DB_D11 expands to 2^13 - 3 = 8,189 tokens, within MacroSize.LIMIT; DB_D12 to 16,381, beyond it
        for (int i = 0; i <= 11; i++) assertEquals(1L << i, d.constants().get("DB_D" + i).value(), "DB_D" + i);
        assertEquals(7L, d.constants().get("DB_KEEP").value());
        Map<String, Skipped> skipped = r.skipped().stream().collect(Collectors.toMap(Skipped::name, s -> s));
        for (int i = 12; i <= 40; i++) {
            Skipped s = skipped.get("DB_D" + i);
            assertEquals("constant", s.kind());
            assertEquals(dir.resolve("doubling.h").toRealPath() + ":" + (i + 1) + ":9", s.place());
            assertEquals("expands to more than 10000 tokens (macros that double one another?); not evaluated", s.reason());
        }
        assertEquals(29, r.skipped().size(), r.skipped().toString());
    }

    @Test
    void clangEvaluatesOnlyTheMacrosTheImportWrites() throws IOException {
        Path h = dir.resolve("kept.h");
        Files.writeString(h, doublingMacros(40));
        ImportOptions keepOne = new ImportOptions(List.of(h), "kept", List.of(), List.of(), Pattern.compile("^(DB_KEEP|db_)"), null);
        HeaderReader.Result one = HeaderReader.read(keepOne);
        assertEquals(1, one.macroTokens());   // DB_KEEP's one token; the doubling macros are never sized or expanded
        assertEquals(Map.of("DB_KEEP", 7L), one.constants().values().stream()
                .collect(Collectors.toMap(c -> c.name(), c -> c.value())));
        assertEquals(List.of(), one.skipped());

        HeaderReader.Result all = HeaderReader.read(new ImportOptions(List.of(h), "kept", List.of(), List.of(), null, null));
        // what is evaluated is the sum over the constants written, each within the limit: DB_D0..DB_D11 and DB_KEEP
        long written = 0;
        for (int i = 0; i <= 11; i++) written += (1L << (i + 2)) - 3;
        assertEquals(written + 1, all.macroTokens());
    }
}

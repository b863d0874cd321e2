package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.gen.Bindgen;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mutated headers through the importer: each either fails with an {@link ImportException} (a header
 * that does not parse, nothing to import) or gives a declarations file that parses, validates and
 * generates. Nothing else may happen: no other exception, no crash, no file bindgen refuses.
 */
class ImportFuzzTest {
    private static final String[] TYPES = {"int", "unsigned", "float", "double", "long double", "char *", "const char *",
            "void *", "struct fz_opaque *", "fz_point", "fz_union", "size_t", "long long", "unsigned char", "_Bool",
            "fz_cb", "int (*)(int, ...)", "__int128", "float _Complex", "fz_bits", "fz_point *", "const void *"};
    /** Parameter names YAML, Java or the format read as something else. */
    private static final String[] ODD_NAMES = {"null", "yes", "On", "OFF", "class", "caf\u00e9", "_", "true", "n"};
    /** Macro bodies at the edges of 64 bits, wrapped by clang, or doubling. */
    private static final String[] ODD_MACROS = {"(-9223372036854775807LL - 1)", "0xFFFFFFFFFFFFFFFFull", "(1 << 70)",
            "(9223372036854775807LL + 1)", "(FZ_TWO + FZ_TWO)", "1e308", "(1.0 / 0.0)", "'x'", "(FZ_ONE"};
    private static final String BASE = """
            #include <stddef.h>
            #define FZ_ONE 1
            #define FZ_TWO (FZ_ONE << 1)
            #define FZ_TEXT "text"
            typedef struct { float x, y; } fz_point;
            typedef union { int i; double d; } fz_union;
            typedef struct { int a : 3; } fz_bits;
            typedef struct fz_opaque fz_opaque;
            typedef int (*fz_cb)(void *user_data, int value);
            enum fz_kind { FZ_A, FZ_B = 7 };
            struct fz_pair { fz_point p; int tag; unsigned char bytes[8]; };
            int fz_f0(int a, float b);
            double fz_f1(fz_point p, fz_opaque *o);
            void fz_f2(fz_cb cb, void *user_data);
            fz_opaque *fz_f3(const char *name, size_t n);
            """;

    @TempDir
    Path dir;

    @Test
    void mutatedHeadersImportToFilesBindgenAcceptsOrFailWithAClearError() throws IOException {
        Random random = new Random(20261124);
        int imported = 0;
        int refused = 0;
        int iterations = 120;
        for (int i = 0; i < iterations; i++) {
            String header = mutate(BASE, random);
            Path h = dir.resolve("fz" + i + ".h");
            Files.writeString(h, header);
            Path out = dir.resolve("fz" + i + ".yaml");
            try {
                HeaderImport.run(new ImportOptions(List.of(h), "fz", List.of(), List.of(), null, "org.example.fz"), out);
            } catch (ImportException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
                refused++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("import of this header threw " + e + ":\n" + header, e);
            }
            try {
                Declarations d = DeclarationsParser.parse(out);
                Bindgen.generate(d);
            } catch (DeclarationsException e) {
                fail("the import of this header does not validate: " + e.getMessage() + "\n" + header + "\n"
                        + Files.readString(out));
            }
            imported++;
        }
        System.out.println("import fuzz: " + iterations + " headers, imported=" + imported + " refused=" + refused);
        assertTrue(imported > iterations / 3, "imported " + imported);
    }

    /**
     * One to four mutations: a type replaced, a line dropped or duplicated, a declaration added, a token
     * cut, a parameter with an odd name, a macro with an odd value.
     */
    private static String mutate(String base, Random random) {
        List<String> lines = new ArrayList<>(base.lines().toList());
        int n = 1 + random.nextInt(4);
        for (int k = 0; k < n; k++) {
            int at = 1 + random.nextInt(lines.size() - 1);
            String line = lines.get(at);
            switch (random.nextInt(8)) {
                case 0 -> lines.set(at, line.replaceFirst("\\b(int|float|double|void \\*|char \\*)\\b", TYPES[random.nextInt(TYPES.length)]));
                case 1 -> lines.remove(at);
                case 2 -> lines.add(at, line);
                case 3 -> lines.add("%s fz_g%d(%s a, %s b);".formatted(TYPES[random.nextInt(TYPES.length)], k,
                        TYPES[random.nextInt(TYPES.length)], TYPES[random.nextInt(TYPES.length)]).replace("(int (*)(int, ...) a", "(int (*a)(int, ...)"));
                case 4 -> lines.set(at, line.substring(0, random.nextInt(line.length() + 1)));
                case 5 -> lines.add("typedef struct { %s m%d; %s; } fz_s%d;".formatted(TYPES[random.nextInt(TYPES.length)], k,
                        random.nextBoolean() ? "union { int u; float v; }" : "int w : 2", k));
                case 6 -> lines.add("int fz_n%d(int %s, int %s);".formatted(k, ODD_NAMES[random.nextInt(ODD_NAMES.length)],
                        ODD_NAMES[random.nextInt(ODD_NAMES.length)]));
                default -> lines.add("#define FZ_M%d %s".formatted(k, ODD_MACROS[random.nextInt(ODD_MACROS.length)]));
            }
        }
        return String.join("\n", lines) + "\n";
    }
}

package dev.panamax.bindgen.importer;

import dev.panamax.bindgen.importing.HeaderImportReport;
import dev.panamax.bindgen.importing.HeaderImportRequest;
import dev.panamax.bindgen.importing.HeaderImporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The importer the Maven plugin's import goal finds through ServiceLoader. */
class LibclangHeaderImporterTest {
    @TempDir
    Path dir;

    private static HeaderImporter importer() {
        return ServiceLoader.load(HeaderImporter.class).findFirst().orElseThrow();
    }

    private HeaderImportRequest request(Path header, String filter, Path out) {
        return new HeaderImportRequest(List.of(header), "shapes", List.of(), List.of(),
                filter == null ? null : Pattern.compile(filter), "org.example.shapes", out);
    }

    @Test
    void theServiceIsFoundAndImportsThenReimportsWithoutChange() throws IOException {
        assertInstanceOf(LibclangHeaderImporter.class, importer());
        Path header = dir.resolve("shapes.h");
        Files.copy(HeaderImportTest.header("shapes.h"), header);
        Path out = dir.resolve("shapes.yaml");

        HeaderImportReport first = importer().importHeaders(request(header, null, out));
        assertFalse(first.reimport());
        assertTrue(first.summary().startsWith("panamax bindgen import: shapes: "), first.summary());
        assertTrue(first.changes().isEmpty(), first.changes().toString());
        String written = Files.readString(out);

        HeaderImportReport again = importer().importHeaders(request(header, null, out));
        assertTrue(again.reimport());
        assertTrue(again.changes().isEmpty(), again.changes().toString());
        assertNull(again.problem());
        assertEquals(written, Files.readString(out));
    }

    @Test
    void aFilterThatMatchesNothingIsAnIllegalArgumentNamingIt() throws IOException {
        Path header = dir.resolve("shapes.h");
        Files.copy(HeaderImportTest.header("shapes.h"), header);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> importer().importHeaders(request(header, "^nothing_here$", dir.resolve("none.yaml"))));
        assertTrue(e.getMessage().contains("^nothing_here$"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("none.yaml")));
    }

    @Test
    void aRequestWithoutHeadersIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HeaderImportRequest(List.of(), "shapes", List.of(), List.of(), null, null, dir.resolve("x.yaml")));
        assertTrue(e.getMessage().contains("no header to import"), e.getMessage());
    }
}

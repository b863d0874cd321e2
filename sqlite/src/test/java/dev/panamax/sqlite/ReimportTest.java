package dev.panamax.sqlite;

import dev.panamax.bindgen.importer.HeaderImport;
import dev.panamax.bindgen.importer.ImportOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The annotated sqlite3.yaml is what importing sqlite3.h into it gives: every annotation survives. */
class ReimportTest {
    @Test
    void importingSqlite3hAgainChangesNothing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sqlite3.yaml");
        Files.copy(Path.of("src/main/decl/sqlite3.yaml"), file);
        String before = Files.readString(file);
        HeaderImport.Result r = HeaderImport.run(new ImportOptions(List.of(Path.of("/usr/include/sqlite3.h")), "sqlite3",
                List.of(), List.of(), Pattern.compile("^(sqlite3|SQLITE_)"), "dev.panamax.sqlite.binding"), file);
        assertNull(r.problem());
        assertTrue(r.changes().isEmpty(), r.changes().lines().toString());
        assertEquals(before, Files.readString(file));
    }
}

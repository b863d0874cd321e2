package dev.panamax.clblast;

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

/** The annotated clblast.yaml is what importing clblast_c.h into it gives: every annotation survives. */
class ReimportTest {
    /** The filter the file's header comment gives. */
    private static final Pattern FILTER = Pattern.compile("^CLBlast((Sgemm|Hgemm|SgemmStridedBatched|HgemmStridedBatched|SgemmBatched|ClearCache)$"
            + "|StatusCode|Layout|Transpose|Success|OpenCL|Temp|Invalid|NotImpl|Insufficient|Missing|NoHalf|NoDouble|Database|Unknown|Unexpected)");

    @Test
    void importingClblastCHeaderAgainChangesNothing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("clblast.yaml");
        Files.copy(Path.of("src/main/decl/clblast.yaml"), file);
        String before = Files.readString(file);
        HeaderImport.Result r = HeaderImport.run(new ImportOptions(List.of(Path.of("/usr/include/clblast_c.h")), "clblast",
                List.of(), List.of(), FILTER, "dev.panamax.clblast.binding"), file);
        assertNull(r.problem());
        assertTrue(r.changes().isEmpty(), r.changes().lines().toString());
        assertEquals(before, Files.readString(file));
    }
}

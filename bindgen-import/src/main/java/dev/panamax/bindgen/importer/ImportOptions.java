package dev.panamax.bindgen.importer;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What {@code panamax bindgen import} reads and how.
 *
 * <pre>{@code
 * ImportOptions o = new ImportOptions(List.of(Path.of("/usr/include/sqlite3.h")), "sqlite3",
 *         List.of(), List.of(), Pattern.compile("^(sqlite3|SQLITE_)"), "org.example.sqlite");
 * }</pre>
 *
 * @param headers     the headers to import (their own declarations, and the types those use)
 * @param library     the library's logical name ({@code library:})
 * @param includes    include directories ({@code -I})
 * @param defines     macro definitions {@code NAME} or {@code NAME=VALUE} ({@code -D})
 * @param filter      names to keep (functions, types and constants declared in the headers), or null for all
 * @param javaPackage the Java package written into a new file, or null for {@code panamax.LIBRARY}
 */
public record ImportOptions(List<Path> headers, String library, List<Path> includes, List<String> defines,
                            Pattern filter, String javaPackage) {
    public ImportOptions {
        headers = List.copyOf(headers);
        includes = List.copyOf(includes);
        defines = List.copyOf(defines);
    }

    /** Whether a name declared in the headers is kept. */
    boolean keeps(String name) {
        return filter == null || filter.matcher(name).find();
    }
}

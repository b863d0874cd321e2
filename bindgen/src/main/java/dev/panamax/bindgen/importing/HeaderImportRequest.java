package dev.panamax.bindgen.importing;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What to import and where: the options of {@code panamax bindgen import}.
 *
 * @param headers      the headers to import (their own declarations, and the types those use)
 * @param library      the library's logical name ({@code library:})
 * @param includes     include directories ({@code -I})
 * @param defines      macro definitions {@code NAME} or {@code NAME=VALUE} ({@code -D})
 * @param filter       names to keep (functions, types and constants declared in the headers), or null for all
 * @param javaPackage  the Java package written into a new file, or null for {@code panamax.LIBRARY}
 * @param declarations the declarations file to write, or to update when it exists
 */
public record HeaderImportRequest(List<Path> headers, String library, List<Path> includes, List<String> defines,
                                  Pattern filter, String javaPackage, Path declarations) {
    public HeaderImportRequest {
        headers = List.copyOf(headers);
        Objects.requireNonNull(library, "library");
        includes = List.copyOf(includes);
        defines = List.copyOf(defines);
        Objects.requireNonNull(declarations, "declarations");
        if (headers.isEmpty()) throw new IllegalArgumentException("no header to import into " + declarations + "; expected at least one");
    }
}

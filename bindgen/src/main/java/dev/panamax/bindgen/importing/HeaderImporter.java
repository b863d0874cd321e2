package dev.panamax.bindgen.importing;

/**
 * Imports C headers into a declarations file: what {@code panamax bindgen import} and the Maven
 * plugin's {@code import} goal call. An implementation is found with {@link java.util.ServiceLoader};
 * panamax-bindgen-import provides the one that reads headers with libclang. The interface lives here
 * so that a caller (the Maven plugin) can use an importer without depending on libclang's binding.
 *
 * <pre>{@code
 * HeaderImporter importer = ServiceLoader.load(HeaderImporter.class).findFirst().orElseThrow();
 * HeaderImportReport r = importer.importHeaders(new HeaderImportRequest(List.of(Path.of("/usr/include/sqlite3.h")),
 *         "sqlite3", List.of(), List.of(), Pattern.compile("^(sqlite3|SQLITE_)"), "org.example.sqlite",
 *         Path.of("src/main/decl/sqlite3.yaml")));
 * }</pre>
 */
public interface HeaderImporter {
    /**
     * Imports the headers {@code request} names into its declarations file, merging with the file
     * when it exists (every annotation kept).
     *
     * @throws IllegalArgumentException when the headers cannot be imported (unreadable, nothing
     *     matching the filter, a file that does not parse), with what and why
     * @throws java.io.UncheckedIOException when the declarations file cannot be read or written
     */
    HeaderImportReport importHeaders(HeaderImportRequest request);
}

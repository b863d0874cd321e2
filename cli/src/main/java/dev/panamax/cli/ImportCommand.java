package dev.panamax.cli;

import dev.panamax.bindgen.importer.HeaderImport;
import dev.panamax.bindgen.importer.ImportException;
import dev.panamax.bindgen.importer.ImportOptions;
import dev.panamax.bindgen.importer.Skipped;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code panamax bindgen import HEADER... --library NAME --out FILE.yaml}: reads C headers with
 * libclang and writes (or, when it exists, updates) a declarations file.
 */
@Command(name = "import", description = {
        "Import C headers into a declarations file with libclang.",
        "Functions, structs and unions, enums and #define constants, typedefs, function pointer types (callbacks)"
                + " and opaque pointers (handles). Places where the header cannot say what bindgen needs (ownership,"
                + " lengths, statuses) are marked '# annotate:'. Importing into an existing file keeps every annotation"
                + " and prints what the headers added (+), removed (-), changed (~)."})
final class ImportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "HEADER", description = "C headers to import.")
    List<Path> headers;

    @Option(names = "--library", required = true, paramLabel = "NAME", description = "The library's logical name (library:).")
    String library;

    @Option(names = "--include", paramLabel = "DIR", description = "An include directory (-I); repeatable.")
    List<Path> includes = new ArrayList<>();

    @Option(names = "--define", paramLabel = "X=Y", description = "A macro definition (-D); repeatable.")
    List<String> defines = new ArrayList<>();

    @Option(names = "--filter", paramLabel = "REGEX", description = "Keep only the functions, types and constants whose name it finds.")
    String filter;

    @Option(names = "--package", paramLabel = "PKG", description = "Java package of a new file (default: panamax.LIBRARY).")
    String javaPackage;

    @Option(names = "--out", required = true, paramLabel = "FILE.yaml", description = "The declarations file to write or update.")
    Path out;

    @Option(names = "--verbose", description = "List every skipped declaration (default: the first 20).")
    boolean verbose;

    @Override
    public Integer call() {
        Pattern pattern;
        try {
            pattern = filter == null ? null : Pattern.compile(filter);
        } catch (PatternSyntaxException e) {
            System.err.println("panamax bindgen import: --filter '" + filter + "' is not a regular expression: " + e.getDescription());
            return 1;
        }
        try {
            HeaderImport.Result r = HeaderImport.run(new ImportOptions(headers, library, includes, defines, pattern, javaPackage), out);
            System.out.println(r.summary());
            List<Skipped> skipped = r.skipped();
            int shown = verbose ? skipped.size() : Math.min(20, skipped.size());
            for (Skipped s : skipped.subList(0, shown)) System.out.println("  skipped " + s);
            if (shown < skipped.size()) System.out.println("  ... " + (skipped.size() - shown) + " more skipped (--verbose lists all)");
            if (r.reimport()) {
                System.out.println(r.changes().isEmpty() ? "the headers changed nothing since the last import"
                        : "changes in the headers since the last import:");
                r.changes().lines().forEach(l -> System.out.println("  " + l));
            }
            if (r.problem() != null) {
                System.err.println("panamax bindgen import: " + out + " was written but does not validate, fix it by hand: " + r.problem());
                return 1;
            }
            return 0;
        } catch (ImportException e) {
            System.err.println("panamax bindgen import: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            System.err.println("panamax bindgen import: " + e.getMessage());
            return 2;
        }
    }
}

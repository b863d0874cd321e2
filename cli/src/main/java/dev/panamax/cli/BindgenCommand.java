package dev.panamax.cli;

import dev.panamax.bindgen.check.HeaderCheck;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.gen.Bindgen;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code panamax bindgen FILE.yaml --out DIR}: generates the Java bindings into {@code DIR/java},
 * the C glue (MetaABI thunks of the batchable functions) into {@code DIR/c} and the report
 * {@code DIR/bindgen-LIBRARY.txt}. Files are rewritten only when their bytes change, each atomically
 * (a failed write names the file and leaves it as it was). Relative paths are the user's: resolved
 * against the directory the command was run from ({@link WorkingDirectory}).
 */
@Command(name = "bindgen", subcommands = ImportCommand.class, description = {
        "Generate Java bindings (raw and typed layers), C glue and a report from a declarations file.",
        "Writes DIR/java (sources), DIR/c (thunks of batchable functions, compile them with the library or into a"
                + " glue library) and DIR/bindgen-LIBRARY.txt (what was bound, what was skipped and why)."})
final class BindgenCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE.yaml", description = "A declarations file (docs/DECLARATIONS.md);"
            + " a relative path is relative to the directory the command was run from.")
    String file;

    // not required for picocli, so that `bindgen import ...` does not need them: checked in call()
    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (required); a relative path is relative to the"
            + " directory the command was run from.")
    String out;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--header", paramLabel = "HEADER", description = {
            "A C header to check every declaration against (besides the file's headers: key); repeatable.",
            "A path, or <name.h> on the compiler's include path. Checked with g++ -fsyntax-only."})
    List<String> headers = new ArrayList<>();

    @Override
    public Integer call() {
        if (file == null || this.out == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required " + (file == null ? "parameter: 'FILE.yaml'" : "option: '--out=DIR'"));
        }
        Path declarations;
        Path out;
        try {
            declarations = UserPaths.resolve("FILE.yaml", file, "the path of a declarations file");
            out = UserPaths.resolve("--out", this.out, "the directory to write into");
            headers = headers.stream().map(h -> h.startsWith("<") ? h
                    : UserPaths.resolve("--header", h, "a header file or <name.h>").toString()).toList();
        } catch (IllegalArgumentException e) {
            System.err.println("panamax bindgen: " + e.getMessage());
            return 2;
        }
        if (java.nio.file.Files.exists(out) && !java.nio.file.Files.isDirectory(out)) {
            System.err.println("panamax bindgen: --out " + out + ": it exists and is not a directory; expected the directory to write "
                    + "into (java/, c/ and the report), or a new path (nothing was written)");
            return 2;
        }
        try {
            Declarations d = DeclarationsParser.parse(declarations);
            HeaderCheck.Result checked = HeaderCheck.run(d, HeaderCheck.headers(d, headers), out.resolve("check"), "g++");
            Bindgen.Generation g = Bindgen.run(declarations, out.resolve("java"), out.resolve("c"), out);
            System.out.println(Bindgen.summary(g) + " -> " + out);
            if (checked.checks() > 0) {
                System.out.println("checked against " + HeaderCheck.headers(d, headers) + ": " + checked.checks() + " facts agree");
            }
            System.out.println("report: " + out.resolve(g.report().path()));
            return 0;
        } catch (DeclarationsException e) {
            System.err.println("panamax bindgen: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException e) {
            System.err.println("panamax bindgen: " + e.getMessage());
            return 2;
        }
    }
}

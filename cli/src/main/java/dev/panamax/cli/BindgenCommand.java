package dev.panamax.cli;

import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.gen.Bindgen;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code panamax bindgen FILE.yaml --out DIR}: generates the Java bindings into {@code DIR/java},
 * the C glue (MetaABI thunks of the batchable functions) into {@code DIR/c} and the report
 * {@code DIR/bindgen-LIBRARY.txt}. Files are rewritten only when their bytes change.
 */
@Command(name = "bindgen", subcommands = ImportCommand.class, description = {
        "Generate Java bindings (raw and typed layers), C glue and a report from a declarations file.",
        "Writes DIR/java (sources), DIR/c (thunks of batchable functions, compile them with the library or into a",
        "glue library) and DIR/bindgen-LIBRARY.txt (what was bound, what was skipped and why)."})
final class BindgenCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE.yaml", description = "A declarations file (docs/DECLARATIONS.md).")
    Path file;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
    Path out;

    @Override
    public Integer call() {
        try {
            Bindgen.Generation g = Bindgen.run(file, out.resolve("java"), out.resolve("c"), out);
            System.out.println(Bindgen.summary(g) + " -> " + out);
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

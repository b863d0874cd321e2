package dev.panamax.bindgen.thunk;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.ThunkEmitter;
import dev.panamax.core.abi.ThunkSources;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the MetaABI thunks of a declarations file's batchable functions:
 * {@code ThunkGenerator FILE.yaml OUT_DIR [UNIT]} writes {@code OUT_DIR/pmx_thunks_UNIT.h} and
 * {@code .c} (UNIT defaults to the library name). A file is rewritten only when its bytes change,
 * so make does not rebuild what did not change.
 */
public final class ThunkGenerator {
    private ThunkGenerator() {}

    /** Generates the sources for {@code declarations} into {@code outDir}; returns what it generated. */
    public static ThunkSources generate(Declarations declarations, Path outDir, String unit) throws IOException {
        List<CFunction> functions = declarations.batchableFunctions();
        ThunkSources sources = ThunkEmitter.emit(unit, functions);
        Files.createDirectories(outDir);
        writeIfChanged(outDir.resolve(sources.headerName()), sources.header());
        writeIfChanged(outDir.resolve(sources.sourceName()), sources.source());
        return sources;
    }

    /** Writes {@code text} unless the file already holds exactly it. */
    public static void writeIfChanged(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(file) && java.util.Arrays.equals(Files.readAllBytes(file), bytes)) return;
        Files.write(file, bytes);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException("usage: ThunkGenerator FILE.yaml OUT_DIR [UNIT]");
        }
        Declarations d;
        try {
            d = DeclarationsParser.parse(Path.of(args[0]));
        } catch (DeclarationsException e) {
            // the build shows this message, not a stack trace
            throw new IllegalArgumentException(e.getMessage(), null);
        }
        String unit = args.length == 3 ? args[2] : d.library().replaceAll("[^A-Za-z0-9_]", "_");
        ThunkSources s = generate(d, Path.of(args[1]), unit);
        System.out.println("panamax thunks: " + d.batchableFunctions().size() + " functions -> "
                + Path.of(args[1]).resolve(s.sourceName()));
    }
}

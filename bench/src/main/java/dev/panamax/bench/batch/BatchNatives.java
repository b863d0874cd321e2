package dev.panamax.bench.batch;

import dev.panamax.bindgen.glue.ThunkEmitter;
import dev.panamax.bindgen.glue.ThunkSources;
import dev.panamax.core.abi.CFunction;
import dev.panamax.core.abi.CFunctionType;
import dev.panamax.core.abi.CType;
import dev.panamax.core.internal.BundledLibrary;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The batch suite's native library, libpanamax_bench_batch.so. At build time {@link #main} writes
 * its generated C (the thunks of the trivial function and of the 2,000 startup fixtures, and those
 * fixtures' definitions); make compiles it with src/main/c/batch into the jar. At run time
 * {@link #lookup()} loads it like libpanamax.
 */
public final class BatchNatives {
    static final String LIBRARY = "libpanamax_bench_batch.so";
    /** {@code int32_t pmxb_inc(int32_t x)}: the trivial function of the suite (leaf E). */
    static final CFunction INC = new CFunction("pmxb_inc", CFunctionType.of(CType.I32, "x", CType.I32));

    private BatchNatives() {}

    private static final class Holder {
        static final SymbolLookup LOOKUP = SymbolLookup.libraryLookup(
                BundledLibrary.extract(BatchNatives.class.getClassLoader(), LIBRARY, BundledLibrary.defaultCacheDir()),
                Arena.global());
    }

    static SymbolLookup lookup() {
        return Holder.LOOKUP;
    }

    /** The suite's library extracted from the jar (its thunks and startup fixtures), for bindings that load it by path. */
    public static java.nio.file.Path libraryFile() {
        return BundledLibrary.extract(BatchNatives.class.getClassLoader(), LIBRARY, BundledLibrary.defaultCacheDir());
    }

    /** {@code BatchNatives OUT_DIR}: writes the generated C of the suite's library. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        List<CFunction> functions = new ArrayList<>();
        functions.add(INC);
        functions.addAll(StartupSignatures.functions());
        ThunkSources s = ThunkEmitter.emit("bench_batch", functions);
        write(out.resolve(s.headerName()), s.header());
        write(out.resolve(s.sourceName()), s.source());
        write(out.resolve("startup_fixtures.c"), StartupSignatures.cSource(s.headerName()));
        System.out.println("panamax bench: " + functions.size() + " thunks -> " + out);
    }

    private static void write(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) return;
        Files.write(file, bytes);
    }
}

package dev.panamax.bench.bindgen;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.bindgen.check.HeaderCheck;
import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsParser;
import dev.panamax.bindgen.importer.HeaderImport;
import dev.panamax.bindgen.importer.ImportOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The cost of {@code bindgen import} and of the header check on real headers: importing
 * {@code sqlite3.h} (275 functions, 448 constants) and {@code CL/cl.h}, each into a new file, in
 * one JVM after a first import; then checking the imported sqlite3 file against its header with g++.
 */
public final class ImportAndCheck implements Measurement {
    @Override
    public String suite() {
        return "bindgen";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        int runs = quick ? 5 : 11;
        Path dir = Files.createTempDirectory("panamax-import-bench");
        try {
            double[] sqlite = new double[runs];
            double[] opencl = new double[runs];
            double[] check = new double[runs];
            double first = importOnce(dir, "/usr/include/sqlite3.h", "sqlite3", "^(sqlite3|SQLITE_)", -1);
            for (int i = 0; i < runs; i++) {
                sqlite[i] = importOnce(dir, "/usr/include/sqlite3.h", "sqlite3", "^(sqlite3|SQLITE_)", i);
                opencl[i] = importOnce(dir, "/usr/include/CL/cl.h", "opencl", "^(cl|CL_)", i);
                Declarations d = DeclarationsParser.parse(dir.resolve("sqlite3-" + i + ".yaml"));
                long t0 = System.nanoTime();
                HeaderCheck.run(d, d.headers(), dir.resolve("check"), "g++");
                check[i] = (System.nanoTime() - t0) / 1e6;
                System.err.printf("panamax bench: import %d/%d: sqlite3.h %.0f ms, CL/cl.h %.0f ms, check %.0f ms%n",
                        i + 1, runs, sqlite[i], opencl[i], check[i]);
            }
            return List.of(
                    Result.single("import.sqlite3h.first.ms", "ms", first),
                    Result.of("import.sqlite3h.ms", "ms", sqlite, ""),
                    Result.of("import.clh.ms", "ms", opencl, ""),
                    Result.of("check.sqlite3yaml.ms", "ms", check, ""));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    private static double importOnce(Path dir, String header, String library, String filter, int i) {
        Path out = dir.resolve(library + "-" + i + ".yaml");
        long t0 = System.nanoTime();
        HeaderImport.run(new ImportOptions(List.of(Path.of(header)), library, List.of(), List.of(), Pattern.compile(filter),
                null), out);
        return (System.nanoTime() - t0) / 1e6;
    }
}

package dev.panamax.bench.bindgen;

import dev.panamax.bench.Measurement;
import dev.panamax.bench.Result;
import dev.panamax.core.internal.BundledLibrary;
import dev.panamax.sqlite.Database;
import dev.panamax.sqlite.Statement;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;

/**
 * Inserts 100,000 rows into an in-memory SQLite table (one transaction, one prepared statement, three
 * bound parameters per row) and reads them back with {@code sqlite3_step}/{@code sqlite3_column_*}:
 * through panamax-sqlite (the typed layer bindgen generated from the imported {@code sqlite3.yaml})
 * against the same in C ({@code bench_sqlite.c}, timed inside C), alternating run by run in one
 * process. The target: Java at most 1.3x C's time.
 */
public final class SqliteRows implements Measurement {
    static final int ROWS = 100_000;

    @Override
    public String suite() {
        return "bindgen";
    }

    @Override
    public List<Result> run(boolean quick) throws Exception {
        Path lib = BundledLibrary.extract(SqliteRows.class.getClassLoader(), "libpanamax_bench.so", BundledLibrary.defaultCacheDir());
        MethodHandle c = Linker.nativeLinker().downcallHandle(
                SymbolLookup.libraryLookup(lib, Arena.global()).find("pmx_bench_sqlite_c").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        int warmup = quick ? 3 : 5;
        int runs = quick ? 7 : 21;
        double[] java = new double[runs];
        double[] native_ = new double[runs];
        double[] ratio = new double[runs];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment check = arena.allocate(ValueLayout.JAVA_LONG);
            for (int i = -warmup; i < runs; i++) {
                long t0 = System.nanoTime();
                long javaSum = javaRun(ROWS);
                long javaNs = System.nanoTime() - t0;
                long cNs;
                try {
                    cNs = (long) c.invokeExact(ROWS, check);
                } catch (Throwable t) {
                    throw new IllegalStateException("cannot call pmx_bench_sqlite_c", t);
                }
                if (cNs < 0) throw new IllegalStateException("the C side failed (an SQLite error)");
                long cSum = check.get(ValueLayout.JAVA_LONG, 0);
                if (cSum != javaSum) throw new IllegalStateException("C and Java read different rows: " + cSum + " != " + javaSum);
                if (i >= 0) {
                    java[i] = javaNs / 1e6;
                    native_[i] = cNs / 1e6;
                    ratio[i] = (double) javaNs / cNs;
                }
                System.err.printf("panamax bench: sqlite %s %d/%d: java %.1f ms, C %.1f ms%n", i < 0 ? "warmup" : "run",
                        i < 0 ? i + warmup + 1 : i + 1, i < 0 ? warmup : runs, javaNs / 1e6, cNs / 1e6);
            }
        }
        return List.of(
                Result.of("sqlite.100k.insertQuery.c.ms", "ms", native_, ""),
                Result.of("sqlite.100k.insertQuery.typed.ms", "ms", java, "sqlite.100k.insertQuery.c.ms"),
                Result.of("sqlite.100k.insertQuery.typedOverC", "x", ratio, ""));
    }

    /** The Java side: the same statements through {@link Database} and {@link Statement}. */
    static long javaRun(int rows) {
        long sum = 0;
        try (Database db = Database.openInMemory()) {
            db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, value INTEGER)");
            db.execute("BEGIN");
            try (Statement insert = db.prepare("INSERT INTO t (id, name, value) VALUES (?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    insert.bind(1, i).bind(2, "row-" + i).bind(3, (long) i * 3);
                    insert.step();
                    insert.reset();
                }
            }
            db.execute("COMMIT");
            try (Statement select = db.prepare("SELECT id, name, value FROM t ORDER BY id")) {
                while (select.step()) {
                    sum += select.columnLong(0);
                    sum += select.columnText(1).length();
                    sum += select.columnLong(2);
                }
            }
        }
        return sum;
    }
}

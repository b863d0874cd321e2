package dev.panamax.examples.sqlite;

import dev.panamax.examples.sqlite.binding.SQLite;
import dev.panamax.examples.sqlite.binding.SQLiteApi;
import dev.panamax.examples.sqlite.binding.SQLiteException;
import dev.panamax.examples.sqlite.binding.Sqlite3;
import dev.panamax.examples.sqlite.binding.Sqlite3ExecCallback;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An open SQLite database: an owned {@code sqlite3*}, closed once by {@link #close} (or, if dropped,
 * by the handle's cleaner, reported as a leak). Failures are {@link SqliteException}s carrying
 * {@code sqlite3_errmsg}'s text.
 *
 * <pre>{@code
 * try (Database db = Database.openInMemory()) {
 *     db.execute("CREATE TABLE t (id INTEGER, name TEXT)");
 *     try (Statement insert = db.prepare("INSERT INTO t VALUES (?, ?)")) {
 *         insert.bind(1, 7).bind(2, "seven").step();
 *     }
 *     db.query("SELECT id, name FROM t", (names, values) -> { System.out.println(values[1]); return true; });
 * }
 * }</pre>
 */
public final class Database implements AutoCloseable {
    private final Sqlite3 handle;

    private Database(Sqlite3 handle) {
        this.handle = handle;
    }

    /** A new, empty database in memory. */
    public static Database openInMemory() {
        return open(":memory:");
    }

    /** Opens (creating if needed) the database file {@code filename}, read-write. */
    public static Database open(String filename) {
        // the raw layer here: sqlite3_open_v2 hands out a handle even when it fails, which must be
        // read for its message and closed; the typed method would throw before wrapping it
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = SQLite.sqlite3_open_v2(arena.allocateFrom(filename), out,
                    SQLite.SQLITE_OPEN_READWRITE | SQLite.SQLITE_OPEN_CREATE, MemorySegment.NULL);
            Sqlite3 db = Sqlite3.owned(out.get(ValueLayout.ADDRESS, 0));
            if (rc == SQLite.SQLITE_OK) return new Database(db);
            String message = db == null ? "out of memory" : SQLiteApi.sqlite3_errmsg(db);
            if (db != null) db.close();
            throw new SqliteException(new SQLiteException("sqlite3_open_v2", "sqlite_status", rc), message);
        }
    }

    /** The typed layer's handle, for calls this class does not wrap. */
    public Sqlite3 handle() {
        return handle;
    }

    /** Runs {@code sql} (one or more statements), ignoring any rows. */
    public void execute(String sql) {
        try {
            SQLiteApi.sqlite3_exec(handle, sql, null, null, null);
        } catch (SQLiteException e) {
            throw failure(e);
        }
    }

    /** Receives each row of {@link #query}: column names and values (SQL NULL as null); false stops. */
    @FunctionalInterface
    public interface RowHandler {
        boolean row(String[] names, String[] values);
    }

    /**
     * Runs {@code sql} through {@code sqlite3_exec}, calling {@code handler} back from C once per
     * row. An exception the handler throws stops the query and is rethrown here.
     */
    public void query(String sql, RowHandler handler) {
        RuntimeException[] thrown = new RuntimeException[1];
        try (Arena arena = Arena.ofConfined()) {
            Sqlite3ExecCallback callback = (userData, columns, values, names) -> {
                try {
                    return handler.row(strings(names, columns), strings(values, columns)) ? 0 : 1;
                } catch (RuntimeException e) {
                    thrown[0] = e;
                    return 1;
                }
            };
            try {
                SQLiteApi.sqlite3_exec(handle, sql, Sqlite3ExecCallback.stub(arena, callback).address(), null, null);
            } catch (SQLiteException e) {
                if (thrown[0] != null) throw thrown[0];
                if (e.code() == SQLite.SQLITE_ABORT) return;   // the handler said stop
                throw failure(e);
            }
        }
    }

    private static String[] strings(MemorySegment array, int n) {
        MemorySegment a = array.reinterpret(8L * n);
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            MemorySegment s = a.getAtIndex(ValueLayout.ADDRESS, i);
            out[i] = s.equals(MemorySegment.NULL) ? null : s.reinterpret(Long.MAX_VALUE).getString(0);
        }
        return out;
    }

    /** Compiles {@code sql} into a statement, owned by the caller. */
    public Statement prepare(String sql) {
        try {
            return new Statement(this, SQLiteApi.sqlite3_prepare_v2(handle, sql, -1, null));
        } catch (SQLiteException e) {
            throw failure(e);
        }
    }

    /** The rows the last INSERT, UPDATE or DELETE changed. */
    public int changes() {
        return SQLiteApi.sqlite3_changes(handle);
    }

    /** {@code sqlite3_errmsg}: the message of the last failure. */
    public String errorMessage() {
        return SQLiteApi.sqlite3_errmsg(handle);
    }

    SqliteException failure(SQLiteException e) {
        return new SqliteException(e, errorMessage());
    }

    /** Closes the database (once; later calls do nothing). */
    @Override
    public void close() {
        handle.close();
    }
}

package dev.panamax.examples.sqlite;

import dev.panamax.examples.sqlite.binding.SQLite;
import dev.panamax.examples.sqlite.binding.SQLiteApi;
import dev.panamax.examples.sqlite.binding.SQLiteException;
import dev.panamax.examples.sqlite.binding.Sqlite3Stmt;

import java.lang.foreign.MemorySegment;

/**
 * A prepared statement: an owned {@code sqlite3_stmt*}, finalized once by {@link #close}. Parameters
 * are bound by 1-based index; {@link #step} runs it to its next row.
 *
 * <pre>{@code
 * try (Statement select = db.prepare("SELECT id, name FROM t WHERE id > ?")) {
 *     select.bind(1, 10);
 *     while (select.step()) System.out.println(select.columnLong(0) + " " + select.columnText(1));
 * }
 * }</pre>
 */
public final class Statement implements AutoCloseable {
    /** {@code SQLITE_TRANSIENT}: SQLite copies bound text before the call returns. */
    private static final MemorySegment TRANSIENT = MemorySegment.ofAddress(-1L);

    private final Database db;
    private final Sqlite3Stmt handle;

    Statement(Database db, Sqlite3Stmt handle) {
        this.db = db;
        this.handle = handle;
    }

    /** The typed layer's handle. */
    public Sqlite3Stmt handle() {
        return handle;
    }

    public Statement bind(int index, long value) {
        try {
            SQLiteApi.sqlite3_bind_int64(handle, index, value);
        } catch (SQLiteException e) {
            throw db.failure(e);
        }
        return this;
    }

    public Statement bind(int index, String text) {
        try {
            SQLiteApi.sqlite3_bind_text(handle, index, text, -1, TRANSIENT);
        } catch (SQLiteException e) {
            throw db.failure(e);
        }
        return this;
    }

    /** Runs to the next row: true when there is one, false when the statement is done. */
    public boolean step() {
        int rc = SQLiteApi.sqlite3_step(handle);
        if (rc == SQLite.SQLITE_ROW) return true;
        if (rc == SQLite.SQLITE_DONE) return false;
        throw new SqliteException(new SQLiteException("sqlite3_step", "sqlite_status", rc), db.errorMessage());
    }

    public long columnLong(int column) {
        return SQLiteApi.sqlite3_column_int64(handle, column);
    }

    public int columnInt(int column) {
        return SQLiteApi.sqlite3_column_int(handle, column);
    }

    /** The column's text (SQL NULL as null). */
    public String columnText(int column) {
        return SQLiteApi.sqlite3_column_text(handle, column);
    }

    public int columnCount() {
        return SQLiteApi.sqlite3_column_count(handle);
    }

    /** Resets the statement to run again; bound values stay. */
    public Statement reset() {
        try {
            SQLiteApi.sqlite3_reset(handle);
        } catch (SQLiteException e) {
            throw db.failure(e);
        }
        return this;
    }

    /** Finalizes the statement (once; later calls do nothing). */
    @Override
    public void close() {
        handle.close();
    }
}

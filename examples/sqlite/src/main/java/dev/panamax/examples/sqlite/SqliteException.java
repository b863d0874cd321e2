package dev.panamax.examples.sqlite;

import dev.panamax.examples.sqlite.binding.SQLiteException;

/**
 * A failed SQLite call, with the database's own message ({@code sqlite3_errmsg}):
 * {@code SQLITE_ERROR (1) in sqlite3_prepare_v2: no such table: missing}.
 */
public final class SqliteException extends SQLiteException {
    private static final long serialVersionUID = 1L;
    private final String message;

    SqliteException(SQLiteException cause, String message) {
        super(cause.function(), cause.convention(), cause.code(), message);
        this.message = message;
        initCause(cause);
    }

    /** The database's message for the failure. */
    public String errorMessage() {
        return message;
    }
}

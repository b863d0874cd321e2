package dev.panamax.examples.sqlite;

import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.examples.sqlite.binding.SQLite;
import dev.panamax.examples.sqlite.binding.SQLiteApi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * SQLite through the binding bindgen generated from {@code sqlite3.h}: a table created, rows inserted
 * with bound parameters, read back through a Java callback that C calls per row and through
 * {@code sqlite3_step}, SQLite's own error messages, handles closed exactly once. Every result is
 * checked; a wrong one ends the program with a non-zero exit status.
 *
 * <p>A standalone project, built and run by {@code ./panamax test} against the installed artifacts.
 * {@code src/main/decl/sqlite3.yaml} is {@code bindgen import} of {@code sqlite3.h} (275 functions, 18
 * structs, 10 handles, 160 callback types, 448 constants; 17 declarations skipped: variadic and
 * {@code va_list} functions, string and pointer macros) with annotations where the example uses it:
 * {@code sqlite3} and {@code sqlite3_stmt} owned (released by {@code sqlite3_close_v2} and
 * {@code sqlite3_finalize}, exactly once through the handles), the {@code sqlite_status} convention on
 * the calls that fail by status, {@code sqlite3_step}'s ROW/DONE read as values, critical tier for
 * binds and column reads, the {@code sqlite3_exec} callback's parameters named. Its build imports the
 * header again (the plugin's {@code import} goal with {@code failOnChange}: a change fails the build)
 * and checks the file against {@code sqlite3.h} (2,118 facts). {@link Database} and {@link Statement}
 * (hand-written) turn statuses into {@link SqliteException} carrying {@code sqlite3_errmsg}'s text and
 * use the raw layer for {@code sqlite3_open_v2}, which hands out a handle even when it fails.
 */
public final class SqliteExample {
    private SqliteExample() {}

    public static void main(String[] args) {
        List<String> rows = insertAndReadBack();
        handlerStopsOrThrows();
        failuresCarryTheirMessage();
        handlesCloseOnce();
        System.out.println("sqlite " + SQLiteApi.sqlite3_libversion() + ": " + rows.size() + " rows written and read back "
                + rows + ", errors and handles as expected: correct");
    }

    /** CREATE, INSERT with bound parameters, then the rows read back two ways. */
    private static List<String> insertAndReadBack() {
        try (Database db = Database.openInMemory()) {
            db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)");
            try (Statement insert = db.prepare("INSERT INTO people (id, name, age) VALUES (?, ?, ?)")) {
                String[] names = {"Ada", "Grace", "Edsger", "Barbara"};
                for (int i = 0; i < names.length; i++) {
                    insert.bind(1, i + 1).bind(2, names[i]).bind(3, 30 + i);
                    expect(false, insert.step(), "an INSERT's step has no row");
                    expect(1, db.changes(), "rows an INSERT changed");
                    insert.reset();
                }
            }
            // sqlite3_exec with a Java callback, called from C once per row
            // (checked after the query: the handler runs inside a call from C)
            List<String> rows = new ArrayList<>();
            List<List<String>> names = new ArrayList<>();
            db.query("SELECT id, name, age FROM people ORDER BY id", (columns, values) -> {
                names.add(List.of(columns));
                rows.add(String.join("|", values));
                return true;
            });
            expect(List.of("1|Ada|30", "2|Grace|31", "3|Edsger|32", "4|Barbara|33"), rows, "rows through sqlite3_exec");
            expect(List.of("id", "name", "age"), names.getFirst(), "column names");

            // sqlite3_step and sqlite3_column_*
            try (Statement select = db.prepare("SELECT id, name, age FROM people WHERE age > ? ORDER BY id")) {
                select.bind(1, 31);
                expect(3, select.columnCount(), "columns of the SELECT");
                List<String> read = new ArrayList<>();
                while (select.step()) read.add(select.columnLong(0) + " " + select.columnText(1) + " " + select.columnInt(2));
                expect(List.of("3 Edsger 32", "4 Barbara 33"), read, "rows through sqlite3_step");
            }
            return rows;
        }
    }

    /** A row handler that returns false stops the query; one that throws ends it with its exception. */
    private static void handlerStopsOrThrows() {
        try (Database db = Database.openInMemory()) {
            db.execute("CREATE TABLE n (v INTEGER); INSERT INTO n VALUES (1); INSERT INTO n VALUES (2); INSERT INTO n VALUES (3)");
            List<String> seen = new ArrayList<>();
            db.query("SELECT v FROM n", (columns, values) -> seen.add(values[0]) && seen.size() < 2);
            expect(List.of("1", "2"), seen, "rows before the handler said stop");
            IllegalStateException boom = new IllegalStateException("boom");
            try {
                db.query("SELECT v FROM n", (columns, values) -> {
                    throw boom;
                });
                throw new AssertionError("a handler's exception did not end the query");
            } catch (IllegalStateException e) {
                expect(boom, e, "the exception the query ended with");
            }
        }
    }

    /** Failures are SqliteExceptions with the status's name and sqlite3_errmsg's text. */
    private static void failuresCarryTheirMessage() {
        try (Database db = Database.openInMemory()) {
            SqliteException missing = failure(() -> db.prepare("SELECT * FROM missing").close());
            expect("SQLITE_ERROR", missing.errorName(), "status of a SELECT from a missing table");
            expect("no such table: missing", missing.errorMessage(), "message of a SELECT from a missing table");
            if (!missing.getMessage().contains("sqlite3_prepare_v2")) {
                throw new AssertionError("the message does not name sqlite3_prepare_v2: " + missing.getMessage());
            }
            db.execute("CREATE TABLE u (k INTEGER PRIMARY KEY)");
            db.execute("INSERT INTO u VALUES (1)");
            try (Statement duplicate = db.prepare("INSERT INTO u VALUES (1)")) {
                SqliteException constraint = failure(duplicate::step);
                expect("UNIQUE constraint failed: u.k", constraint.errorMessage(), "message of a duplicate key");
                expect(SQLite.SQLITE_CONSTRAINT, (int) constraint.code(), "status of a duplicate key");
            }
            expect("table u already exists", failure(() -> db.execute("CREATE TABLE u (k)")).errorMessage(),
                    "message of a second CREATE TABLE");
        }
        SqliteException cannotOpen = failure(() -> Database.open("/nonexistent-dir/x.db").close());
        expect("SQLITE_CANTOPEN", cannotOpen.errorName(), "status of opening a file in a missing directory");
        expect("unable to open database file", cannotOpen.errorMessage(), "message of opening a file in a missing directory");
    }

    /** A statement and a database closed twice are finalized and closed once; a closed handle refuses calls. */
    private static void handlesCloseOnce() {
        Database db = Database.openInMemory();
        Statement statement = db.prepare("SELECT 1");
        statement.close();
        statement.close();
        db.close();
        db.close();
        expect(true, db.handle().isReleased(), "the database handle released");
        expect(true, statement.handle().isReleased(), "the statement handle released");
        try {
            SQLiteApi.sqlite3_errmsg(db.handle());
            throw new AssertionError("a call on a closed database handle went through");
        } catch (HandleReleasedException expected) {
            // the typed layer checks the handle before calling C
        }
    }

    private static SqliteException failure(Runnable action) {
        try {
            action.run();
        } catch (SqliteException e) {
            return e;
        }
        throw new AssertionError("expected an SqliteException, but the call succeeded");
    }

    private static void expect(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) throw new AssertionError(what + ": " + actual + ", expected " + expected);
    }
}

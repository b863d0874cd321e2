package dev.panamax.sqlite;

import dev.panamax.core.memory.HandleReleasedException;
import dev.panamax.sqlite.binding.SQLite;
import dev.panamax.sqlite.binding.SQLiteApi;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqliteTest {
    @Test
    void createInsertWithBoundParametersAndReadBackTwoWays() {
        try (Database db = Database.openInMemory()) {
            db.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)");
            try (Statement insert = db.prepare("INSERT INTO people (id, name, age) VALUES (?, ?, ?)")) {
                String[] names = {"Ada", "Grace", "Edsger", "Barbara"};
                for (int i = 0; i < names.length; i++) {
                    insert.bind(1, i + 1).bind(2, names[i]).bind(3, 30 + i);
                    assertFalse(insert.step());
                    assertEquals(1, db.changes());
                    insert.reset();
                }
            }
            // sqlite3_exec with a Java callback, called from C once per row
            List<String> rows = new ArrayList<>();
            db.query("SELECT id, name, age FROM people ORDER BY id", (cols, values) -> {
                assertEquals(List.of("id", "name", "age"), List.of(cols));
                rows.add(String.join("|", values));
                return true;
            });
            assertEquals(List.of("1|Ada|30", "2|Grace|31", "3|Edsger|32", "4|Barbara|33"), rows);

            // sqlite3_step / sqlite3_column_*
            try (Statement select = db.prepare("SELECT id, name, age FROM people WHERE age > ? ORDER BY id")) {
                select.bind(1, 31);
                assertEquals(3, select.columnCount());
                List<String> read = new ArrayList<>();
                while (select.step()) read.add(select.columnLong(0) + " " + select.columnText(1) + " " + select.columnInt(2));
                assertEquals(List.of("3 Edsger 32", "4 Barbara 33"), read);
            }
        }
    }

    @Test
    void aHandlerThatStopsOrThrowsEndsTheQuery() {
        try (Database db = Database.openInMemory()) {
            db.execute("CREATE TABLE n (v INTEGER); INSERT INTO n VALUES (1); INSERT INTO n VALUES (2); INSERT INTO n VALUES (3)");
            List<String> seen = new ArrayList<>();
            db.query("SELECT v FROM n", (c, v) -> seen.add(v[0]) && seen.size() < 2);
            assertEquals(List.of("1", "2"), seen);
            IllegalStateException boom = new IllegalStateException("boom");
            assertSame(boom, assertThrows(IllegalStateException.class, () -> db.query("SELECT v FROM n", (c, v) -> {
                throw boom;
            })));
        }
    }

    @Test
    void failuresCarrySqliteErrmsgText() {
        try (Database db = Database.openInMemory()) {
            SqliteException e = assertThrows(SqliteException.class, () -> db.prepare("SELECT * FROM missing"));
            assertEquals("SQLITE_ERROR", e.errorName());
            assertEquals("no such table: missing", e.errorMessage());
            assertTrue(e.getMessage().contains("sqlite3_prepare_v2") && e.getMessage().contains("no such table: missing"), e.getMessage());

            db.execute("CREATE TABLE u (k INTEGER PRIMARY KEY)");
            db.execute("INSERT INTO u VALUES (1)");
            try (Statement dup = db.prepare("INSERT INTO u VALUES (1)")) {
                SqliteException c = assertThrows(SqliteException.class, dup::step);
                assertEquals("UNIQUE constraint failed: u.k", c.errorMessage());
                assertEquals(SQLite.SQLITE_CONSTRAINT, (int) c.code());
            }
            SqliteException x = assertThrows(SqliteException.class, () -> db.execute("CREATE TABLE u (k)"));
            assertEquals("table u already exists", x.errorMessage());
        }
    }

    @Test
    void handlesAreClosedExactlyOnce() {
        Database db = Database.openInMemory();
        Statement s = db.prepare("SELECT 1");
        s.close();
        s.close();                      // finalized once: the second close does nothing
        db.close();
        db.close();                     // closed once
        assertThrows(HandleReleasedException.class, () -> SQLiteApi.sqlite3_errmsg(db.handle()));
        assertTrue(db.handle().isReleased());
        assertTrue(s.handle().isReleased());
    }

    @Test
    void aDatabaseThatCannotOpenIsAnErrorWithItsMessage() {
        SqliteException e = assertThrows(SqliteException.class, () -> Database.open("/nonexistent-dir/x.db"));
        assertEquals("SQLITE_CANTOPEN", e.errorName());
        assertEquals("unable to open database file", e.errorMessage());
    }
}

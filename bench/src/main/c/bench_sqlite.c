/* The C side of the SQLite benchmark: the same inserts and reads the Java side makes through the
 * typed layer of panamax-sqlite, written as a C programmer would, timed inside C. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Inserts `rows` rows (id, 'row-<id>', id * 3) into a new in-memory table in one transaction through
 * one prepared statement, then reads them back with sqlite3_step and sqlite3_column_*. Returns the
 * elapsed nanoseconds (negative on an SQLite error); *check receives the sum of ids, values and text
 * lengths read, which the Java side must equal. */
__attribute__((visibility("default")))
long long pmx_bench_sqlite_c(int rows, long long *check) {
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL, *select = NULL;
    char name[32];
    long long sum = 0, start = now_ns();
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) goto fail;
    if (sqlite3_exec(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, value INTEGER)", NULL, NULL, NULL) != SQLITE_OK) goto fail;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) goto fail;
    if (sqlite3_prepare_v2(db, "INSERT INTO t (id, name, value) VALUES (?, ?, ?)", -1, &insert, NULL) != SQLITE_OK) goto fail;
    for (int i = 0; i < rows; i++) {
        snprintf(name, sizeof name, "row-%d", i);
        if (sqlite3_bind_int64(insert, 1, i) != SQLITE_OK) goto fail;
        if (sqlite3_bind_text(insert, 2, name, -1, SQLITE_TRANSIENT) != SQLITE_OK) goto fail;
        if (sqlite3_bind_int64(insert, 3, (long long) i * 3) != SQLITE_OK) goto fail;
        if (sqlite3_step(insert) != SQLITE_DONE) goto fail;
        if (sqlite3_reset(insert) != SQLITE_OK) goto fail;
    }
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) goto fail;
    if (sqlite3_prepare_v2(db, "SELECT id, name, value FROM t ORDER BY id", -1, &select, NULL) != SQLITE_OK) goto fail;
    int rc;
    while ((rc = sqlite3_step(select)) == SQLITE_ROW) {
        sum += sqlite3_column_int64(select, 0);
        sum += (long long) strlen((const char *) sqlite3_column_text(select, 1));
        sum += sqlite3_column_int64(select, 2);
    }
    if (rc != SQLITE_DONE) goto fail;
    sqlite3_finalize(insert);
    sqlite3_finalize(select);
    sqlite3_close_v2(db);
    *check = sum;
    return now_ns() - start;
fail:
    sqlite3_finalize(insert);
    sqlite3_finalize(select);
    sqlite3_close_v2(db);
    return -1;
}

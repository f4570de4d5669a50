/*
 * arena_e2e_sql.c - a tiny read-only sqlite3 query tool for
 * test_arena_e2e.sh (CI does not install the sqlite3 CLI).
 *
 *   arena_e2e_sql DB SQL      prints each row, columns joined by '|'
 *
 * The database must exist (it is never created). Exit 0, or 1 with the
 * reason on stderr.
 */
#include <sqlite3.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: arena_e2e_sql DB SQL\n");
        return 1;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena_e2e_sql: cannot open %s: %s\n", argv[1],
                db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return 1;
    }
    /* The arena may be writing at the same moment (WAL): wait for locks. */
    sqlite3_busy_timeout(db, 10000);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, argv[2], -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "arena_e2e_sql: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return 1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int n = sqlite3_column_count(st);
        for (int i = 0; i < n; i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            printf("%s%s", i ? "|" : "", t ? (const char *)t : "");
        }
        printf("\n");
    }
    int ok = rc == SQLITE_DONE;
    if (!ok)
        fprintf(stderr, "arena_e2e_sql: %s\n", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok ? 0 : 1;
}

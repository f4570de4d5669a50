/*
 * arena_db_log.c - seats' logs kept with their matches (match_logs), read
 * back by match, and pruned by a retention count.
 *
 * A match's logs go in inside the transaction that stores the match
 * (arena_db_match.c calls adb_logs_store), so a match is never stored
 * without the logs its worker sent. Pruning deletes logs only: results,
 * records and ratings never depend on them.
 */
#include <stdlib.h>
#include <string.h>

#include "arena_db_internal.h"

static const char L_INSERT[] =
    "INSERT INTO match_logs(match_id, seat, bytes, text) VALUES (:match, :seat, :bytes, :text)";
static const char L_GET[] =
    "SELECT seat, bytes, text FROM match_logs WHERE match_id = :match ORDER BY seat";
static const char L_PRUNE[] =
    "DELETE FROM match_logs WHERE match_id NOT IN"
    " (SELECT DISTINCT match_id FROM match_logs ORDER BY match_id DESC LIMIT :keep)";
static const char L_COUNT[] = "SELECT count(DISTINCT match_id) FROM match_logs";

int adb_logs_store(arena_db *db, int64_t match_id, const arena_log *logs, int n, char *err,
                   size_t size)
{
    for (int i = 0; i < n; i++) {
        if (logs[i].seat < 0 || (logs[i].len && !logs[i].text)) {
            adb_err(err, size, "a log of match %lld is malformed", (long long)match_id);
            return -1;
        }
        sqlite3_stmt *st = adb_stmt(db, L_INSERT);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":match", match_id));
        ADB_BIND(adb_bind_int(st, ":seat", logs[i].seat));
        ADB_BIND(adb_bind_int(st, ":bytes", adb_u2i(logs[i].bytes)));
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_blob64(st, sqlite3_bind_parameter_index(st, ":text"),
                                     logs[i].len ? logs[i].text : "", logs[i].len,
                                     SQLITE_STATIC);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, "cannot store a seat's log");
            adb_done(st);
            return -1;
        }
        adb_done(st);
    }
    return 0;
}

int arena_db_match_logs(arena_db *db, int64_t match_id, arena_log **out)
{
    *out = NULL;
    sqlite3_stmt *st = adb_stmt(db, L_GET);
    int rc = st ? SQLITE_OK : SQLITE_ERROR, n = 0, cap = 0;
    ADB_BIND(adb_bind_int(st, ":match", match_id));
    arena_log *v = NULL;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (adb_grow((void **)&v, &cap, n, sizeof *v) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        arena_log *l = &v[n];
        memset(l, 0, sizeof *l);
        l->seat = sqlite3_column_int(st, 0);
        l->bytes = adb_i2u(sqlite3_column_int64(st, 1));
        const void *blob = sqlite3_column_blob(st, 2);
        l->len = (size_t)sqlite3_column_bytes(st, 2);
        l->text = malloc(l->len + 1);
        if (!l->text) {
            rc = SQLITE_NOMEM;
            break;
        }
        n++;
        if (l->len)
            memcpy(l->text, blob, l->len);
        l->text[l->len] = 0;
        rc = SQLITE_OK;
    }
    adb_done(st);
    if (rc != SQLITE_DONE) {
        arena_logs_free(v, n);
        return -1;
    }
    *out = v;
    return n;
}

void arena_logs_free(arena_log *logs, int n)
{
    for (int i = 0; logs && i < n; i++)
        free(logs[i].text);
    free(logs);
}

int arena_db_logs_prune(arena_db *db, int64_t keep, char *err, size_t size)
{
    if (keep < 0) {
        adb_err(err, size, "the number of matches whose logs are kept must be 0 or more");
        return -1;
    }
    if (adb_begin(db, err, size) != 0)
        return -1;
    int64_t before = 0, after = 0;
    sqlite3_stmt *st = adb_stmt(db, L_COUNT);
    int rc = st && sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
    if (rc == SQLITE_OK)
        before = sqlite3_column_int64(st, 0);
    adb_done(st);
    if (rc == SQLITE_OK && before > keep) {
        st = adb_stmt(db, L_PRUNE);
        rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":keep", keep));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        adb_done(st);
        after = keep;
    } else {
        after = before;
    }
    if (rc != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot prune the logs");
        adb_rollback(db);
        return -1;
    }
    if (adb_commit(db, err, size) != 0)
        return -1;
    return (int)(before - after);
}

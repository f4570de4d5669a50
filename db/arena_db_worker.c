/*
 * arena_db_worker.c - remote workers admitted by their CURVE public keys
 * (workers, schema 16): added and revoked by `arena worker`, read by a
 * running arena at each beat, which writes back when it last heard each
 * and how many of its results it took.
 */
#include "arena_db_internal.h"

static const char W_ADD[] =
    "INSERT INTO workers(name, key, added_ms) VALUES (:name, :key, :now)";
static const char W_REVOKE[] =
    "UPDATE workers SET revoked_ms = :now WHERE name = :name AND revoked_ms IS NULL";
static const char W_FIND[] = "SELECT revoked_ms IS NOT NULL FROM workers WHERE name = :name";
static const char W_CLASH[] = "SELECT name FROM workers WHERE name = :name OR key = :key";
static const char W_LIST[] =
    "SELECT id, name, key, added_ms, coalesce(seen_ms, 0), matches, coalesce(revoked_ms, 0)"
    " FROM workers ORDER BY id";
static const char W_SEEN[] =
    "UPDATE workers SET seen_ms = max(coalesce(seen_ms, 0), :seen), matches = matches + :matches"
    " WHERE key = :key";

/* Steps a statement that returns nothing: SQLite's code. */
static int step_done(sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int arena_db_worker_add(arena_db *db, const char *name, const char *key, int64_t now_ms,
                        char *err, size_t size)
{
    if (!adb_name_ok(name)) {
        adb_err(err, size, "worker name must be 1-63 characters of letters, digits, '_', '.', "
                           "'-'");
        return -1;
    }
    if (!adb_text_ok(key, 41, 1) || strlen(key) != 40) {
        adb_err(err, size, "a worker key is 40 Z85 characters");
        return -1;
    }
    sqlite3_stmt *st = adb_stmt(db, W_CLASH);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":name", name));
    ADB_BIND(adb_bind_text(st, ":key", key));
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        char other[64];
        adb_col_text(st, 0, other, sizeof other);
        adb_done(st);
        if (!strcmp(other, name))
            adb_err(err, size, "a worker named %s exists already (revoked ones keep their "
                               "name: pick another)", name);
        else
            adb_err(err, size, "worker %s has this key already", other);
        return -1;
    }
    if (st)
        adb_done(st);
    st = adb_stmt(db, W_ADD);
    rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":name", name));
    ADB_BIND(adb_bind_text(st, ":key", key));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    rc = st ? step_done(st, rc) : rc;
    if (rc != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot add the worker");
        adb_done(st);
        return -1;
    }
    adb_done(st);
    return 0;
}

int arena_db_worker_revoke(arena_db *db, const char *name, int64_t now_ms, char *err,
                           size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, W_REVOKE);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":name", name));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    rc = st ? step_done(st, rc) : rc;
    if (rc != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot revoke the worker");
        adb_done(st);
        return -1;
    }
    adb_done(st);
    if (sqlite3_changes(db->h) == 1)
        return 0;
    st = adb_stmt(db, W_FIND);
    rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":name", name));
    int found = rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
    if (st)
        adb_done(st);
    adb_err(err, size, found ? "worker %s is revoked already" : "no worker named %s", name);
    return -1;
}

static void worker_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_worker_row *w = elem;
    w->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, w->name, sizeof w->name);
    adb_col_text(st, 2, w->key, sizeof w->key);
    w->added_ms = sqlite3_column_int64(st, 3);
    w->seen_ms = sqlite3_column_int64(st, 4);
    w->matches = sqlite3_column_int64(st, 5);
    w->revoked_ms = sqlite3_column_int64(st, 6);
}

int arena_db_worker_list(arena_db *db, arena_worker_row **out)
{
    sqlite3_stmt *st = adb_stmt(db, W_LIST);
    if (!st)
        return -1;
    return adb_collect(st, SQLITE_OK, sizeof **out, worker_row, NULL, (void **)out);
}

int arena_db_worker_seen(arena_db *db, const char *key, int64_t seen_ms, int64_t matches)
{
    sqlite3_stmt *st = adb_stmt(db, W_SEEN);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":key", key));
    ADB_BIND(adb_bind_int(st, ":seen", seen_ms));
    ADB_BIND(adb_bind_int(st, ":matches", matches));
    rc = st ? step_done(st, rc) : rc;
    if (st)
        adb_done(st);
    return rc == SQLITE_OK ? 0 : -1;
}

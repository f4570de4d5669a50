/*
 * arena_db.c - opening the arena's SQLite database and migrating its
 * schema, and the helpers the other arena_db_*.c files share.
 *
 * The schema is an ordered list of migration scripts (arena_db_schema.c);
 * PRAGMA user_version counts how many have been applied, each in its own
 * transaction, so a database is always at exactly one version. Tournaments, matches and
 * ratings live in arena_db_match.c, reports and the replay check in
 * arena_db_check.c (see arena_db_internal.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"
#include "txt.h"
#include "game.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

/* 'ArNa' in the header's application_id: tells our files from other
 * SQLite files that happen to have a user_version. */
#define ADB_APPLICATION_ID 1098010209

/* ---- schema ------------------------------------------------------------- */

/* The migration scripts (arena_db_schema.c), ARENA_DB_SCHEMA of them. */
#define LATEST ARENA_DB_SCHEMA

/* ---- shared helpers ----------------------------------------------------- */

void adb_err(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    txt_vset(err, size, fmt, ap);
    va_end(ap);
    /* One line, whatever a path or sqlite's message contained. */
    for (char *p = err; err && size && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int adb_sqlerr(arena_db *db, char *err, size_t size, const char *what)
{
    adb_err(err, size, "%s: %s", what, db && db->h ? sqlite3_errmsg(db->h) : "no database");
    return -1;
}

sqlite3_stmt *adb_stmt(arena_db *db, const char *sql)
{
    for (int i = 0; i < db->ncache; i++)
        if (db->cache[i].sql == sql) {
            sqlite3_stmt *st = db->cache[i].st;
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            return st;
        }
    assert(db->ncache < ADB_CACHE);   /* a fixed set of call sites */
    if (db->ncache >= ADB_CACHE)
        return NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    db->cache[db->ncache].sql = sql;
    db->cache[db->ncache].st = st;
    db->ncache++;
    return st;
}

void adb_done(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

static int exec_simple(arena_db *db, const char *sql, char *err, size_t size, const char *what)
{
    if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return adb_sqlerr(db, err, size, what);
    return 0;
}

/* Inside a batch (arena_db_batch_begin) each call's transaction is a
 * savepoint of the batch's: still all or nothing, committed with it. */
int adb_begin(arena_db *db, char *err, size_t size)
{
    return exec_simple(db, db->batch ? "SAVEPOINT adb" : "BEGIN IMMEDIATE", err, size,
                       "cannot start a transaction");
}

int adb_begin_read(arena_db *db, char *err, size_t size)
{
    return exec_simple(db, db->batch ? "SAVEPOINT adb" : "BEGIN", err, size,
                       "cannot start a transaction");
}

int adb_commit(arena_db *db, char *err, size_t size)
{
    if (exec_simple(db, db->batch ? "RELEASE adb" : "COMMIT", err, size, "cannot commit") != 0) {
        adb_rollback(db);
        return -1;
    }
    return 0;
}

void adb_rollback(arena_db *db)
{
    /* Harmless when SQLite already rolled back on its own (it does after
     * some errors); the transaction is gone either way. */
    if (sqlite3_get_autocommit(db->h))
        return;
    if (db->batch)       /* only this call's part: the batch's earlier work stays */
        sqlite3_exec(db->h, "ROLLBACK TO adb; RELEASE adb", NULL, NULL, NULL);
    else
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

int arena_db_batch_begin(arena_db *db, char *err, size_t size)
{
    if (exec_simple(db, "BEGIN IMMEDIATE", err, size, "cannot start a transaction") != 0)
        return -1;
    db->batch = 1;
    return 0;
}

int arena_db_batch_commit(arena_db *db, char *err, size_t size)
{
    if (!db->batch)
        return 0;
    db->batch = 0;
    if (sqlite3_get_autocommit(db->h)) {       /* SQLite rolled the batch back on an error */
        adb_err(err, size, "a batch of writes was rolled back");
        return -1;
    }
    return adb_commit(db, err, size);
}

void adb_col_text(sqlite3_stmt *st, int col, char *dst, size_t size)
{
    assert(size > 0);
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

/* A parameter the statement does not name is a bug in its caller. */
static int param(sqlite3_stmt *st, const char *name)
{
    int i = sqlite3_bind_parameter_index(st, name);
    assert(i > 0);
    return i;
}

int adb_bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
    int i = param(st, name);
    if (i <= 0)
        return SQLITE_RANGE;
    return v ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

int adb_bind_int(sqlite3_stmt *st, const char *name, int64_t v)
{
    int i = param(st, name);
    return i > 0 ? sqlite3_bind_int64(st, i, v) : SQLITE_RANGE;
}

int adb_bind_double(sqlite3_stmt *st, const char *name, double v)
{
    int i = param(st, name);
    return i > 0 ? sqlite3_bind_double(st, i, v) : SQLITE_RANGE;
}

int adb_grow(void **v, int *cap, int n, size_t elem)
{
    if (*v && n < *cap)
        return 0;
    int c = *cap ? *cap * 2 : 16;
    void *w = realloc(*v, (size_t)c * elem);
    if (!w)
        return -1;
    *v = w;
    *cap = c;
    return 0;
}

int adb_collect(sqlite3_stmt *st, int rc, size_t elem, adb_row_fn *row, const void *ctx,
                void **out)
{
    char *v = NULL;
    int n = 0, cap = 0;
    *out = NULL;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (adb_grow((void **)&v, &cap, n, elem) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        memset(v + (size_t)n * elem, 0, elem);
        row(st, v + (size_t)n++ * elem, ctx);
        rc = SQLITE_OK;
    }
    adb_done(st);
    if (rc == SQLITE_DONE && adb_grow((void **)&v, &cap, n, elem) != 0)
        rc = SQLITE_NOMEM;          /* never NULL on success, even for 0 rows */
    if (rc != SQLITE_DONE) {
        free(v);
        return -1;
    }
    *out = v;
    return n;
}

int adb_text_ok(const char *s, size_t size, int nonempty)
{
    if (!s)
        return 0;
    size_t n = strnlen(s, size);
    return n < size && (!nonempty || n > 0);
}

/* ---- open and migrate --------------------------------------------------- */

/* A one-row, one-integer query; returns sqlite's result code. */
static int query_int(arena_db *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static const char FOREIGN_TABLES[] =
    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'";
/* The tables every schema since the first has. */
static const char OUR_TABLES[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
    "('bots', 'tournaments', 'matches', 'ratings', 'rating_history')";

/* What the header says about the file: 0 fine (version in *version),
 * -1 with the reason written. Read-only, so a file that is not ours is
 * never touched. */
static int inspect(arena_db *db, const char *path, int *version, char *err, size_t size)
{
    int64_t uv = 0, app = 0, tables = 0, ours = 0;
    int rc = query_int(db, "PRAGMA user_version", &uv);
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = query_int(db, FOREIGN_TABLES, &tables);
    if (rc == SQLITE_OK)
        rc = query_int(db, OUR_TABLES, &ours);
    if ((rc & 0xff) == SQLITE_NOTADB) {
        adb_err(err, size, "%s is not an arena database", path);
        return -1;
    }
    if (rc != SQLITE_OK) {
        adb_err(err, size, "cannot read %s: %s", path, sqlite3_errmsg(db->h));
        return -1;
    }
    if ((app != 0 && app != ADB_APPLICATION_ID) || (uv == 0 && tables > 0) || uv < 0 ||
        (uv > 0 && uv <= LATEST && ours != 5)) {
        adb_err(err, size, "%s is not an arena database", path);
        return -1;
    }
    if (uv > LATEST) {
        adb_err(err, size, "%s was written by a newer arena (schema %lld)", path, (long long)uv);
        return -1;
    }
    *version = (int)uv;
    return 0;
}

/* Runs every statement of a migration script, binding the named
 * parameters it uses: 0, or -1 with err. */
static int exec_script(arena_db *db, const char *sql, char *err, size_t size, const char *what)
{
    const game_api *legacy = game_legacy();
    assert(legacy && legacy->name);
    const struct { const char *name, *value; } params[] = {
        { ":legacy_game", legacy->name },
    };
    while (*sql) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, &tail);
        if (rc == SQLITE_OK && st) {
            for (int i = 1; rc == SQLITE_OK && i <= sqlite3_bind_parameter_count(st); i++) {
                const char *name = sqlite3_bind_parameter_name(st, i);
                size_t k = 0, n = sizeof params / sizeof params[0];
                while (k < n && !(name && strcmp(name, params[k].name) == 0))
                    k++;
                assert(k < n);          /* a script names only parameters we give */
                /* k < n guards the index (cppcheck reads the assert as a doubt) */
                // cppcheck-suppress arrayIndexOutOfBoundsCond
                rc = k < n ? sqlite3_bind_text(st, i, params[k].value, -1, SQLITE_STATIC)
                           : SQLITE_RANGE;
            }
            while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
                rc = SQLITE_OK;
        }
        if (rc != SQLITE_OK && rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, what);
            sqlite3_finalize(st);
            return -1;
        }
        sqlite3_finalize(st);
        sql = tail;
    }
    return 0;
}

int adb_foreign_keys_hold(arena_db *db, char *err, size_t size, const char *what)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
    if (ret > 0 && sqlite3_column_type(st, 1) == SQLITE_NULL)    /* WITHOUT ROWID */
        adb_err(err, size, "%s: table %s refers to a missing row of %s", what,
                (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 2));
    else if (ret > 0)
        adb_err(err, size, "%s: table %s, row %lld, refers to a missing row of %s", what,
                (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
                (const char *)sqlite3_column_text(st, 2));
    else if (ret < 0)
        adb_sqlerr(db, err, size, what);
    sqlite3_finalize(st);
    return ret;
}

/* Applies the missing migrations, one transaction each, with foreign keys
 * off (a table rebuild drops a table others refer to). The version is
 * read again inside each transaction: another process may have migrated
 * while we waited for the write lock. */
static int migrate(arena_db *db, const char *path, char *err, size_t size)
{
    if (exec_simple(db, "PRAGMA foreign_keys = OFF", err, size, "cannot migrate") != 0)
        return -1;
    int ret = -1;
    for (;;) {
        if (adb_begin(db, err, size) != 0)
            goto out;
        int v;
        if (inspect(db, path, &v, err, size) != 0) {
            adb_rollback(db);
            goto out;
        }
        if (v == LATEST) {
            adb_rollback(db);
            break;
        }
        assert(v >= 0 && v < LATEST);
        char set[64];
        snprintf(set, sizeof set, "PRAGMA user_version = %d", v + 1);
        char what[1100];
        snprintf(what, sizeof what, "cannot migrate %.1024s to schema %d", path, v + 1);
        if (exec_script(db, adb_migrations[v], err, size, what) != 0 ||
            (v + 1 == 18 && adb_totals_fill(db, err, size) != 0) ||   /* C's arithmetic */
            adb_foreign_keys_hold(db, err, size, what) != 0 ||
            exec_simple(db, set, err, size, what) != 0) {
            adb_rollback(db);
            goto out;
        }
        if (adb_commit(db, err, size) != 0)
            goto out;
    }
    ret = 0;
out:
    if (exec_simple(db, "PRAGMA foreign_keys = ON", ret ? NULL : err, ret ? 0 : size,
                    "cannot enable foreign keys") != 0)
        ret = -1;
    return ret;
}

static int set_pragmas(arena_db *db, char *err, size_t size)
{
    /* journal_mode answers with the mode now in force: a file system
     * without shared memory would silently stay in "delete". */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        if (!mode || (strcasecmp(mode, "wal") != 0 && strcasecmp(mode, "memory") != 0)) {
            adb_err(err, size, "cannot use WAL mode (journal mode stays %s)", mode ? mode : "?");
            sqlite3_finalize(st);
            return -1;
        }
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot set WAL mode");
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return exec_simple(db, "PRAGMA synchronous = NORMAL", err, size, "cannot set synchronous");
}

/* A handle on path with sqlite's `flags`, configured but not yet
 * inspected: 0, or -1 with err (*out NULL). */
static int db_connect(arena_db **out, const char *path, int create, int flags, char *err,
                   size_t size)
{
    if (!out) {
        adb_err(err, size, "no place for the database handle");
        return -1;
    }
    *out = NULL;
    if (!path || !*path) {
        adb_err(err, size, "the database path is empty");
        return -1;
    }
    struct stat sb;
    if (!create && stat(path, &sb) != 0 && errno == ENOENT) {
        adb_err(err, size, "no database at %s", path);
        return -1;
    }
    arena_db *db = calloc(1, sizeof *db);
    if (!db) {
        adb_err(err, size, "out of memory");
        return -1;
    }
    if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
        if (!db->h)
            adb_err(err, size, "cannot open %s: out of memory", path);
        else
            adb_err(err, size, "cannot open %s: %s", path, sqlite3_errmsg(db->h));
        arena_db_close(db);
        return -1;
    }
    if (sqlite3_extended_result_codes(db->h, 1) != SQLITE_OK ||
        sqlite3_busy_timeout(db->h, 5000) != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot configure the database");
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int arena_db_open(arena_db **out, const char *path, int create, char *err, size_t size)
{
    int version;
    if (db_connect(out, path, create, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
                   err, size) != 0)
        return -1;
    arena_db *db = *out;
    *out = NULL;
    /* Look before writing anything (WAL mode writes the header). */
    if (inspect(db, path, &version, err, size) != 0 ||
        set_pragmas(db, err, size) != 0 ||
        migrate(db, path, err, size) != 0) {
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int arena_db_open_readonly(arena_db **out, const char *path, char *err, size_t size)
{
    int version;
    /* No mutex of its own: SQLite's around every call (a column read
     * included) was a twelfth of the web's first leaderboard at a million
     * matches, and each reader is one thread's at a time. */
    if (db_connect(out, path, 0, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, err, size) != 0)
        return -1;
    arena_db *db = *out;
    *out = NULL;
    if (inspect(db, path, &version, err, size) != 0) {
        arena_db_close(db);
        return -1;
    }
    if (version != LATEST) {
        adb_err(err, size, "%s has schema %d, not %d: run an arena command on it once to upgrade it",
                path, version, LATEST);
        arena_db_close(db);
        return -1;
    }
    if (exec_simple(db, "PRAGMA query_only = 1", err, size, "cannot set query_only") != 0) {
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}


void arena_db_close(arena_db *db)
{
    if (!db)
        return;
    for (int i = 0; i < db->ncache; i++)
        sqlite3_finalize(db->cache[i].st);
    /* Every statement is finalized, so close cannot be refused as busy. */
    int rc = sqlite3_close(db->h);
    assert(rc == SQLITE_OK);
    (void)rc;
    free(db);
}

int arena_db_schema_version(arena_db *db)
{
    int64_t v;
    if (!db || query_int(db, "PRAGMA user_version", &v) != SQLITE_OK)
        return -1;
    return (int)v;
}

/*
 * arena_db_playing.c - the matches in play (arena_db_playing.h): each
 * arena's rows, written at its beat, and the web's reads of them.
 */
#include <stdlib.h>
#include <string.h>
#include "arena_db_internal.h"
#include "arena_db_playing.h"

static const char P_NOT_RUNNING[] = "UPDATE matches_playing SET running = 0 WHERE owner = :owner";
/* A match played again (its worker lost) starts over: its record too. Its
 * id: the first ARENA_PLAYING_BASE, then the next AUTOINCREMENT gives. */
static const char P_UPSERT[] =
    "INSERT INTO matches_playing(id, owner, job, tournament_id, ladder_id, game, options, seed,"
    " bots, started_ms, seen_ms, running, record) VALUES ((SELECT CASE WHEN coalesce(max(seq), 0)"
    " < :base THEN :base END FROM sqlite_sequence WHERE name = 'matches_playing'), :owner, :job,"
    " NULLIF(:tournament, 0), NULLIF(:ladder, 0),"
    " :game, :options, :seed, :bots, :started, :now, 1, :record)"
    " ON CONFLICT(owner, job) DO UPDATE SET started_ms = excluded.started_ms,"
    " seen_ms = excluded.seen_ms, running = 1, record = excluded.record, match_id = NULL";
/* Its rows no worker plays now: stored (then named, and kept a minute
 * more), or waiting again (then left to go unless played again). */
#define P_STORED(of)                                                                    \
    "UPDATE matches_playing SET match_id = m.id, seen_ms = :now FROM matches m"              \
    " WHERE owner = :owner AND running = 0 AND match_id IS NULL"                              \
    " AND m." of " = matches_playing." of " AND m.game_index = matches_playing.job"
static const char P_STORED_T[] = P_STORED("tournament_id");
static const char P_STORED_L[] = P_STORED("ladder_id");
static const char P_FORGET[] = "DELETE FROM matches_playing WHERE seen_ms < :before";

#define P_SELECT                                                                            \
    "SELECT id, job, tournament_id, ladder_id, game, options, seed, bots, started_ms, seen_ms," \
    " running, record, match_id FROM matches_playing"
static const char P_LIST[] =
    P_SELECT " WHERE running = 1 AND match_id IS NULL AND seen_ms >= :fresh ORDER BY id";
static const char P_GET[] = P_SELECT " WHERE id = :id";

/* Steps a write statement: 0, or -1. */
static int step_done(sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int write_owner(arena_db *db, const char *sql, int64_t owner, int64_t now_ms)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    if (sql != P_NOT_RUNNING)
        ADB_BIND(adb_bind_int(st, ":now", now_ms));
    return st ? step_done(st, rc) : -1;
}

static int write_row(arena_db *db, int64_t owner, int64_t tournament_id, int64_t ladder_id,
                     const arena_playing *p, int64_t now_ms)
{
    char bots[ARENA_MAX_SEATS * 24] = "";
    size_t len = 0;
    for (int i = 0; i < p->seats && i < ARENA_MAX_SEATS; i++)
        len += (size_t)snprintf(bots + len, sizeof bots - len, "%s%lld", i ? " " : "",
                                (long long)p->bot[i]);
    sqlite3_stmt *st = adb_stmt(db, P_UPSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":base", ARENA_PLAYING_BASE));
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    ADB_BIND(adb_bind_int(st, ":job", p->job));
    ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    ADB_BIND(adb_bind_text(st, ":game", p->game));
    ADB_BIND(adb_bind_text(st, ":options", p->options ? p->options : ""));
    ADB_BIND(adb_bind_int(st, ":seed", adb_u2i(p->seed)));
    ADB_BIND(adb_bind_text(st, ":bots", bots));
    ADB_BIND(adb_bind_int(st, ":started", p->started_ms));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    ADB_BIND(adb_bind_text(st, ":record", p->record));
    return st ? step_done(st, rc) : -1;
}

int arena_db_playing_sync(arena_db *db, int64_t owner, int64_t tournament_id,
                          int64_t ladder_id, const arena_playing *rows, int n, int64_t now_ms,
                          char *err, size_t size)
{
    if (adb_begin(db, err, size) != 0)
        return -1;
    int ok = write_owner(db, P_NOT_RUNNING, owner, now_ms) == 0;
    for (int i = 0; ok && i < n; i++)
        ok = write_row(db, owner, tournament_id, ladder_id, &rows[i], now_ms) == 0;
    if (ok)
        ok = write_owner(db, tournament_id ? P_STORED_T : P_STORED_L, owner, now_ms) == 0;
    if (ok) {
        sqlite3_stmt *st = adb_stmt(db, P_FORGET);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":before", now_ms - ARENA_PLAYING_KEEP_MS));
        ok = st && step_done(st, rc) == 0;
    }
    if (!ok) {
        adb_sqlerr(db, err, size, "cannot write the matches in play");
        adb_rollback(db);
        return -1;
    }
    return adb_commit(db, err, size);
}

static char *dup_col(sqlite3_stmt *st, int col)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    return t ? strdup(t) : NULL;
}

static void playing_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_playing *p = elem;
    p->id = sqlite3_column_int64(st, 0);
    p->job = sqlite3_column_int64(st, 1);
    p->tournament_id = sqlite3_column_int64(st, 2);
    p->ladder_id = sqlite3_column_int64(st, 3);
    adb_col_text(st, 4, p->game, sizeof p->game);
    p->options = dup_col(st, 5);
    p->seed = adb_i2u(sqlite3_column_int64(st, 6));
    const char *bots = (const char *)sqlite3_column_text(st, 7);
    for (char *end; bots && *bots && p->seats < ARENA_MAX_SEATS; bots = end) {
        p->bot[p->seats++] = strtoll(bots, &end, 10);
        if (end == bots)
            break;
    }
    p->started_ms = sqlite3_column_int64(st, 8);
    p->seen_ms = sqlite3_column_int64(st, 9);
    p->running = sqlite3_column_int(st, 10);
    p->record = dup_col(st, 11);
    p->match_id = sqlite3_column_int64(st, 12);
}

int arena_db_playing_list(arena_db *db, int64_t now_ms, arena_playing **out)
{
    *out = NULL;
    sqlite3_stmt *st = adb_stmt(db, P_LIST);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":fresh", now_ms - ARENA_PLAYING_FRESH_MS));
    return st ? adb_collect(st, rc, sizeof **out, playing_row, NULL, (void **)out) : -1;
}

int arena_db_playing_get(arena_db *db, int64_t id, arena_playing *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = adb_stmt(db, P_GET);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":id", id));
    if (!st)
        return -1;
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        playing_row(st, out, NULL);
    adb_done(st);
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

void arena_playing_clear(arena_playing *p)
{
    free(p->options);
    free(p->record);
    p->options = p->record = NULL;
}

void arena_playing_free_list(arena_playing *rows, int n)
{
    for (int i = 0; i < n; i++)
        arena_playing_clear(&rows[i]);
    free(rows);
}

/*
 * arena_db_tournament.c - tournaments: found by their spec columns (the
 * same command finds the same tournament), created, read back for resume,
 * finished.
 */
#include "arena_db_internal.h"
#include "kv.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- tournaments -------------------------------------------------------- */

/* The terms' columns (ref_terms.h), read and bound by terms_row and
 * bind_terms only. */
#define T_TERMS "move_ms, bank_ms, handshake_ms, strikes, memory_mb, clock, wall_ceiling_pct," \
                " ponder"
#define T_TERMS_VALUES ":move_ms, :bank_ms, :handshake_ms, :strikes, :memory_mb, :clock," \
                       " :wall_ceiling_pct, :ponder"
#define T_TERMS_MATCH "move_ms = :move_ms AND bank_ms = :bank_ms" \
    " AND handshake_ms = :handshake_ms AND strikes = :strikes AND memory_mb = :memory_mb" \
    " AND clock = :clock AND wall_ceiling_pct = :wall_ceiling_pct AND ponder = :ponder"
#define T_TERMS_COUNT 8

/* The spec columns (the identity) in one order for every query. */
#define T_SPEC "game, format, games, options, seed, bots, elo_k, " T_TERMS
#define T_COLUMNS "id, " T_SPEC ", planned, finished_at IS NOT NULL," \
    " (SELECT count(*) FROM matches m WHERE m.tournament_id = t.id)"

static const char T_BY_SPEC[] = "SELECT " T_COLUMNS " FROM tournaments t"
    " WHERE game = :game AND format = :format AND games = :games AND options = :options"
    " AND seed = :seed AND bots = :bots AND elo_k = :elo_k AND " T_TERMS_MATCH;
static const char T_BY_ID[] = "SELECT " T_COLUMNS " FROM tournaments t WHERE id = :id";
static const char T_LATEST[] = "SELECT " T_COLUMNS " FROM tournaments t "
    "WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1";
static const char T_INSERT[] = "INSERT INTO tournaments(" T_SPEC ", planned, created_at)"
    " VALUES (:game, :format, :games, :options, :seed, :bots, :elo_k, " T_TERMS_VALUES ","
    " :planned, :now)";

/* The T_TERMS columns from column `col` on: 0, or -1 for a clock this
 * arena does not know. */
static int terms_row(sqlite3_stmt *st, int col, ref_terms *t)
{
    t->move_ms = sqlite3_column_int64(st, col);
    t->bank_ms = sqlite3_column_int64(st, col + 1);
    t->handshake_ms = sqlite3_column_int64(st, col + 2);
    t->strikes = sqlite3_column_int(st, col + 3);
    t->memory_mb = sqlite3_column_int64(st, col + 4);
    const char *clock = (const char *)sqlite3_column_text(st, col + 5);
    t->wall_ceiling_pct = sqlite3_column_int(st, col + 6);
    t->ponder = sqlite3_column_int(st, col + 7);
    return clock && ref_clock_mode_parse(clock, &t->clock) == 0 ? 0 : -1;
}

static int bind_terms(sqlite3_stmt *st, const ref_terms *t)
{
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":move_ms", t->move_ms));
    ADB_BIND(adb_bind_int(st, ":bank_ms", t->bank_ms));
    ADB_BIND(adb_bind_int(st, ":handshake_ms", t->handshake_ms));
    ADB_BIND(adb_bind_int(st, ":strikes", t->strikes));
    ADB_BIND(adb_bind_int(st, ":memory_mb", t->memory_mb));
    ADB_BIND(adb_bind_text(st, ":clock", ref_clock_mode_name(t->clock)));
    ADB_BIND(adb_bind_int(st, ":wall_ceiling_pct", t->wall_ceiling_pct));
    ADB_BIND(adb_bind_int(st, ":ponder", t->ponder));
    return rc;
}

/* Entrants as stored: ids in order, space-separated. */
static int bots_text(const arena_tournament *t, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < t->nbots; i++) {
        int w = snprintf(buf + n, size - n, "%s%" PRId64, i ? " " : "", t->bot[i]);
        if (w < 0 || (size_t)w >= size - n)
            return -1;
        n += (size_t)w;
    }
    return 0;
}

/* And back: 0, or -1 for anything but positive ids (at most ARENA_MAX_BOTS)
 * each after one space. */
static int bots_parse(const char *text, arena_tournament *t)
{
    char word[24];
    t->nbots = 0;
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, " ");
        int64_t id;
        if (n == 0 || n >= sizeof word || t->nbots == ARENA_MAX_BOTS)
            return -1;
        memcpy(word, p, n);
        word[n] = 0;
        if (kv_i64(word, 1, INT64_MAX, &id) < 0)
            return -1;
        t->bot[t->nbots++] = id;
        p += n;
        if (*p == ' ' && *++p == 0)
            return -1;              /* a trailing space */
    }
    return 0;
}

/* One row of the T_COLUMNS queries: 0, or -1 on an unreadable row. */
static int tournament_row(sqlite3_stmt *st, arena_tournament *t)
{
    memset(t, 0, sizeof *t);
    t->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, t->game, sizeof t->game);
    adb_col_text(st, 2, t->format, sizeof t->format);
    t->games = sqlite3_column_int(st, 3);
    adb_col_text(st, 4, t->options, sizeof t->options);
    t->seed = adb_i2u(sqlite3_column_int64(st, 5));
    int ok = bots_parse((const char *)sqlite3_column_text(st, 6), t) == 0;
    t->elo_k = sqlite3_column_double(st, 7);
    ok = terms_row(st, 8, &t->terms) == 0 && ok;
    t->planned = sqlite3_column_int(st, 8 + T_TERMS_COUNT);
    t->finished = sqlite3_column_int(st, 9 + T_TERMS_COUNT);
    t->done = sqlite3_column_int(st, 10 + T_TERMS_COUNT);
    return ok ? 0 : -1;
}

/* Binds the spec columns of t (bots: its text) to st. */
static int bind_spec(sqlite3_stmt *st, const arena_tournament *t, const char *bots)
{
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_text(st, ":game", t->game));
    ADB_BIND(adb_bind_text(st, ":format", t->format));
    ADB_BIND(adb_bind_int(st, ":games", t->games));
    ADB_BIND(adb_bind_text(st, ":options", t->options));
    ADB_BIND(adb_bind_int(st, ":seed", adb_u2i(t->seed)));
    ADB_BIND(adb_bind_text(st, ":bots", bots));
    ADB_BIND(adb_bind_double(st, ":elo_k", t->elo_k));
    if (rc == SQLITE_OK)
        rc = bind_terms(st, &t->terms);
    return rc;
}

/* Steps a T_COLUMNS query whose parameters are bound: 0 found (into
 * *out, when given), 1 none, -1 error. Resets st. */
static int tournament_step(sqlite3_stmt *st, int rc, arena_tournament *out)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    arena_tournament t;
    if (ret == 0 && tournament_row(st, &t) != 0)
        ret = -1;
    if (ret == 0 && out)
        *out = t;
    adb_done(st);
    return ret;
}

static int tournament_by_id(arena_db *db, int64_t id, arena_tournament *out)
{
    sqlite3_stmt *st = adb_stmt(db, T_BY_ID);
    return st ? tournament_step(st, adb_bind_int(st, ":id", id), out) : -1;
}

static int tournament_valid(arena_db *db, const arena_tournament *t, char *err, size_t size)
{
    if (!adb_text_ok(t->game, sizeof t->game, 1) ||
        !adb_text_ok(t->format, sizeof t->format, 1) ||
        !adb_text_ok(t->options, sizeof t->options, 0)) {
        adb_err(err, size, "tournament: game or format empty, or a field too long");
        return 0;
    }
    if (t->games < 0 || t->planned < 0 || t->nbots < 0 || t->nbots > ARENA_MAX_BOTS) {
        adb_err(err, size, "tournament: negative games or planned count, or too many bots");
        return 0;
    }
    if (!isfinite(t->elo_k) || t->elo_k < 0.0) {
        adb_err(err, size, "tournament: the Elo K must be a finite number >= 0");
        return 0;
    }
    for (int i = 0; i < t->nbots; i++) {
        arena_bot b;
        if (t->bot[i] <= 0 || arena_db_bot_by_id(db, t->bot[i], &b) != 0) {
            adb_err(err, size, "tournament: no bot with id %" PRId64, t->bot[i]);
            return 0;
        }
    }
    return 1;
}

int arena_db_tournament_open(arena_db *db, arena_tournament *t, char *err, size_t size)
{
    if (!db || !t) {
        adb_err(err, size, "no database or no tournament");
        return -1;
    }
    char bots[ARENA_MAX_BOTS * 21];
    if (!tournament_valid(db, t, err, size) || bots_text(t, bots, sizeof bots) != 0)
        return -1;
    if (adb_begin(db, err, size) != 0)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_BY_SPEC);
    arena_tournament found;
    int r = st ? tournament_step(st, bind_spec(st, t, bots), &found) : -1;
    if (r < 0) {
        adb_sqlerr(db, err, size, "cannot look up the tournament");
        adb_rollback(db);
        return -1;
    }
    if (r == 0) {
        adb_rollback(db);     /* nothing written */
        *t = found;
        return 1;
    }
    st = adb_stmt(db, T_INSERT);
    int rc = st ? bind_spec(st, t, bots) : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":planned", t->planned));
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        adb_sqlerr(db, err, size, "cannot create the tournament");
        adb_done(st);
        adb_rollback(db);
        return -1;
    }
    adb_done(st);
    int64_t id = sqlite3_last_insert_rowid(db->h);
    if (adb_commit(db, err, size) != 0)
        return -1;
    t->id = id;
    t->done = 0;
    t->finished = 0;
    return 0;
}

int arena_db_tournament_get(arena_db *db, int64_t id, arena_tournament *out)
{
    if (!db || !out)
        return -1;
    if (id <= 0)
        return 1;
    return tournament_by_id(db, id, out);
}

int arena_db_tournament_latest_unfinished(arena_db *db, arena_tournament *out)
{
    if (!db || !out)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_LATEST);
    return st ? tournament_step(st, SQLITE_OK, out) : -1;
}

static const char T_FINISH[] =
    "UPDATE tournaments SET finished_at = :now WHERE id = :id AND finished_at IS NULL";

/* 0 finished (now or before), 1 no such tournament, -1 error. */
int arena_db_tournament_finish(arena_db *db, int64_t id)
{
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_FINISH);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":id", id));
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc != SQLITE_DONE)
        return -1;
    if (sqlite3_changes(db->h) > 0)
        return 0;
    /* Finishing twice keeps the first time; only a missing id is news. */
    return tournament_by_id(db, id, NULL);
}

static const char T_DONE[] =
    "SELECT game_index FROM matches WHERE tournament_id = :tournament AND game_index >= :from "
    "ORDER BY game_index LIMIT :limit";

static void index_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    *(int *)out = sqlite3_column_int(st, 0);
}

int arena_db_tournament_done(arena_db *db, int64_t id, int from, int limit, int **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_DONE);
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":tournament", id);
    if (rc == SQLITE_OK)
        rc = adb_bind_int(st, ":from", from);
    if (rc == SQLITE_OK)
        rc = adb_bind_int(st, ":limit", limit > 0 ? limit : -1);
    return adb_collect(st, rc, sizeof **out, index_row, NULL, (void **)out);
}

/* Each entrant's rating before its first match of the tournament; an
 * entrant with none yet: its live rating (the start for a new bot). */
static const char T_START_ELO[] =
    "SELECT COALESCE((SELECT h.elo_before FROM rating_history h"
    "                 JOIN matches m ON m.id = h.match_id"
    "                 WHERE m.tournament_id = :tournament AND h.bot_id = :bot"
    "                 ORDER BY h.match_id LIMIT 1),"
    "                (SELECT elo FROM ratings WHERE bot_id = :bot), :start)";

static void real_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    *(double *)out = sqlite3_column_double(st, 0);
}

int arena_db_tournament_start_elo(arena_db *db, int64_t id, int nbots, const int64_t *bot,
                                  double *elo)
{
    for (int i = 0; db && i < nbots; i++) {
        sqlite3_stmt *st = adb_stmt(db, T_START_ELO);
        if (!st)
            return -1;
        double *got = NULL;
        int rc = adb_bind_int(st, ":tournament", id);
        ADB_BIND(adb_bind_int(st, ":bot", bot[i]));
        ADB_BIND(sqlite3_bind_double(st, sqlite3_bind_parameter_index(st, ":start"),
                                     ARENA_ELO_START));
        if (adb_collect(st, rc, sizeof *got, real_row, NULL, (void **)&got) != 1) {
            free(got);
            return -1;
        }
        elo[i] = *got;
        free(got);
    }
    return db ? 0 : -1;
}

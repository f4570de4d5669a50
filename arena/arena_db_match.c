/*
 * arena_db_match.c - tournaments, matches, and the Elo update that goes in
 * with each match.
 *
 * A match, its rating changes and its rating_history rows are written in
 * one BEGIN IMMEDIATE transaction: a crash leaves all or none of them, and
 * the ratings table stays a replay of the matches table (which
 * arena_db_check.c verifies with the same adb_elo_match).
 */
#include "arena_db_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ratings.h"

/* Binds in a chain: the first failure is kept, the rest are skipped. */
#define BIND(call) do { if (rc == SQLITE_OK) rc = (call); } while (0)

/* ---- the rating rule ---------------------------------------------------- */

int adb_score_ok(double s)
{
    return s == 0.0 || s == 0.5 || s == 1.0;
}

int adb_match_ok(int seats, const double score[ARENA_MAX_SEATS], double k,
                 char *err, size_t size)
{
    if (seats != 2 && seats != 4) {
        adb_err(err, size, "a match has 2 or 4 seats, not %d", seats);
        return 0;
    }
    for (int i = 0; i < seats; i++)
        if (!adb_score_ok(score[i])) {
            adb_err(err, size, "seat %d's score must be 0, 0.5 or 1", i);
            return 0;
        }
    /* The update uses one side's score for both sides and the results
     * count every seat, so the two only agree on complementary scores. */
    if (score[0] + score[1] != 1.0 ||
        (seats == 4 && (score[2] != score[0] || score[3] != score[1]))) {
        adb_err(err, size, "the scores must sum to 1 between the sides%s",
                seats == 4 ? " (teams 0+2 and 1+3 score alike)" : "");
        return 0;
    }
    if (!isfinite(k) || k < 0.0) {
        adb_err(err, size, "the Elo K must be a finite number >= 0");
        return 0;
    }
    return 1;
}

void adb_elo_match(int seats, const int64_t bot[ARENA_MAX_SEATS],
                   const double score[ARENA_MAX_SEATS], double k,
                   double elo[ARENA_MAX_SEATS])
{
    assert(seats == 2 || seats == 4);
    if (seats == 2 && bot[0] != bot[1]) {
        rt_elo_update(&elo[0], &elo[1], score[0], k);
        return;
    }
    double delta[ARENA_MAX_SEATS];
    if (seats == 2) {
        delta[0] = rt_elo_delta(elo[0], elo[1], score[0], k);
        delta[1] = -delta[0];
    } else {
        double a = (elo[0] + elo[2]) / 2.0, b = (elo[1] + elo[3]) / 2.0;
        double d = rt_elo_delta(a, b, score[0], k);
        delta[0] = delta[2] = d;
        delta[1] = delta[3] = -d;
    }
    /* Sequentially, seat by seat, so a bot in two seats gets both. */
    for (int i = 0; i < seats; i++)
        for (int j = 0; j < seats; j++)
            if (bot[j] == bot[i])
                elo[j] += delta[i];
}

void arena_elo_match(int seats, const int64_t bot[ARENA_MAX_SEATS],
                     const double score[ARENA_MAX_SEATS], double k,
                     double elo[ARENA_MAX_SEATS])
{
    adb_elo_match(seats, bot, score, k, elo);
}

/* ---- tournaments -------------------------------------------------------- */

#define T_COLUMNS "id, key, format, games, options, seed, bots, planned, " \
    "finished_at IS NOT NULL, (SELECT count(*) FROM matches m WHERE m.tournament_id = t.id)"

static const char T_BY_KEY[] = "SELECT " T_COLUMNS " FROM tournaments t WHERE key = ?1";
static const char T_BY_ID[] = "SELECT " T_COLUMNS " FROM tournaments t WHERE id = ?1";
static const char T_LATEST[] = "SELECT " T_COLUMNS " FROM tournaments t "
    "WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1";
static const char T_INSERT[] =
    "INSERT INTO tournaments(key, format, games, options, seed, bots, planned, created_at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

static void tournament_row(sqlite3_stmt *st, arena_tournament *t)
{
    memset(t, 0, sizeof *t);
    t->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, t->key, sizeof t->key);
    adb_col_text(st, 2, t->format, sizeof t->format);
    t->games = sqlite3_column_int(st, 3);
    adb_col_text(st, 4, t->options, sizeof t->options);
    t->seed = adb_i2u(sqlite3_column_int64(st, 5));
    adb_col_text(st, 6, t->bots, sizeof t->bots);
    t->planned = sqlite3_column_int(st, 7);
    t->finished = sqlite3_column_int(st, 8);
    t->done = sqlite3_column_int(st, 9);
}

/* One tournament by a query with at most one bound value: 0, 1, -1. */
static int tournament_one(arena_db *db, const char *sql, const char *key, int64_t id,
                          arena_tournament *out)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    if (key)
        BIND(sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC));
    else if (id)
        BIND(sqlite3_bind_int64(st, 1, id));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    if (ret == 0 && out)
        tournament_row(st, out);
    adb_done(st);
    return ret;
}

int arena_db_tournament_open(arena_db *db, arena_tournament *t, char *err, size_t size)
{
    if (!db || !t) {
        adb_err(err, size, "no database or no tournament");
        return -1;
    }
    if (!adb_text_ok(t->key, sizeof t->key, 1) ||
        !adb_text_ok(t->format, sizeof t->format, 1) ||
        !adb_text_ok(t->options, sizeof t->options, 0) ||
        !adb_text_ok(t->bots, sizeof t->bots, 0)) {
        adb_err(err, size, "tournament: key or format empty, or a field too long");
        return -1;
    }
    if (t->games < 0 || t->planned < 0) {
        adb_err(err, size, "tournament: negative games or planned count");
        return -1;
    }
    if (adb_begin(db, err, size) != 0)
        return -1;
    arena_tournament found;
    int r = tournament_one(db, T_BY_KEY, t->key, 0, &found);
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
    sqlite3_stmt *st = adb_stmt(db, T_INSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    BIND(sqlite3_bind_text(st, 1, t->key, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_text(st, 2, t->format, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int(st, 3, t->games));
    BIND(sqlite3_bind_text(st, 4, t->options, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int64(st, 5, adb_u2i(t->seed)));
    BIND(sqlite3_bind_text(st, 6, t->bots, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int(st, 7, t->planned));
    BIND(sqlite3_bind_int64(st, 8, clk_wall_ms()));
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
    return tournament_one(db, T_BY_ID, NULL, id, out);
}

int arena_db_tournament_latest_unfinished(arena_db *db, arena_tournament *out)
{
    if (!db || !out)
        return -1;
    return tournament_one(db, T_LATEST, NULL, 0, out);
}

static const char T_FINISH[] =
    "UPDATE tournaments SET finished_at = ?2 WHERE id = ?1 AND finished_at IS NULL";

/* 0 finished (now or before), 1 no such tournament, -1 error. */
int arena_db_tournament_finish(arena_db *db, int64_t id)
{
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_FINISH);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    BIND(sqlite3_bind_int64(st, 1, id));
    BIND(sqlite3_bind_int64(st, 2, clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc != SQLITE_DONE)
        return -1;
    if (sqlite3_changes(db->h) > 0)
        return 0;
    /* Finishing twice keeps the first time; only a missing id is news. */
    return tournament_one(db, T_BY_ID, NULL, id, NULL);
}

static const char T_DONE[] =
    "SELECT game_index FROM matches WHERE tournament_id = ?1 ORDER BY game_index";

int arena_db_tournament_done(arena_db *db, int64_t id, int **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_DONE);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, id);
    int n = 0, cap = 64;
    int *v = malloc((size_t)cap * sizeof *v);
    while (v && rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (n == cap) {
            int *w = realloc(v, (size_t)cap * 2 * sizeof *v);
            if (!w) {
                rc = SQLITE_NOMEM;
                break;
            }
            v = w;
            cap *= 2;
        }
        v[n++] = sqlite3_column_int(st, 0);
    }
    adb_done(st);
    if (!v || rc != SQLITE_DONE) {
        free(v);
        return -1;
    }
    *out = v;
    return n;
}

/* ---- matches ------------------------------------------------------------ */

static const char M_TOURNAMENT_EXISTS[] = "SELECT 1 FROM tournaments WHERE id = ?1";
static const char M_DUPLICATE[] =
    "SELECT id FROM matches WHERE tournament_id = ?1 AND game_index = ?2";
static const char M_BOT_EXISTS[] = "SELECT 1 FROM bots WHERE id = ?1";
static const char M_RATING[] = "SELECT elo, games FROM ratings WHERE bot_id = ?1";
static const char M_INSERT[] =
    "INSERT INTO matches(tournament_id, game_index, seed, options, seats,"
    " bot0, bot1, bot2, bot3, score0, score1, score2, score3, reason, culprit,"
    " detail, decisions, hash, record, started_ms, finished_ms, elo_k) VALUES"
    " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
    "  ?16, ?17, ?18, ?19, ?20, ?21, ?22)";
static const char M_RATING_SET[] =
    "INSERT INTO ratings(bot_id, elo, games) VALUES (?1, ?2, ?3) "
    "ON CONFLICT(bot_id) DO UPDATE SET elo = excluded.elo, games = excluded.games";
static const char M_HISTORY[] =
    "INSERT INTO rating_history(match_id, bot_id, elo_before, elo_after) "
    "VALUES (?1, ?2, ?3, ?4)";

/* Runs a query with one or two integer parameters and reads one integer
 * from its first row: 0 row (*val set), 1 none, -1 error. */
static int lookup(arena_db *db, const char *sql, int64_t a, int64_t b, int two, int64_t *val)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, a);
    if (two)
        BIND(sqlite3_bind_int64(st, 2, b));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    if (ret == 0 && val)
        *val = sqlite3_column_int64(st, 0);
    adb_done(st);         /* keeps sqlite's message: reset repeats it */
    return ret;
}

static int match_valid(const arena_match *m, char *err, size_t size)
{
    if (!adb_match_ok(m->seats, m->score, m->elo_k, err, size))
        return 0;
    if (m->tournament_id < 0 || (m->tournament_id > 0 && m->game_index < 0)) {
        adb_err(err, size, "a tournament match needs a game index >= 0");
        return 0;
    }
    for (int i = 0; i < m->seats; i++)
        if (m->bot[i] <= 0) {
            adb_err(err, size, "seat %d has no bot", i);
            return 0;
        }
    if (m->culprit < -1 || m->culprit >= m->seats || m->decisions < 0) {
        adb_err(err, size, "culprit must be a seat or -1, decisions >= 0");
        return 0;
    }
    if (!adb_text_ok(m->options, sizeof m->options, 0) ||
        !adb_text_ok(m->reason, sizeof m->reason, 0) ||
        !adb_text_ok(m->detail, sizeof m->detail, 0)) {
        adb_err(err, size, "match options, reason or detail too long");
        return 0;
    }
    return 1;
}

/* The writes of one match, inside the caller's transaction. Returns 0,
 * 1 duplicate (*id the stored match), -1 with err. */
static int store_in_txn(arena_db *db, const arena_match *m, int64_t *id, char *err, size_t size)
{
    int64_t v;
    int r;
    if (m->tournament_id > 0) {
        r = lookup(db, M_TOURNAMENT_EXISTS, m->tournament_id, 0, 0, NULL);
        if (r != 0) {
            if (r < 0)
                return adb_sqlerr(db, err, size, "cannot look up the tournament");
            adb_err(err, size, "no tournament with id %" PRId64, m->tournament_id);
            return -1;
        }
        r = lookup(db, M_DUPLICATE, m->tournament_id, m->game_index, 1, &v);
        if (r < 0)
            return adb_sqlerr(db, err, size, "cannot look for a stored match");
        if (r == 0) {
            *id = v;
            return 1;
        }
    }

    /* Ratings before the match; a bot's first game starts it at 1500. */
    double elo[ARENA_MAX_SEATS], before[ARENA_MAX_SEATS];
    int64_t games[ARENA_MAX_SEATS];
    for (int i = 0; i < m->seats; i++) {
        r = lookup(db, M_BOT_EXISTS, m->bot[i], 0, 0, NULL);
        if (r != 0) {
            if (r < 0)
                return adb_sqlerr(db, err, size, "cannot look up a bot");
            adb_err(err, size, "no bot with id %" PRId64 " (seat %d)", m->bot[i], i);
            return -1;
        }
        sqlite3_stmt *st = adb_stmt(db, M_RATING);
        int rc = st ? sqlite3_bind_int64(st, 1, m->bot[i]) : SQLITE_ERROR;
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            elo[i] = sqlite3_column_double(st, 0);
            games[i] = sqlite3_column_int64(st, 1);
        } else if (rc == SQLITE_DONE) {
            elo[i] = ARENA_ELO_START;
            games[i] = 0;
        } else {
            adb_sqlerr(db, err, size, "cannot read a rating");
            adb_done(st);
            return -1;
        }
        adb_done(st);
        before[i] = elo[i];
    }
    adb_elo_match(m->seats, m->bot, m->score, m->elo_k, elo);

    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, m->hash);
    sqlite3_stmt *st = adb_stmt(db, M_INSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    if (m->tournament_id > 0)
        BIND(sqlite3_bind_int64(st, 1, m->tournament_id));   /* else NULL */
    BIND(sqlite3_bind_int(st, 2, m->game_index));
    BIND(sqlite3_bind_int64(st, 3, adb_u2i(m->seed)));
    BIND(sqlite3_bind_text(st, 4, m->options, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int(st, 5, m->seats));
    for (int i = 0; i < m->seats; i++) {                     /* unused seats: NULL */
        BIND(sqlite3_bind_int64(st, 6 + i, m->bot[i]));
        BIND(sqlite3_bind_double(st, 10 + i, m->score[i]));
    }
    BIND(sqlite3_bind_text(st, 14, m->reason, -1, SQLITE_STATIC));
    if (m->culprit >= 0)
        BIND(sqlite3_bind_int(st, 15, m->culprit));
    BIND(sqlite3_bind_text(st, 16, m->detail, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int(st, 17, m->decisions));
    BIND(sqlite3_bind_text(st, 18, hash, -1, SQLITE_STATIC));
    if (m->record)
        BIND(sqlite3_bind_text(st, 19, m->record, -1, SQLITE_STATIC));
    BIND(sqlite3_bind_int64(st, 20, m->started_ms));
    BIND(sqlite3_bind_int64(st, 21, m->finished_ms));
    BIND(sqlite3_bind_double(st, 22, m->elo_k));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
        adb_sqlerr(db, err, size, "cannot store the match");
        adb_done(st);
        return -1;
    }
    adb_done(st);
    int64_t mid = sqlite3_last_insert_rowid(db->h);

    for (int i = 0; i < m->seats; i++) {
        int first = 1;            /* one rating write and history row per bot */
        for (int j = 0; j < i; j++)
            if (m->bot[j] == m->bot[i])
                first = 0;
        if (!first)
            continue;
        st = adb_stmt(db, M_RATING_SET);
        rc = st ? SQLITE_OK : SQLITE_ERROR;
        BIND(sqlite3_bind_int64(st, 1, m->bot[i]));
        BIND(sqlite3_bind_double(st, 2, elo[i]));
        BIND(sqlite3_bind_int64(st, 3, games[i] + 1));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc == SQLITE_DONE) {
            adb_done(st);
            st = adb_stmt(db, M_HISTORY);
            rc = st ? SQLITE_OK : SQLITE_ERROR;
            BIND(sqlite3_bind_int64(st, 1, mid));
            BIND(sqlite3_bind_int64(st, 2, m->bot[i]));
            BIND(sqlite3_bind_double(st, 3, before[i]));
            BIND(sqlite3_bind_double(st, 4, elo[i]));
            if (rc == SQLITE_OK)
                rc = sqlite3_step(st);
        }
        if (rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, "cannot update the ratings");
            adb_done(st);
            return -1;
        }
        adb_done(st);
    }
    *id = mid;
    return 0;
}

int arena_db_match_store(arena_db *db, arena_match *m, char *err, size_t size)
{
    if (!db || !m) {
        adb_err(err, size, "no database or no match");
        return -1;
    }
    if (!match_valid(m, err, size))
        return -1;
    if (adb_begin(db, err, size) != 0)
        return -1;
    int64_t id = 0;
    int r = store_in_txn(db, m, &id, err, size);
    if (r != 0) {
        adb_rollback(db);     /* a duplicate wrote nothing either */
        if (r == 1)
            m->id = id;
        return r;
    }
    if (adb_commit(db, err, size) != 0)
        return -1;
    m->id = id;
    return 0;
}

static const char M_GET[] = "SELECT id, tournament_id, game_index, seed, options, seats,"
    " bot0, bot1, bot2, bot3, score0, score1, score2, score3, reason, culprit,"
    " detail, decisions, hash, record, started_ms, finished_ms, elo_k"
    " FROM matches WHERE id = ?1";

/* The same columns with NULL for the record, every match of a tournament
 * (?1, 0 = all) with a number of seats (?2, 0 = any), in the order played. */
static const char M_LIST[] = "SELECT id, tournament_id, game_index, seed, options, seats,"
    " bot0, bot1, bot2, bot3, score0, score1, score2, score3, reason, culprit,"
    " detail, decisions, hash, NULL, started_ms, finished_ms, elo_k"
    " FROM matches WHERE (?1 = 0 OR tournament_id = ?1) AND (?2 = 0 OR seats = ?2)"
    " ORDER BY id";

/* One row of M_GET or M_LIST into *out; 0, or -1 on a bad row. */
static int read_match(sqlite3_stmt *st, arena_match *out)
{
    memset(out, 0, sizeof *out);
    out->id = sqlite3_column_int64(st, 0);
    out->tournament_id = sqlite3_column_int64(st, 1);   /* NULL reads as 0 */
    out->game_index = sqlite3_column_int(st, 2);
    out->seed = adb_i2u(sqlite3_column_int64(st, 3));
    adb_col_text(st, 4, out->options, sizeof out->options);
    out->seats = sqlite3_column_int(st, 5);
    for (int i = 0; i < ARENA_MAX_SEATS && i < out->seats; i++) {
        out->bot[i] = sqlite3_column_int64(st, 6 + i);
        out->score[i] = sqlite3_column_double(st, 10 + i);
    }
    adb_col_text(st, 14, out->reason, sizeof out->reason);
    out->culprit = sqlite3_column_type(st, 15) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 15);
    adb_col_text(st, 16, out->detail, sizeof out->detail);
    out->decisions = sqlite3_column_int(st, 17);
    const char *hex = (const char *)sqlite3_column_text(st, 18);
    char *end = NULL;
    out->hash = hex ? strtoull(hex, &end, 16) : 0;
    int ok = hex && end == hex + 16 && *end == 0;
    const unsigned char *rec = sqlite3_column_text(st, 19);
    if (ok && rec) {
        size_t n = (size_t)sqlite3_column_bytes(st, 19);
        out->record = malloc(n + 1);
        if (out->record) {
            memcpy(out->record, rec, n);
            out->record[n] = 0;
        }
        ok = out->record != NULL;
    }
    out->started_ms = sqlite3_column_int64(st, 20);
    out->finished_ms = sqlite3_column_int64(st, 21);
    out->elo_k = sqlite3_column_double(st, 22);
    return ok ? 0 : -1;
}

int arena_db_match_get(arena_db *db, int64_t id, arena_match *out)
{
    if (!out)
        return -1;
    memset(out, 0, sizeof *out);
    out->culprit = -1;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, M_GET);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        adb_done(st);
        return rc == SQLITE_DONE ? 1 : -1;
    }
    int ok = read_match(st, out) == 0;
    adb_done(st);
    return ok ? 0 : -1;
}

int arena_db_match_list(arena_db *db, int64_t tournament_id, int seats, arena_match **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, M_LIST);
    if (!st)
        return -1;
    int rc = sqlite3_bind_int64(st, 1, tournament_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int(st, 2, seats);
    arena_match *v = NULL;
    size_t n = 0, cap = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (n == cap) {
            size_t c = cap ? 2 * cap : 64;
            arena_match *w = realloc(v, c * sizeof *w);
            if (!w) {
                rc = SQLITE_NOMEM;
                break;
            }
            v = w;
            cap = c;
        }
        if (read_match(st, &v[n++]) != 0)
            rc = SQLITE_CORRUPT;
    }
    adb_done(st);
    if (rc != SQLITE_DONE || (!v && !(v = malloc(sizeof *v)))) {
        free(v);
        return -1;
    }
    *out = v;
    return (int)n;
}

void arena_match_free(arena_match *m)
{
    if (!m)
        return;
    free(m->record);
    m->record = NULL;
}

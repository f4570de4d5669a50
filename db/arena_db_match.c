/*
 * arena_db_match.c - matches: one matches row and one match_seats row per
 * seat, stored with the Elo update that goes in with each, and read back.
 *
 * A match, its seats, its rating changes and its rating_history rows are
 * written in one BEGIN IMMEDIATE transaction: a crash leaves all or none
 * of them, and the ratings table stays a replay of the matches table
 * (which arena_db_check.c verifies with the same arena_elo_match).
 */
#include "arena_db_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ratings.h"

/* ---- the rating rule ---------------------------------------------------- */

/* 1 the whole win, 0 a loss, between: a share of a win (a draw, a tie
 * of several seats). */
static int score_ok(double s)
{
    return s >= 0.0 && s <= 1.0;
}

/* A void match: one side, nobody scored, nobody to blame. */
static int void_ok(const arena_match *m, char *err, size_t size)
{
    for (int i = 0; i < m->seats; i++)
        if (m->team[i] != 0 || m->score[i] != 0.0) {
            adb_err(err, size, "a void match's seats are all team 0, scoring 0");
            return 0;
        }
    if (m->culprit != -1) {
        adb_err(err, size, "a void match has no culprit");
        return 0;
    }
    return 1;
}

int adb_match_ok(const arena_match *m, char *err, size_t size)
{
    if (m->seats < 2 || m->seats > ARENA_MAX_SEATS) {
        adb_err(err, size, "a match has 2 to %d seats, not %d", ARENA_MAX_SEATS, m->seats);
        return 0;
    }
    if (ARENA_MATCH_VOID(m))
        return void_ok(m, err, size);
    double side[ARENA_MAX_SEATS];     /* each team's score, by team */
    int seen[ARENA_MAX_SEATS] = {0}, teams = 0;
    for (int i = 0; i < m->seats; i++) {
        int t = m->team[i];
        if (t < 0 || t >= m->seats) {
            adb_err(err, size, "seat %d's team must be 0 to %d", i, m->seats - 1);
            return 0;
        }
        if (!score_ok(m->score[i])) {
            adb_err(err, size, "seat %d's score must be from 0 to 1", i);
            return 0;
        }
        if (seen[t] && side[t] != m->score[i]) {
            adb_err(err, size, "seat %d scored apart from its team %d", i, t);
            return 0;
        }
        teams += !seen[t];
        seen[t] = 1;
        side[t] = m->score[i];
    }
    if (teams < 2) {
        adb_err(err, size, "a match needs two teams or more");
        return 0;
    }
    /* Two sides: one result, which the rating and the W-D-L counts read
     * alike only when the scores are complementary. */
    double sum = 0;
    for (int t = 0; t < m->seats; t++)
        sum += seen[t] ? side[t] : 0.0;
    if (teams == 2 && sum != 1.0) {
        adb_err(err, size, "the scores must sum to 1 between the two sides");
        return 0;
    }
    if (!isfinite(m->elo_k) || m->elo_k < 0.0) {
        adb_err(err, size, "the Elo K must be a finite number >= 0");
        return 0;
    }
    return 1;
}

void adb_match_players(const arena_match *m, int *player)
{
    for (int i = 0; i < m->seats; i++) {
        player[i] = i;
        for (int j = 0; j < i; j++)
            if (m->bot[j] == m->bot[i]) {
                player[i] = j;
                break;
            }
    }
}

int arena_elo_match(const arena_match *m, double elo[ARENA_MAX_SEATS])
{
    if (!m || !elo || m->seats < 2 || m->seats > ARENA_MAX_SEATS)
        return -1;
    int player[ARENA_MAX_SEATS];
    adb_match_players(m, player);
    return rt_elo_match(m->seats, m->team, player, m->score, m->elo_k, elo) == RT_OK ? 0 : -1;
}

int arena_match_two_v_two(const arena_match *m)
{
    int size0 = 0;
    for (int i = 0; i < m->seats; i++) {
        if (m->team[i] != m->team[0] && m->team[i] != m->team[1])
            return 0;
        size0 += m->team[i] == m->team[0];
    }
    return m->seats == 4 && m->team[0] != m->team[1] && size0 == 2;
}

/* ---- storing ------------------------------------------------------------ */

static const char M_TOURNAMENT_EXISTS[] = "SELECT 1 FROM tournaments WHERE id = :id";
static const char M_DUPLICATE[] =
    "SELECT id FROM matches WHERE tournament_id = :id AND game_index = :index";
static const char M_LADDER_EXISTS[] = "SELECT 1 FROM ladders WHERE id = :id";
static const char M_LADDER_DUPLICATE[] =
    "SELECT id FROM matches WHERE ladder_id = :id AND game_index = :index";
static const char M_BOT_EXISTS[] = "SELECT 1 FROM bots WHERE id = :id";
static const char M_RATING[] = "SELECT elo, games FROM ratings WHERE bot_id = :bot";
static const char M_INSERT[] =
    "INSERT INTO matches(tournament_id, ladder_id, game_index, game, seed, options, seats,"
    " reason, culprit, detail, decisions, hash, record, started_ms, finished_ms, elo_k) VALUES"
    " (:tournament, :ladder, :index, :game, :seed, :options, :seats, :reason, :culprit,"
    "  :detail, :decisions, :hash, :record, :started_ms, :finished_ms, :elo_k)";
static const char M_SEAT[] =
    "INSERT INTO match_seats(match_id, seat, bot_id, team, score)"
    " VALUES (:match, :seat, :bot, :team, :score)";
static const char M_RATING_SET[] =
    "INSERT INTO ratings(bot_id, elo, games) VALUES (:bot, :elo, :games) "
    "ON CONFLICT(bot_id) DO UPDATE SET elo = excluded.elo, games = excluded.games";
static const char M_HISTORY[] =
    "INSERT INTO rating_history(match_id, bot_id, elo_before, elo_after) "
    "VALUES (:match, :bot, :before, :after)";

/* Runs a query binding :id (and :index when `index` >= 0) and reads one
 * integer from its first row: 0 row (*val set), 1 none, -1 error. */
static int lookup(arena_db *db, const char *sql, int64_t id, int64_t index, int64_t *val)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":id", id);
    if (index >= 0)
        ADB_BIND(adb_bind_int(st, ":index", index));
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
    if (!adb_match_ok(m, err, size))
        return 0;
    if (m->tournament_id < 0 || (m->tournament_id > 0 && m->game_index < 0)) {
        adb_err(err, size, "a tournament match needs a game index >= 0");
        return 0;
    }
    if (m->ladder_id < 0 || (m->ladder_id > 0 && (m->game_index < 0 || m->tournament_id))) {
        adb_err(err, size, "a ladder match needs a game index >= 0 and no tournament");
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
    if (!adb_text_ok(m->game, sizeof m->game, 1)) {
        adb_err(err, size, "the match names no game (or too long a one)");
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

/* Ratings before the match (a bot's first game starts it at 1500) and
 * games played, for each seat's bot: 0, or -1 with err. */
static int ratings_before(arena_db *db, const arena_match *m, double *elo, int64_t *games,
                          char *err, size_t size)
{
    for (int i = 0; i < m->seats; i++) {
        int r = lookup(db, M_BOT_EXISTS, m->bot[i], -1, NULL);
        if (r != 0) {
            if (r < 0)
                return adb_sqlerr(db, err, size, "cannot look up a bot");
            adb_err(err, size, "no bot with id %" PRId64 " (seat %d)", m->bot[i], i);
            return -1;
        }
        sqlite3_stmt *st = adb_stmt(db, M_RATING);
        int rc = st ? adb_bind_int(st, ":bot", m->bot[i]) : SQLITE_ERROR;
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
    }
    return 0;
}

/* The matches row and its seats; *id the new match's. 0, or -1. */
static int insert_match(arena_db *db, const arena_match *m, int64_t *id, char *err, size_t size)
{
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, m->hash);
    sqlite3_stmt *st = adb_stmt(db, M_INSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    if (m->tournament_id > 0)                      /* else unbound: NULL */
        ADB_BIND(adb_bind_int(st, ":tournament", m->tournament_id));
    if (m->ladder_id > 0)
        ADB_BIND(adb_bind_int(st, ":ladder", m->ladder_id));
    ADB_BIND(adb_bind_int(st, ":index", m->game_index));
    ADB_BIND(adb_bind_text(st, ":game", m->game));
    ADB_BIND(adb_bind_int(st, ":seed", adb_u2i(m->seed)));
    ADB_BIND(adb_bind_text(st, ":options", m->options));
    ADB_BIND(adb_bind_int(st, ":seats", m->seats));
    ADB_BIND(adb_bind_text(st, ":reason", m->reason));
    if (m->culprit >= 0)
        ADB_BIND(adb_bind_int(st, ":culprit", m->culprit));
    ADB_BIND(adb_bind_text(st, ":detail", m->detail));
    ADB_BIND(adb_bind_int(st, ":decisions", m->decisions));
    ADB_BIND(adb_bind_text(st, ":hash", hash));
    ADB_BIND(adb_bind_text(st, ":record", m->record));
    ADB_BIND(adb_bind_int(st, ":started_ms", m->started_ms));
    ADB_BIND(adb_bind_int(st, ":finished_ms", m->finished_ms));
    ADB_BIND(adb_bind_double(st, ":elo_k", m->elo_k));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc != SQLITE_DONE)
        return adb_sqlerr(db, err, size, "cannot store the match");
    *id = sqlite3_last_insert_rowid(db->h);
    for (int i = 0; i < m->seats; i++) {
        st = adb_stmt(db, M_SEAT);
        rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":match", *id));
        ADB_BIND(adb_bind_int(st, ":seat", i));
        ADB_BIND(adb_bind_int(st, ":bot", m->bot[i]));
        ADB_BIND(adb_bind_int(st, ":team", m->team[i]));
        ADB_BIND(adb_bind_double(st, ":score", m->score[i]));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        adb_done(st);
        if (rc != SQLITE_DONE)
            return adb_sqlerr(db, err, size, "cannot store the match's seats");
    }
    return 0;
}

/* One rating write and one history row per bot of the match. */
static int write_ratings(arena_db *db, const arena_match *m, int64_t mid, const double *before,
                         const double *elo, const int64_t *games, char *err, size_t size)
{
    for (int i = 0; i < m->seats; i++) {
        int first = 1;
        for (int j = 0; j < i; j++)
            if (m->bot[j] == m->bot[i])
                first = 0;
        if (!first)
            continue;
        sqlite3_stmt *st = adb_stmt(db, M_RATING_SET);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":bot", m->bot[i]));
        ADB_BIND(adb_bind_double(st, ":elo", elo[i]));
        ADB_BIND(adb_bind_int(st, ":games", games[i] + 1));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc == SQLITE_DONE) {
            adb_done(st);
            st = adb_stmt(db, M_HISTORY);
            rc = st ? SQLITE_OK : SQLITE_ERROR;
            ADB_BIND(adb_bind_int(st, ":match", mid));
            ADB_BIND(adb_bind_int(st, ":bot", m->bot[i]));
            ADB_BIND(adb_bind_double(st, ":before", before[i]));
            ADB_BIND(adb_bind_double(st, ":after", elo[i]));
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
    return 0;
}

/* The writes of one match, inside the caller's transaction. Returns 0,
 * 1 duplicate (*id the stored match), -1 with err. */
/* A match of a tournament or a ladder (`what`) that must exist, at a
 * game_index it must not have stored yet: 0 new, 1 duplicate (*id), -1. */
static int check_slot(arena_db *db, const char *exists, const char *duplicate, const char *what,
                      int64_t owner, int64_t index, int64_t *id, char *err, size_t size)
{
    int r = lookup(db, exists, owner, -1, NULL);
    if (r != 0) {
        if (r < 0)
            return adb_sqlerr(db, err, size, "cannot look up the match's owner");
        adb_err(err, size, "no %s with id %" PRId64, what, owner);
        return -1;
    }
    r = lookup(db, duplicate, owner, index, id);
    if (r < 0)
        return adb_sqlerr(db, err, size, "cannot look for a stored match");
    return r == 0 ? 1 : 0;
}

static int store_in_txn(arena_db *db, const arena_match *m, int64_t *id, char *err, size_t size)
{
    int r = 0;
    if (m->tournament_id > 0)
        r = check_slot(db, M_TOURNAMENT_EXISTS, M_DUPLICATE, "tournament", m->tournament_id,
                       m->game_index, id, err, size);
    else if (m->ladder_id > 0)
        r = check_slot(db, M_LADDER_EXISTS, M_LADDER_DUPLICATE, "ladder", m->ladder_id,
                       m->game_index, id, err, size);
    if (r != 0)
        return r;
    double elo[ARENA_MAX_SEATS], before[ARENA_MAX_SEATS];
    int64_t games[ARENA_MAX_SEATS] = { 0 }, mid = 0;
    if (ARENA_MATCH_VOID(m)) {            /* nothing to rate */
        if (insert_match(db, m, &mid, err, size) != 0 ||
            adb_totals_add(db, m, mid, err, size) != 0 ||
            adb_logs_store(db, mid, m->logs, m->nlogs, err, size) != 0)
            return -1;
        *id = mid;
        return 0;
    }
    if (ratings_before(db, m, elo, games, err, size) != 0)
        return -1;
    memcpy(before, elo, sizeof before);
    if (arena_elo_match(m, elo) != 0) {      /* adb_match_ok passed: cannot happen */
        adb_err(err, size, "the match cannot be rated");
        return -1;
    }
    if (insert_match(db, m, &mid, err, size) != 0 ||
        write_ratings(db, m, mid, before, elo, games, err, size) != 0 ||
        adb_totals_add(db, m, mid, err, size) != 0 ||
        adb_logs_store(db, mid, m->logs, m->nlogs, err, size) != 0)
        return -1;
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

/* ---- reading ------------------------------------------------------------ */

/* One row per seat, a match's rows together in seat order. The LEFT JOIN
 * keeps a match whose seats are missing, so it reads as damaged instead of
 * vanishing. */
#define M_SELECT(record) "SELECT m.id, m.tournament_id, m.game_index, m.game, m.seed," \
    " m.options, m.seats, m.reason, m.culprit, m.detail, m.decisions, m.hash, " record "," \
    " m.started_ms, m.finished_ms, m.elo_k, s.seat, s.bot_id, s.team, s.score, m.ladder_id" \
    " FROM matches m LEFT JOIN match_seats s ON s.match_id = m.id "
/* The filter's WHERE clause, one static text per shape of filter (bit 0 a
 * tournament, 1 a ladder, 2 a game, 3 a number of seats, 4 a bot), so
 * SQLite sees plain conditions it can answer from an index. */
#define W_T " AND m.tournament_id = :tournament"
#define W_L " AND m.ladder_id = :ladder"
#define W_G " AND m.game = :game"
#define W_S " AND m.seats = :seats"
#define W_B " AND m.id IN (SELECT match_id FROM match_seats WHERE bot_id = :bot)"
#define W1(head, tail, w) head "WHERE 1" w " " tail
#define W4(head, tail, w) W1(head, tail, w), W1(head, tail, w W_T), \
    W1(head, tail, w W_L), W1(head, tail, w W_T W_L)
#define W16(head, tail, w) W4(head, tail, w), W4(head, tail, w W_G), \
    W4(head, tail, w W_S), W4(head, tail, w W_G W_S)
#define FILTERED_AND(head, tail, w) { W16(head, tail, w), W16(head, tail, w W_B) }
#define FILTERED(head, tail) FILTERED_AND(head, tail, "")

static const char M_GET[] = M_SELECT("m.record") "WHERE m.id = :id ORDER BY s.seat";
static const char M_NEXT[] = M_SELECT("m.record")
    "WHERE m.id = (SELECT min(id) FROM matches WHERE id > :id) ORDER BY s.seat";
static const char *const M_LIST[32] = FILTERED(M_SELECT("NULL"), "ORDER BY m.id, s.seat");
/* The results alone, what ratings need: a report over a million matches
 * reads no text. A void match (ARENA_VOID) is no game: it is left out. */
static const char *const M_RESULTS[32] =
    FILTERED_AND("SELECT m.id, m.seats, m.elo_k, s.seat, s.bot_id, s.team, s.score FROM matches m"
                 " LEFT JOIN match_seats s ON s.match_id = m.id ", "ORDER BY m.id, s.seat",
                 " AND m.reason <> '" ARENA_VOID "'");
static const char *const M_KINDS[32] = FILTERED("SELECT m.game, m.seats FROM matches m ",
                                               "GROUP BY m.game, m.seats ORDER BY m.game, m.seats");

enum { C_ID, C_TOURNAMENT, C_INDEX, C_GAME, C_SEED, C_OPTIONS, C_SEATS, C_REASON, C_CULPRIT,
       C_DETAIL, C_DECISIONS, C_HASH, C_RECORD, C_STARTED, C_FINISHED, C_ELO_K, C_SEAT,
       C_BOT, C_TEAM, C_SCORE, C_LADDER };

/* The match columns of an M_SELECT row into *out; 0, or -1 on a bad row. */
static int read_match(sqlite3_stmt *st, arena_match *out)
{
    memset(out, 0, sizeof *out);
    out->id = sqlite3_column_int64(st, C_ID);
    out->tournament_id = sqlite3_column_int64(st, C_TOURNAMENT);   /* NULL reads as 0 */
    out->ladder_id = sqlite3_column_int64(st, C_LADDER);          /* NULL reads as 0 */
    out->game_index = sqlite3_column_int(st, C_INDEX);
    adb_col_text(st, C_GAME, out->game, sizeof out->game);
    out->seed = adb_i2u(sqlite3_column_int64(st, C_SEED));
    adb_col_text(st, C_OPTIONS, out->options, sizeof out->options);
    out->seats = sqlite3_column_int(st, C_SEATS);
    adb_col_text(st, C_REASON, out->reason, sizeof out->reason);
    out->culprit = sqlite3_column_type(st, C_CULPRIT) == SQLITE_NULL
                       ? -1 : sqlite3_column_int(st, C_CULPRIT);
    adb_col_text(st, C_DETAIL, out->detail, sizeof out->detail);
    out->decisions = sqlite3_column_int(st, C_DECISIONS);
    const char *hex = (const char *)sqlite3_column_text(st, C_HASH);
    char *end = NULL;
    out->hash = hex ? strtoull(hex, &end, 16) : 0;
    int ok = hex && end == hex + 16 && *end == 0;
    const unsigned char *rec = sqlite3_column_text(st, C_RECORD);
    if (ok && rec) {
        size_t n = (size_t)sqlite3_column_bytes(st, C_RECORD);
        out->record = malloc(n + 1);
        if (out->record) {
            memcpy(out->record, rec, n);
            out->record[n] = 0;
        }
        ok = out->record != NULL;
    }
    out->started_ms = sqlite3_column_int64(st, C_STARTED);
    out->finished_ms = sqlite3_column_int64(st, C_FINISHED);
    out->elo_k = sqlite3_column_double(st, C_ELO_K);
    return ok && out->seats >= 2 && out->seats <= ARENA_MAX_SEATS ? 0 : -1;
}

/* Where a statement has the columns read_seats reads: the match's id, then
 * the seat's number, bot, team and score. */
typedef struct seat_cols {
    int id, seat, bot, team, score;
} seat_cols;
static const seat_cols FULL_COLS = { C_ID, C_SEAT, C_BOT, C_TEAM, C_SCORE };
enum { R_ID, R_SEATS, R_ELO_K, R_SEAT, R_BOT, R_TEAM, R_SCORE };    /* M_RESULTS */
static const seat_cols RESULT_COLS = { R_ID, R_SEAT, R_BOT, R_TEAM, R_SCORE };

/* Steps through the rows of one match: the first row is current on entry
 * (*rc SQLITE_ROW), the first row of the next match (or the end) on
 * return. 0, or -1 on a damaged match (seats missing, out of order, too
 * many) or a read error. */
static int read_seats(sqlite3_stmt *st, const seat_cols *c, int *rc, arena_match *m,
                      int *nseats)
{
    int n = 0, ok = 1;
    int64_t id = m->id;
    do {
        if (sqlite3_column_type(st, c->seat) == SQLITE_NULL ||
            sqlite3_column_int(st, c->seat) != n || n >= m->seats) {
            ok = 0;
        } else {
            m->bot[n] = sqlite3_column_int64(st, c->bot);
            m->team[n] = sqlite3_column_int(st, c->team);
            m->score[n] = sqlite3_column_double(st, c->score);
        }
        n++;
    } while ((*rc = sqlite3_step(st)) == SQLITE_ROW && sqlite3_column_int64(st, c->id) == id);
    *nseats = n;
    return ok && n == m->seats && (*rc == SQLITE_ROW || *rc == SQLITE_DONE) ? 0 : -1;
}

/* The match `sql` selects with :id bound: 0, 1 none, -1. */
static int match_get(arena_db *db, const char *sql, int64_t id, arena_match *out)
{
    if (!out)
        return -1;
    memset(out, 0, sizeof *out);
    out->culprit = -1;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":id", id), n;
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        adb_done(st);
        return rc == SQLITE_DONE ? 1 : -1;
    }
    int ok = read_match(st, out) == 0 && read_seats(st, &FULL_COLS, &rc, out, &n) == 0;
    adb_done(st);
    if (!ok)
        arena_match_free(out);
    return ok ? 0 : -1;
}

int arena_db_match_get(arena_db *db, int64_t id, arena_match *out)
{
    return match_get(db, M_GET, id, out);
}

int arena_db_match_next(arena_db *db, int64_t after_id, arena_match *out)
{
    return match_get(db, M_NEXT, after_id, out);
}

/* The statement of `texts` for f's shape, with f bound; NULL, or *rc
 * SQLITE_OK. */
static sqlite3_stmt *filtered(arena_db *db, const char *const texts[32],
                              const arena_match_filter *f, int *code)
{
    static const arena_match_filter any;
    if (!f)
        f = &any;
    *code = SQLITE_RANGE;
    if (!adb_text_ok(f->game, sizeof f->game, 0))
        return NULL;
    int shape = (f->tournament_id != 0) | (f->ladder_id != 0) << 1 | (f->game[0] != 0) << 2 |
                (f->seats != 0) << 3 | (f->bot_id != 0) << 4;
    sqlite3_stmt *st = adb_stmt(db, texts[shape]);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    if (shape & 1)
        ADB_BIND(adb_bind_int(st, ":tournament", f->tournament_id));
    if (shape & 2)
        ADB_BIND(adb_bind_int(st, ":ladder", f->ladder_id));
    if (shape & 4)
        ADB_BIND(adb_bind_text(st, ":game", f->game));
    if (shape & 8)
        ADB_BIND(adb_bind_int(st, ":seats", f->seats));
    if (shape & 16)
        ADB_BIND(adb_bind_int(st, ":bot", f->bot_id));
    *code = rc;
    return st;
}

sqlite3_stmt *adb_match_cursor(arena_db *db, const arena_match_filter *f, int *rc)
{
    sqlite3_stmt *st = filtered(db, M_LIST, f, rc);
    if (*rc == SQLITE_OK)
        *rc = sqlite3_step(st);
    return st;
}

int adb_match_next(sqlite3_stmt *st, int *rc, arena_match *m)
{
    int n;
    assert(*rc == SQLITE_ROW);
    if (read_match(st, m) != 0 || read_seats(st, &FULL_COLS, rc, m, &n) != 0) {
        free(m->record);                  /* a damaged match keeps nothing */
        m->record = NULL;
        *rc = SQLITE_CORRUPT;
        return -1;
    }
    return 0;
}

int arena_db_match_each(arena_db *db, const arena_match_filter *f, arena_match_fn *fn,
                        void *ctx)
{
    if (!db || !fn)
        return -1;
    int rc, stop = 0;
    sqlite3_stmt *st = adb_match_cursor(db, f, &rc);
    arena_match m;
    while (rc == SQLITE_ROW && !stop)
        if (adb_match_next(st, &rc, &m) == 0)
            stop = fn(&m, ctx);
    /* M_LIST selects no record (NULL): no match read here holds memory. */
    adb_done(st);    // NOLINT(clang-analyzer-unix.Malloc): m.record is always NULL here
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

int arena_db_result_each(arena_db *db, const arena_match_filter *f, arena_match_fn *fn,
                         void *ctx)
{
    if (!db || !fn)
        return -1;
    int rc, n, stop = 0;
    sqlite3_stmt *st = filtered(db, M_RESULTS, f, &rc);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    arena_match m;
    memset(&m, 0, sizeof m);
    m.culprit = -1;
    while (rc == SQLITE_ROW && !stop) {
        m.id = sqlite3_column_int64(st, R_ID);
        m.seats = sqlite3_column_int(st, R_SEATS);
        m.elo_k = sqlite3_column_double(st, R_ELO_K);
        if (m.seats < 2 || m.seats > ARENA_MAX_SEATS ||
            read_seats(st, &RESULT_COLS, &rc, &m, &n) != 0)
            rc = SQLITE_CORRUPT;
        else
            stop = fn(&m, ctx);       /* nonzero: the reader has what it needs */
    }
    adb_done(st);
    return stop ? stop : rc == SQLITE_DONE ? 0 : -1;
}

typedef struct match_vec {
    arena_match *v;
    int n, cap;
} match_vec;

static int collect_match(const arena_match *m, void *ctx)
{
    match_vec *mv = ctx;
    if (adb_grow((void **)&mv->v, &mv->cap, mv->n, sizeof *mv->v) != 0)
        return -1;
    mv->v[mv->n++] = *m;
    return 0;
}

int arena_db_match_list(arena_db *db, const arena_match_filter *f, arena_match **out)
{
    if (!out)
        return -1;
    *out = NULL;
    match_vec mv = { NULL, 0, 0 };
    int rc = arena_db_match_each(db, f, collect_match, &mv);
    if (rc == 0 && adb_grow((void **)&mv.v, &mv.cap, mv.n, sizeof *mv.v) != 0)
        rc = -1;
    if (rc != 0) {
        free(mv.v);
        return -1;
    }
    *out = mv.v;
    return mv.n;
}

void adb_kind_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    const arena_match_filter *f = ctx;
    arena_match_filter *k = out;
    k->tournament_id = f ? f->tournament_id : 0;
    k->ladder_id = f ? f->ladder_id : 0;
    adb_col_text(st, 0, k->game, sizeof k->game);
    k->seats = sqlite3_column_int(st, 1);
}

int arena_db_match_kinds(arena_db *db, const arena_match_filter *f, arena_match_filter **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    int rc = adb_totals_kinds(db, f, out);
    if (rc != -2)                      /* the totals answered (or failed) */
        return rc;
    sqlite3_stmt *st = filtered(db, M_KINDS, f, &rc);
    if (!st)
        return -1;
    return adb_collect(st, rc, sizeof **out, adb_kind_row, f, (void **)out);
}

void arena_match_free(arena_match *m)
{
    if (!m)
        return;
    free(m->record);
    m->record = NULL;
}

/* A bot's live Elo match by match: its first seat's score, and the labels
 * of the seats on other teams (its opponents), in seat order. */
static const char ELO_HISTORY[] =
    "SELECT h.match_id, m.finished_ms, coalesce(m.tournament_id, 0), coalesce(l.name, ''),"
    " s.score, h.elo_before, h.elo_after,"
    " coalesce((SELECT group_concat(label, ' ') FROM (SELECT " ADB_BOT_LABEL("b") " AS label"
    "   FROM match_seats o JOIN bots b ON b.id = o.bot_id"
    "   WHERE o.match_id = h.match_id AND o.team <> s.team ORDER BY o.seat)), '')"
    " FROM rating_history h JOIN matches m ON m.id = h.match_id"
    " LEFT JOIN ladders l ON l.id = m.ladder_id"
    " JOIN match_seats s ON s.match_id = h.match_id AND s.seat = (SELECT min(seat)"
    "   FROM match_seats WHERE match_id = h.match_id AND bot_id = h.bot_id)"
    " WHERE h.bot_id = :bot ORDER BY h.match_id";

static void elo_step_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_elo_step *e = elem;
    e->match_id = sqlite3_column_int64(st, 0);
    e->finished_ms = sqlite3_column_int64(st, 1);
    e->tournament_id = sqlite3_column_int64(st, 2);
    adb_col_text(st, 3, e->ladder, sizeof e->ladder);
    e->score = sqlite3_column_double(st, 4);
    e->elo_before = sqlite3_column_double(st, 5);
    e->elo_after = sqlite3_column_double(st, 6);
    adb_col_text(st, 7, e->opponents, sizeof e->opponents);
}

int arena_db_elo_history(arena_db *db, int64_t bot_id, arena_elo_step **out)
{
    if (!out)
        return -1;
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, ELO_HISTORY) : NULL;
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":bot", bot_id));
    return adb_collect(st, rc, sizeof **out, elo_step_row, NULL, (void **)out);
}

/*
 * arena_db_check.c - what the arena reports from the database (per-bot
 * results, per-pair results) and the audit that the ratings table is
 * exactly a replay of the matches table.
 *
 * The audit replays every match in id order through adb_elo_match, the
 * same function arena_db_match_store used, so any difference means the
 * tables were changed behind the library's back (or a bug): it walks
 * matches and rating_history side by side, then compares the ratings.
 * The per-bot summaries the triggers keep (schema 11) are recomputed by
 * the SQL that first filled them, and compared row by row.
 */
#include "arena_db_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ELO_TOLERANCE 1e-9

/* ---- results ------------------------------------------------------------ */

/* Each bot's results, summed over its seats first (from the covering
 * index on match_seats for every match; from the tournament's matches
 * for one), then named and given its live rating. A share of a win is a
 * draw. */
#define RESULTS(seats) \
    "SELECT a.bot_id, " ADB_BOT_LABEL("b") ", COALESCE(r.elo, :start), a.n, a.w, a.d, a.l," \
    " a.points" \
    " FROM (SELECT s.bot_id, count(*) AS n, sum(s.score = 1.0) AS w," \
    "        sum(s.score > 0.0 AND s.score < 1.0) AS d, sum(s.score = 0.0) AS l," \
    "        total(s.score) AS points FROM " seats " GROUP BY s.bot_id) a" \
    " JOIN bots b ON b.id = a.bot_id LEFT JOIN ratings r ON r.bot_id = a.bot_id" \
    " ORDER BY b.name, a.bot_id"
/* A void match (ARENA_VOID) is no game: the few there are, from their index. */
#define NOT_VOID(id) id " NOT IN (SELECT id FROM matches WHERE reason = '" ARENA_VOID "')"
static const char RESULTS_ALL[] = RESULTS("match_seats s WHERE " NOT_VOID("s.match_id"));
static const char RESULTS_OF[] = RESULTS("matches m JOIN match_seats s ON s.match_id = m.id"
                                         " WHERE m.tournament_id = :tournament"
                                         " AND m.reason <> '" ARENA_VOID "'");

static void result_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    arena_rating *r = out;
    r->bot_id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, r->name, sizeof r->name);
    r->elo = sqlite3_column_double(st, 2);
    r->games = sqlite3_column_int(st, 3);
    r->wins = sqlite3_column_int(st, 4);
    r->draws = sqlite3_column_int(st, 5);
    r->losses = sqlite3_column_int(st, 6);
    r->points = sqlite3_column_double(st, 7);
    assert(r->wins + r->draws + r->losses == r->games);   /* scores are validated */
}

int arena_db_results(arena_db *db, int64_t tournament_id, arena_rating **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, tournament_id ? RESULTS_OF : RESULTS_ALL);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    if (tournament_id)
        ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    ADB_BIND(adb_bind_double(st, ":start", ARENA_ELO_START));
    return adb_collect(st, rc, sizeof **out, result_row, NULL, (void **)out);
}

/* Two-seat matches of two bots, by pair: the lower id is `a`. */
#define SCORE_A "(CASE WHEN x.bot_id < y.bot_id THEN x.score ELSE y.score END)"

static const char PAIRS[] =
    "SELECT min(x.bot_id, y.bot_id) AS a, max(x.bot_id, y.bot_id) AS b,"
    " sum(" SCORE_A " = 1.0), sum(" SCORE_A " > 0.0 AND " SCORE_A " < 1.0),"
    " sum(" SCORE_A " = 0.0)"
    " FROM matches m JOIN match_seats x ON x.match_id = m.id AND x.seat = 0"
    " JOIN match_seats y ON y.match_id = m.id AND y.seat = 1"
    " WHERE m.seats = 2 AND x.bot_id <> y.bot_id AND m.reason <> '" ARENA_VOID "'"
    " AND (:tournament = 0 OR m.tournament_id = :tournament)"
    " AND (:ladder = 0 OR m.ladder_id = :ladder)"
    " GROUP BY a, b ORDER BY a, b";

static void pair_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    arena_pair_result *p = out;
    p->a = sqlite3_column_int64(st, 0);
    p->b = sqlite3_column_int64(st, 1);
    p->a_wins = sqlite3_column_int(st, 2);
    p->draws = sqlite3_column_int(st, 3);
    p->b_wins = sqlite3_column_int(st, 4);
    assert(p->a < p->b);
}

static int pairs_of(arena_db *db, int64_t tournament_id, int64_t ladder_id,
                    arena_pair_result **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, PAIRS);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    return adb_collect(st, rc, sizeof **out, pair_row, NULL, (void **)out);
}

int arena_db_pair_results(arena_db *db, int64_t tournament_id, arena_pair_result **out)
{
    return pairs_of(db, tournament_id, 0, out);
}

int arena_db_ladder_pairs(arena_db *db, int64_t ladder_id, arena_pair_result **out)
{
    if (ladder_id <= 0) {
        if (out)
            *out = NULL;
        return -1;
    }
    return pairs_of(db, 0, ladder_id, out);
}

/* ---- the replay check --------------------------------------------------- */

typedef struct replay {
    int n;                    /* every bot ever added, ascending id */
    int64_t *id;
    double *elo;
    int64_t *games;
} replay;

static int bot_index(const replay *r, int64_t id)
{
    int lo = 0, hi = r->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->id[mid] == id)
            return mid;
        if (r->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static const char C_BOTS[] = "SELECT id FROM bots ORDER BY id";
static const char C_HISTORY[] =
    "SELECT match_id, bot_id, elo_before, elo_after FROM rating_history"
    " ORDER BY match_id, bot_id";
static const char C_RATINGS[] = "SELECT bot_id, elo, games FROM ratings ORDER BY bot_id";

static int load_bots(arena_db *db, replay *r)
{
    sqlite3_stmt *st = adb_stmt(db, C_BOTS);
    if (!st)
        return -1;
    int cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (adb_grow((void **)&r->id, &cap, r->n, sizeof *r->id) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        r->id[r->n++] = sqlite3_column_int64(st, 0);
    }
    adb_done(st);
    if (rc != SQLITE_DONE)
        return -1;
    size_t n = r->n ? (size_t)r->n : 1;
    r->elo = calloc(n, sizeof *r->elo);
    r->games = calloc(n, sizeof *r->games);
    if (!r->elo || !r->games)
        return -1;
    for (int i = 0; i < r->n; i++)
        r->elo[i] = ARENA_ELO_START;
    return 0;
}

static int differs(double a, double b)
{
    return !(fabs(a - b) <= ELO_TOLERANCE);   /* NaN differs too */
}

/* The history cursor: the current row, or at_end. */
typedef struct hist {
    sqlite3_stmt *st;
    int at_end;
    int64_t match_id, bot_id;
    double before, after;
} hist;

static int hist_next(hist *h)
{
    int rc = sqlite3_step(h->st);
    if (rc == SQLITE_DONE) {
        h->at_end = 1;
        return 0;
    }
    if (rc != SQLITE_ROW)
        return -1;
    h->match_id = sqlite3_column_int64(h->st, 0);
    h->bot_id = sqlite3_column_int64(h->st, 1);
    h->before = sqlite3_column_double(h->st, 2);
    h->after = sqlite3_column_double(h->st, 3);
    return 0;
}

/* Replays one match against the history cursor.
 * 0 consistent, 1 different (err says why), -1 error. */
static int replay_match(const arena_match *m, replay *r, hist *h, char *err, size_t size)
{
    int64_t mid = m->id;
    const int64_t *bot = m->bot;
    double elo[ARENA_MAX_SEATS], before[ARENA_MAX_SEATS];
    int idx[ARENA_MAX_SEATS], seats = m->seats;
    for (int i = 0; i < seats; i++) {
        idx[i] = bot_index(r, bot[i]);
        if (idx[i] < 0) {
            adb_err(err, size, "match %" PRId64 " names bot %" PRId64 ", which does not exist",
                    mid, bot[i]);
            return 1;
        }
        before[i] = elo[i] = r->elo[idx[i]];
    }
    char why[160];
    if (!adb_match_ok(m, why, sizeof why)) {
        adb_err(err, size, "match %" PRId64 ": %s", mid, why);
        return 1;
    }
    if (ARENA_MATCH_VOID(m))
        return 0;                /* rated by nobody: no history row */
    int rated = arena_elo_match(m, elo);
    assert(rated == 0);          /* adb_match_ok said it can be rated */
    (void)rated;

    /* History rows come ordered by (match_id, bot_id): walk this match's
     * distinct bots in the same order. */
    int order[ARENA_MAX_SEATS], nd = 0;   /* one seat per distinct bot */
    for (int i = 0; i < seats; i++) {
        int dup = 0;
        for (int j = 0; j < nd; j++)
            if (bot[order[j]] == bot[i])
                dup = 1;
        if (!dup)
            order[nd++] = i;
    }
    for (int a = 1; a < nd; a++)
        for (int b = a; b > 0 && bot[order[b - 1]] > bot[order[b]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (int d = 0; d < nd; d++) {
        int i = order[d];
        if (!h->at_end && h->match_id < mid) {
            adb_err(err, size, "rating_history has a row for match %" PRId64 ", which does not exist",
                    h->match_id);
            return 1;
        }
        if (h->at_end || h->match_id != mid || h->bot_id != bot[i]) {
            adb_err(err, size, "rating_history has no row for match %" PRId64 ", bot %" PRId64,
                    mid, bot[i]);
            return 1;
        }
        if (differs(h->before, before[i]) || differs(h->after, elo[i])) {
            adb_err(err, size, "rating_history for match %" PRId64 ", bot %" PRId64
                    " says %.10g -> %.10g, the replay %.10g -> %.10g",
                    mid, bot[i], h->before, h->after, before[i], elo[i]);
            return 1;
        }
        r->elo[idx[i]] = elo[i];
        r->games[idx[i]]++;
        if (hist_next(h) != 0)
            return -1;
    }
    if (!h->at_end && h->match_id == mid) {
        adb_err(err, size, "rating_history for match %" PRId64 " names bot %" PRId64
                ", which did not play", mid, h->bot_id);
        return 1;
    }
    return 0;
}

/* Compares the ratings table with the replay: 0, 1 (err), -1. */
static int compare_ratings(arena_db *db, replay *r, char *err, size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, C_RATINGS);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot read the ratings");
    int rc = SQLITE_DONE, ret = 0, next = 0;   /* next: the replay bot to match up */
    while (ret == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        double elo = sqlite3_column_double(st, 1);
        int64_t games = sqlite3_column_int64(st, 2);
        for (; next < r->n && r->id[next] < id; next++)
            if (r->games[next] > 0) {
                adb_err(err, size, "bot %" PRId64 " played but has no ratings row", r->id[next]);
                ret = 1;
                break;
            }
        if (ret)
            break;
        if (next >= r->n || r->id[next] != id) {
            adb_err(err, size, "the ratings table rates bot %" PRId64 ", which does not exist", id);
            ret = 1;
        } else if (differs(elo, r->elo[next]) || games != r->games[next]) {
            adb_err(err, size, "bot %" PRId64 ": the ratings table has %.10g after %" PRId64
                    " games, a replay of the matches gives %.10g after %" PRId64,
                    id, elo, games, r->elo[next], r->games[next]);
            ret = 1;
        }
        next++;
    }
    if (ret == 0 && rc != SQLITE_DONE)
        ret = adb_sqlerr(db, err, size, "cannot read the ratings");
    adb_done(st);
    for (; ret == 0 && next < r->n; next++)
        if (r->games[next] > 0) {
            adb_err(err, size, "bot %" PRId64 " played but has no ratings row", r->id[next]);
            ret = 1;
        }
    return ret;
}

int arena_db_check_ratings(arena_db *db, char *err, size_t size)
{
    if (!db) {
        adb_err(err, size, "no database");
        return -1;
    }
    /* One read transaction: the three tables from one snapshot. */
    if (adb_begin_read(db, err, size) != 0)
        return -1;
    replay r = {0};
    hist h = {0};
    sqlite3_stmt *ms = NULL;
    int ret = load_bots(db, &r);
    if (ret != 0) {
        adb_sqlerr(db, err, size, "cannot read the bots");
        goto out;
    }
    /* Rows that point nowhere (seats of no match, say) replay as nothing. */
    ret = adb_foreign_keys_hold(db, err, size, "a reference is broken");
    if (ret != 0)
        goto out;
    h.st = adb_stmt(db, C_HISTORY);
    if (!h.st || hist_next(&h) != 0) {
        ret = adb_sqlerr(db, err, size, "cannot read the rating history");
        goto out;
    }
    int rc;
    ms = adb_match_cursor(db, NULL, &rc);
    while (rc == SQLITE_ROW) {
        arena_match m;
        if (adb_match_next(ms, &rc, &m) != 0) {
            adb_err(err, size, "match %" PRId64 " is damaged: its seats (missing, extra or"
                    " misnumbered) or its hash", m.id);
            ret = 1;
            goto out;
        }
        ret = replay_match(&m, &r, &h, err, size);
        if (ret < 0)
            adb_sqlerr(db, err, size, "cannot read the rating history");
        if (ret != 0)
            goto out;
    }
    if (rc != SQLITE_DONE) {
        ret = adb_sqlerr(db, err, size, "cannot read the matches");
        goto out;
    }
    if (!h.at_end) {
        adb_err(err, size, "rating_history has a row for match %" PRId64 ", which does not exist",
                h.match_id);
        ret = 1;
        goto out;
    }
    ret = compare_ratings(db, &r, err, size);
out:
    adb_done(ms);
    adb_done(h.st);
    adb_rollback(db);          /* read-only: nothing to keep */
    free(r.id);
    free(r.elo);
    free(r.games);
    return ret;
}

/* ---- per-bot summaries ------------------------------------------------- */

/* Rows one side has and the other lacks, the stored side first; each
 * names its bot and what differs. */
static const char C_OPPONENTS[] =
    "WITH fresh(bot_id, opponent_id, wins, draws, losses) AS (" ADB_OPPONENTS_FROM_SEATS "),"
    " stored AS (SELECT bot_id, opponent_id, wins, draws, losses FROM bot_opponents)"
    " SELECT 'stored', * FROM (SELECT * FROM stored EXCEPT SELECT * FROM fresh)"
    " UNION ALL SELECT 'recomputed', * FROM (SELECT * FROM fresh EXCEPT SELECT * FROM stored)"
    " LIMIT 1";
static const char C_FORFEITS[] =
    "WITH fresh(bot_id, match_id) AS (" ADB_FORFEITS_FROM_SEATS "),"
    " stored AS (SELECT bot_id, match_id FROM bot_forfeits)"
    " SELECT 'stored', * FROM (SELECT * FROM stored EXCEPT SELECT * FROM fresh)"
    " UNION ALL SELECT 'recomputed', * FROM (SELECT * FROM fresh EXCEPT SELECT * FROM stored)"
    " LIMIT 1";

/* 0 when `sql` finds no difference, 1 with the first one in err, -1. */
static int first_difference(arena_db *db, const char *sql, const char *what, char *err,
                            size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    if (rc == SQLITE_DONE) {
        adb_done(st);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        adb_sqlerr(db, err, size, "cannot recompute the per-bot summaries");
        adb_done(st);
        return -1;
    }
    const char *side = (const char *)sqlite3_column_text(st, 0);
    if (sqlite3_column_count(st) == 6)
        adb_err(err, size, "%s: only the %s rows say bot %lld against bot %lld is %lld-%lld-%lld",
                what, side, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
                sqlite3_column_int64(st, 5));
    else
        adb_err(err, size, "%s: only the %s rows say bot %lld forfeited match %lld", what, side,
                sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2));
    adb_done(st);
    return 1;
}

int arena_db_check_summaries(arena_db *db, char *err, size_t size)
{
    if (!db) {
        adb_err(err, size, "no database");
        return -1;
    }
    if (adb_begin_read(db, err, size) != 0)
        return -1;
    int ret = first_difference(db, C_OPPONENTS, "bot_opponents", err, size);
    if (ret == 0)
        ret = first_difference(db, C_FORFEITS, "bot_forfeits", err, size);
    adb_rollback(db);
    return ret;
}

/*
 * arena_db_totals.c - the per-scope result totals (schema 18) that the
 * standings, the crosstable and a ladder's fit read instead of every match:
 * kept as matches are stored, filled by the migration, and verified by
 * `arena check` against a replay of the matches.
 *
 * A scope is a kind of match (a game and its seats) over every match, or
 * one tournament's, or one ladder's. Its totals are what the reports'
 * tally (arena/arena_report.c) gathers streaming the scope's rated matches
 * in id order, so the report prints the very same from either:
 *   - each bot's games, W-D-L, points (summed seat by seat in match order)
 *     and live Elo (replayed by arena_elo_match from 1500 within the
 *     scope), with where it was first seen (the fit numbers bots so);
 *   - the Bradley-Terry games per pair (rt_match_games), with where the
 *     pair was first met (the fit's pair order);
 *   - while every rated match is 2 v 2, the team games, counted.
 * A result they cannot hold as the tally would (a share of a win that is
 * no draw in a crosstable, a match rt_match_games refuses) makes the scope
 * inexact: the reports read its matches as before.
 *
 * Totals are written by the library as it stores a match (not by
 * triggers: the live Elo is C's arithmetic). Triggers count the matches
 * and seats inserted and any change or deletion of them by hand
 * (result_state); the reports use the totals only while the counts agree
 * and nothing was edited, and otherwise read the matches, which sees the
 * edit (a damaged match included).
 */
#include "arena_db_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ratings.h"

/* Where a bot or a pair was first met: a match and a seat, or a match and
 * its game's number (rt_match_games gives at most 28). */
#define SEEN(mid, k) ((mid) * 64 + (k))

static const char T_SCOPE[] =
    "INSERT INTO result_scopes(game, seats, tournament_id, ladder_id, matches, exact, team_fit)"
    " VALUES (:game, :seats, :tournament, :ladder, 1, 1, 1)"
    " ON CONFLICT (tournament_id, ladder_id, game, seats) DO UPDATE SET matches = matches + 1"
    " RETURNING id, exact, team_fit";
static const char T_ELO[] =
    "SELECT elo FROM result_bots WHERE scope_id = :scope AND bot_id = :bot";
static const char T_BOT[] =
    "INSERT INTO result_bots(scope_id, bot_id, seen, games, wins, draws, losses, points, elo)"
    " VALUES (:scope, :bot, :seen, 1, :w, :d, :l, :points, :elo)"
    " ON CONFLICT (scope_id, bot_id) DO UPDATE SET games = games + 1, wins = wins + :w,"
    " draws = draws + :d, losses = losses + :l, points = points + :points, elo = :elo";
static const char T_PAIR[] =
    "INSERT INTO result_pairs(scope_id, a, b, seen, wins_a, draws, wins_b)"
    " VALUES (:scope, :a, :b, :seen, :w, :d, :l)"
    " ON CONFLICT (scope_id, a, b) DO UPDATE SET wins_a = wins_a + :w, draws = draws + :d,"
    " wins_b = wins_b + :l";
static const char T_TEAM[] =
    "INSERT INTO result_teams(scope_id, a0, a1, b0, b1, score, seen, games)"
    " VALUES (:scope, :a0, :a1, :b0, :b1, :score, :seen, 1)"
    " ON CONFLICT (scope_id, a0, a1, b0, b1, score) DO UPDATE SET games = games + 1";
static const char T_NO_TEAMS[] = "UPDATE result_scopes SET team_fit = 0 WHERE id = :scope";
static const char T_DROP_TEAMS[] = "DELETE FROM result_teams WHERE scope_id = :scope";
static const char T_DROP_PAIRS[] = "DELETE FROM result_pairs WHERE scope_id = :scope";
static const char T_COUNTED[] =
    "UPDATE result_state SET matches_totalled = matches_totalled + 1,"
    " seats_totalled = seats_totalled + :seats";

/* Steps a statement whose bindings went into rc: 0, or -1 with err. */
static int step_done(arena_db *db, sqlite3_stmt *st, int rc, char *err, size_t size)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        adb_sqlerr(db, err, size, "cannot update the result totals");
        adb_done(st);
        return -1;
    }
    adb_done(st);
    return 0;
}

/* Runs `sql` (one statement) with :scope bound. */
static int scope_exec(arena_db *db, const char *sql, int64_t scope, char *err, size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    int rc = st ? adb_bind_int(st, ":scope", scope) : SQLITE_ERROR;
    return step_done(db, st, rc, err, size);
}

/* A scope that cannot hold its results: flagged, its rows gone. */
static int make_inexact(arena_db *db, int64_t scope, char *err, size_t size)
{
    static const char *const sql[] = { "UPDATE result_scopes SET exact = 0 WHERE id = :scope",
                                       "DELETE FROM result_bots WHERE scope_id = :scope",
                                       T_DROP_PAIRS, T_DROP_TEAMS };
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++)
        if (scope_exec(db, sql[i], scope, err, size) != 0)
            return -1;
    return 0;
}

/* Each seat's bot's live Elo in the scope before the match. */
static int elo_before(arena_db *db, int64_t scope, const arena_match *m, double *elo, char *err,
                      size_t size)
{
    for (int i = 0; i < m->seats; i++) {
        sqlite3_stmt *st = adb_stmt(db, T_ELO);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":scope", scope));
        ADB_BIND(adb_bind_int(st, ":bot", m->bot[i]));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, "cannot read the result totals");
            adb_done(st);
            return -1;
        }
        elo[i] = rc == SQLITE_ROW ? sqlite3_column_double(st, 0) : ARENA_ELO_START;
        adb_done(st);
    }
    return 0;
}

/* The seats' rows, in seat order as the tally adds them: a bot in two
 * seats counts twice, and its later seat's Elo is the one kept. */
static int add_bots(arena_db *db, int64_t scope, const arena_match *m, const double *elo,
                    char *err, size_t size)
{
    for (int i = 0; i < m->seats; i++) {
        double s = m->score[i];
        sqlite3_stmt *st = adb_stmt(db, T_BOT);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":scope", scope));
        ADB_BIND(adb_bind_int(st, ":bot", m->bot[i]));
        ADB_BIND(adb_bind_int(st, ":seen", SEEN(m->id, i)));
        ADB_BIND(adb_bind_int(st, ":w", s == 1.0));
        ADB_BIND(adb_bind_int(st, ":d", s > 0.0 && s < 1.0));
        ADB_BIND(adb_bind_int(st, ":l", s == 0.0));
        ADB_BIND(adb_bind_double(st, ":points", s));
        ADB_BIND(adb_bind_double(st, ":elo", elo[i]));
        if (step_done(db, st, rc, err, size) != 0)
            return -1;
    }
    return 0;
}

/* The Bradley-Terry games of the match, each pair keyed by its lower bot
 * id (the reader numbers them by first sight). */
static int add_pairs(arena_db *db, int64_t scope, const arena_match *m, const rt_game *g, int ng,
                     char *err, size_t size)
{
    for (int k = 0; k < ng; k++) {
        int64_t a = m->bot[g[k].a], b = m->bot[g[k].b];
        double s = a < b ? g[k].score_a : 1.0 - g[k].score_a;
        sqlite3_stmt *st = adb_stmt(db, T_PAIR);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":scope", scope));
        ADB_BIND(adb_bind_int(st, ":a", a < b ? a : b));
        ADB_BIND(adb_bind_int(st, ":b", a < b ? b : a));
        ADB_BIND(adb_bind_int(st, ":seen", SEEN(m->id, k)));
        ADB_BIND(adb_bind_int(st, ":w", s == 1.0));
        ADB_BIND(adb_bind_int(st, ":d", s == 0.5));
        ADB_BIND(adb_bind_int(st, ":l", s == 0.0));
        if (step_done(db, st, rc, err, size) != 0)
            return -1;
    }
    return 0;
}

/* The 2 v 2 team game, seat 0's team first, each team in seat order. */
static int add_team(arena_db *db, int64_t scope, const arena_match *m, char *err, size_t size)
{
    int64_t a[2] = { 0 }, b[2] = { 0 };
    int na = 0, nb = 0;
    for (int i = 0; i < 4; i++) {
        if (m->team[i] == m->team[0])
            a[na++] = m->bot[i];
        else
            b[nb++] = m->bot[i];
    }
    sqlite3_stmt *st = adb_stmt(db, T_TEAM);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":scope", scope));
    ADB_BIND(adb_bind_int(st, ":a0", a[0]));
    ADB_BIND(adb_bind_int(st, ":a1", a[1]));
    ADB_BIND(adb_bind_int(st, ":b0", b[0]));
    ADB_BIND(adb_bind_int(st, ":b1", b[1]));
    ADB_BIND(adb_bind_double(st, ":score", m->score[0]));
    ADB_BIND(adb_bind_int(st, ":seen", m->id));
    return step_done(db, st, rc, err, size);
}

/* Whether the tally could count the games as the totals do: every game's
 * score a win, a draw or a loss (arena_lfit's), and in 2 seats the
 * crosstable's cell the same as the pair's game. */
static int games_exact(const arena_match *m, const rt_game *g, int ng)
{
    for (int k = 0; k < ng; k++)
        if (!(g[k].score_a == 0.0 || g[k].score_a == 0.5 || g[k].score_a == 1.0))
            return 0;
    if (m->seats == 2 && ng == 1) {
        double cell = m->score[0] == 1.0 ? 1.0 : m->score[0] > 0.0 ? 0.5 : 0.0;
        return cell == g[0].score_a;
    }
    return 1;
}

/* One rated match into one scope. */
static int add_rated(arena_db *db, int64_t scope, int team_fit, const arena_match *m, char *err,
                     size_t size)
{
    int player[ARENA_MAX_SEATS];
    adb_match_players(m, player);
    rt_game g[ARENA_MAX_SEATS * (ARENA_MAX_SEATS - 1) / 2];
    double elo[ARENA_MAX_SEATS];
    int ng = rt_match_games(m->seats, m->team, player, m->score, g);
    if (elo_before(db, scope, m, elo, err, size) != 0)
        return -1;
    if (ng < 0 || !games_exact(m, g, ng) || arena_elo_match(m, elo) != 0)
        return make_inexact(db, scope, err, size);
    if (add_bots(db, scope, m, elo, err, size) != 0 || add_pairs(db, scope, m, g, ng, err, size))
        return -1;
    if (!team_fit)
        return 0;
    if (arena_match_two_v_two(m))
        return add_team(db, scope, m, err, size);
    return scope_exec(db, T_NO_TEAMS, scope, err, size) != 0 ||
                   scope_exec(db, T_DROP_TEAMS, scope, err, size) != 0
               ? -1 : 0;
}

/* The match into each of its scopes: its kind over every match, and over
 * its tournament's or its ladder's. */
static int add_match(arena_db *db, const arena_match *m, char *err, size_t size)
{
    int64_t owners[3][2] = { { 0, 0 }, { m->tournament_id, 0 }, { 0, m->ladder_id } };
    for (int k = 0; k < 3; k++) {
        if (k > 0 && owners[k][0] <= 0 && owners[k][1] <= 0)
            continue;
        sqlite3_stmt *st = adb_stmt(db, T_SCOPE);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_text(st, ":game", m->game));
        ADB_BIND(adb_bind_int(st, ":seats", m->seats));
        ADB_BIND(adb_bind_int(st, ":tournament", owners[k][0] > 0 ? owners[k][0] : 0));
        ADB_BIND(adb_bind_int(st, ":ladder", owners[k][1] > 0 ? owners[k][1] : 0));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc != SQLITE_ROW) {
            adb_sqlerr(db, err, size, "cannot update the result totals");
            adb_done(st);
            return -1;
        }
        int64_t scope = sqlite3_column_int64(st, 0);
        int exact = sqlite3_column_int(st, 1), team_fit = sqlite3_column_int(st, 2);
        while (sqlite3_step(st) == SQLITE_ROW)     /* RETURNING: run to the end */
            ;
        adb_done(st);
        if (exact && !ARENA_MATCH_VOID(m) && add_rated(db, scope, team_fit, m, err, size) != 0)
            return -1;
    }
    return 0;
}

int adb_totals_add(arena_db *db, const arena_match *m, int64_t mid, char *err, size_t size)
{
    arena_match stored = *m;
    stored.id = mid;
    if (add_match(db, &stored, err, size) != 0)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_COUNTED);
    int rc = st ? adb_bind_int(st, ":seats", m->seats) : SQLITE_ERROR;
    return step_done(db, st, rc, err, size);
}

/* ---- filling from the matches ----------------------------------------- */

typedef struct fill {
    arena_db *db;
    char *err;
    size_t size;
    int failed;
} fill;

static int fill_match(const arena_match *m, void *ctx)
{
    fill *f = ctx;
    if (add_match(f->db, m, f->err, f->size) != 0) {
        f->failed = 1;
        return 1;
    }
    return 0;
}

static const char T_EMPTY[] =
    "DELETE FROM result_teams; DELETE FROM result_pairs; DELETE FROM result_bots;"
    " DELETE FROM result_scopes;";
/* Counted as they stand; `edits` 1 when the matches could not be read. */
static const char T_STATE[] =
    "UPDATE result_state SET (matches_in, seats_in, edits) ="
    " ((SELECT count(*) FROM matches), (SELECT count(*) FROM match_seats), :edits),"
    " (matches_totalled, seats_totalled) ="
    " ((SELECT count(*) FROM matches), (SELECT count(*) FROM match_seats))";

/* Runs each statement of a script (no parameters). */
static int exec_all(arena_db *db, const char *sql, char *err, size_t size)
{
    char *msg = NULL;
    if (sqlite3_exec(db->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        adb_err(err, size, "cannot fill the result totals: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* The totals of every match, from empty tables: 0, 1 a damaged match
 * (the tables left empty), -1 with err. */
static int replay(arena_db *db, char *err, size_t size)
{
    if (exec_all(db, T_EMPTY, err, size) != 0)
        return -1;
    fill f = { db, err, size, 0 };
    int rc = arena_db_match_each(db, NULL, fill_match, &f);
    if (f.failed)
        return -1;
    if (rc != 0 && exec_all(db, T_EMPTY, err, size) != 0)
        return -1;
    return rc != 0;
}

int adb_totals_fill(arena_db *db, char *err, size_t size)
{
    /* A damaged match (seats missing by hand): no totals; the reports read
     * the matches, and say so, as they did. */
    int rc = replay(db, err, size);
    if (rc < 0)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, T_STATE);
    int brc = st ? adb_bind_int(st, ":edits", rc != 0) : SQLITE_ERROR;
    return step_done(db, st, brc, err, size);
}

/* ---- reading ------------------------------------------------------------ */

static const char T_FRESH[] =
    "SELECT matches_in = matches_totalled AND seats_in = seats_totalled AND edits = 0"
    " FROM result_state";
static const char T_KINDS[] =
    "SELECT game, seats FROM result_scopes WHERE tournament_id = :tournament"
    " AND ladder_id = :ladder AND (:game = '' OR game = :game) AND (:seats = 0 OR seats = :seats)"
    " ORDER BY game, seats";
static const char T_SCOPES[] =
    "SELECT id, exact, team_fit FROM result_scopes WHERE tournament_id = :tournament"
    " AND ladder_id = :ladder AND (:game = '' OR game = :game) AND (:seats = 0 OR seats = :seats)"
    " LIMIT 2";
static const char T_BOTS[] =
    "SELECT bot_id, games, wins, draws, losses, points, elo FROM result_bots"
    " WHERE scope_id = :scope ORDER BY seen";
/* In key order: sorted by first meeting in C, which at 400,000 pairs
 * costs a tenth of what SQLite's sorter does. */
static const char T_PAIRS[] =
    "SELECT a, b, wins_a, draws, wins_b, seen FROM result_pairs WHERE scope_id = :scope";
static const char T_TEAMS[] =
    "SELECT a0, a1, b0, b1, score, games FROM result_teams WHERE scope_id = :scope"
    " ORDER BY seen";

/* Whether the totals answer for f's matches: a filter of a kind within
 * every match, one tournament or one ladder (never one bot's matches), in
 * a file whose matches were neither edited nor added behind the library.
 * 1 yes, 0 no, -1 error. */
static int usable(arena_db *db, const arena_match_filter *f)
{
    if (f && (f->bot_id != 0 || f->tournament_id < 0 || f->ladder_id < 0 ||
              (f->tournament_id && f->ladder_id) || !adb_text_ok(f->game, sizeof f->game, 0)))
        return 0;
    sqlite3_stmt *st = adb_stmt(db, T_FRESH);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    int fresh = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    adb_done(st);
    return fresh;
}

/* Binds f's kind to a T_KINDS or T_SCOPES statement. */
static int bind_kind(sqlite3_stmt *st, const arena_match_filter *f)
{
    static const arena_match_filter any;
    if (!f)
        f = &any;
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":tournament", f->tournament_id));
    ADB_BIND(adb_bind_int(st, ":ladder", f->ladder_id));
    ADB_BIND(adb_bind_text(st, ":game", f->game));
    ADB_BIND(adb_bind_int(st, ":seats", f->seats));
    return rc;
}

int adb_totals_kinds(arena_db *db, const arena_match_filter *f, arena_match_filter **out)
{
    int ok = usable(db, f);
    if (ok <= 0)
        return ok < 0 ? -1 : -2;
    sqlite3_stmt *st = adb_stmt(db, T_KINDS);
    return adb_collect(st, bind_kind(st, f), sizeof **out, adb_kind_row, f, (void **)out);
}

/* Each row of `sql` for the scope to fn's row function: 0, or -1. */
static int each_row(arena_db *db, const char *sql, int64_t scope, const arena_totals_fn *fn,
                    void *ctx)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    int rc = st ? adb_bind_int(st, ":scope", scope) : SQLITE_ERROR, stop = 0;
    while (!stop && rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (sql == T_BOTS)
            stop = fn->bot(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                           sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
                           sqlite3_column_int(st, 4), sqlite3_column_double(st, 5),
                           sqlite3_column_double(st, 6));
        else
            stop = fn->team(ctx, (int64_t[2]){ sqlite3_column_int64(st, 0),
                                               sqlite3_column_int64(st, 1) },
                            (int64_t[2]){ sqlite3_column_int64(st, 2),
                                          sqlite3_column_int64(st, 3) },
                            sqlite3_column_double(st, 4), sqlite3_column_int64(st, 5));
    }
    adb_done(st);
    return !stop && (rc == SQLITE_DONE || rc == SQLITE_OK) ? 0 : -1;
}

typedef struct pair_row {
    int64_t seen, a, b, w, d, l;
} pair_row;

/* v in the order of seen (a pair's is unique), by an LSD radix sort on the
 * key's bytes: stable, each pass skipped where every key has the same
 * byte. At a million matches the keys span four bytes: four passes over
 * ~400,000 rows, where qsort made ~19 comparisons a row and moved each
 * row as many times (a third of reading the pairs). 0, or -1 (memory). */
static int sort_by_seen(pair_row *v, int n)
{
    pair_row *tmp = malloc((size_t)n * sizeof *tmp), *src = v, *dst = tmp;
    if (!tmp)
        return -1;
    for (int shift = 0; shift < 64; shift += 8) {
        size_t at[257] = { 0 };
        for (int i = 0; i < n; i++)        /* the sign bit flipped: signed order */
            at[(((uint64_t)src[i].seen ^ 1ULL << 63) >> shift & 255) + 1]++;
        if (at[(((uint64_t)src[0].seen ^ 1ULL << 63) >> shift & 255) + 1] == (size_t)n)
            continue;
        for (int b = 0; b < 256; b++)
            at[b + 1] += at[b];
        for (int i = 0; i < n; i++)
            dst[at[((uint64_t)src[i].seen ^ 1ULL << 63) >> shift & 255]++] = src[i];
        pair_row *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, (size_t)n * sizeof *v);
    free(tmp);
    return 0;
}

/* The scope's pairs to fn in the order first met: 0, or -1. */
static int each_pair(arena_db *db, int64_t scope, const arena_totals_fn *fn, void *ctx)
{
    sqlite3_stmt *st = adb_stmt(db, T_PAIRS);
    int rc = st ? adb_bind_int(st, ":scope", scope) : SQLITE_ERROR, n = 0, cap = 0, ok = 1;
    pair_row *v = NULL;
    while (ok && rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        ok = adb_grow((void **)&v, &cap, n, sizeof *v) == 0;
        if (ok)
            v[n++] = (pair_row){ sqlite3_column_int64(st, 5), sqlite3_column_int64(st, 0),
                                 sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                                 sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4) };
    }
    adb_done(st);
    ok = ok && rc == SQLITE_DONE;
    if (ok && n > 1)
        ok = sort_by_seen(v, n) == 0;
    for (int i = 0; ok && i < n; i++)
        ok = fn->pair(ctx, v[i].a, v[i].b, v[i].w, v[i].d, v[i].l) == 0;
    free(v);
    return ok ? 0 : -1;
}

/* The scope's rows in a transaction the caller holds. */
static int totals_in_txn(arena_db *db, const arena_match_filter *kind, const arena_totals_fn *fn,
                         void *ctx, int *team_fit)
{
    int ok = usable(db, kind);
    if (ok <= 0)
        return ok < 0 ? -1 : 1;
    sqlite3_stmt *st = adb_stmt(db, T_SCOPES);
    int rc = bind_kind(st, kind), n = 0, exact = 1;
    int64_t scope = 0;
    *team_fit = 1;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        scope = sqlite3_column_int64(st, 0);
        exact = sqlite3_column_int(st, 1);
        *team_fit = sqlite3_column_int(st, 2);
        n++;
    }
    adb_done(st);
    if (rc != SQLITE_DONE && rc != SQLITE_OK)
        return -1;
    if (n > 1 || !exact)                  /* several kinds in one table, or inexact */
        return 1;
    if (n == 0)                           /* no match of the kind */
        return 0;
    if (each_row(db, T_BOTS, scope, fn, ctx) != 0 || each_pair(db, scope, fn, ctx) != 0 ||
        (*team_fit && each_row(db, T_TEAMS, scope, fn, ctx) != 0))
        return -1;
    return 0;
}

int arena_db_totals_each(arena_db *db, const arena_match_filter *kind, const arena_totals_fn *fn,
                         void *ctx, int *team_fit)
{
    if (!db || !fn || !team_fit)
        return -1;
    /* One snapshot: a match stored meanwhile goes into every table at once. */
    int own = sqlite3_get_autocommit(db->h);
    if (own && adb_begin_read(db, NULL, 0) != 0)
        return -1;
    int rc = totals_in_txn(db, kind, fn, ctx, team_fit);
    if (own)
        adb_rollback(db);
    return rc;
}

/* ---- the check ---------------------------------------------------------- */

static const char T_TEMP_DROP[] =
    "DROP TABLE IF EXISTS temp.result_teams; DROP TABLE IF EXISTS temp.result_pairs;"
    " DROP TABLE IF EXISTS temp.result_bots; DROP TABLE IF EXISTS temp.result_scopes;";
static const char T_TEMP_MAKE[] = ADB_TOTALS_TABLES("TEMP ", ADB_NO_REFERENCES);

/* A table's rows with their scope's key, from schema S. */
#define KEYED(S, cols, table) \
    "SELECT s.game, s.seats, s.tournament_id, s.ladder_id, " cols " FROM " S "." table " x" \
    " JOIN " S ".result_scopes s ON s.id = x.scope_id"
/* The first row one side has and the other lacks, the stored side first. */
#define DIFF(cols, table) \
    "SELECT 'stored', * FROM (" KEYED("main", cols, table) " EXCEPT " \
    KEYED("temp", cols, table) ") UNION ALL SELECT 'recomputed', * FROM (" \
    KEYED("temp", cols, table) " EXCEPT " KEYED("main", cols, table) ") LIMIT 1"
static const char *const T_DIFFS[][2] = {
    { "result_scopes", "SELECT 'stored', * FROM (SELECT game, seats, tournament_id, ladder_id,"
      " matches, exact, team_fit FROM main.result_scopes EXCEPT SELECT game, seats,"
      " tournament_id, ladder_id, matches, exact, team_fit FROM temp.result_scopes)"
      " UNION ALL SELECT 'recomputed', * FROM (SELECT game, seats, tournament_id, ladder_id,"
      " matches, exact, team_fit FROM temp.result_scopes EXCEPT SELECT game, seats,"
      " tournament_id, ladder_id, matches, exact, team_fit FROM main.result_scopes) LIMIT 1" },
    { "result_bots", DIFF("x.bot_id, x.seen, x.games, x.wins, x.draws, x.losses, x.points,"
                          " x.elo", "result_bots") },
    { "result_pairs", DIFF("x.a, x.b, x.seen, x.wins_a, x.draws, x.wins_b", "result_pairs") },
    { "result_teams", DIFF("x.a0, x.a1, x.b0, x.b1, x.score, x.seen, x.games", "result_teams") },
};

/* The first difference of the stored totals from the replayed ones: 0
 * none, 1 (err says where), -1. */
static int compare(arena_db *db, char *err, size_t size)
{
    for (size_t i = 0; i < sizeof T_DIFFS / sizeof T_DIFFS[0]; i++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db->h, T_DIFFS[i][1], -1, &st, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            char row[256] = "";
            size_t at = 0;
            for (int c = 5; c < sqlite3_column_count(st) && at < sizeof row; c++)
                at += (size_t)snprintf(row + at, sizeof row - at, " %s=%s",
                                       sqlite3_column_name(st, c),
                                       (const char *)sqlite3_column_text(st, c));
            adb_err(err, size, "%s: only the %s rows have, in %s with %d seats (tournament %lld,"
                    " ladder %lld),%s", T_DIFFS[i][0], (const char *)sqlite3_column_text(st, 0),
                    (const char *)sqlite3_column_text(st, 1), sqlite3_column_int(st, 2),
                    sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4), row);
        } else if (rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, "cannot compare the result totals");
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return rc == SQLITE_ROW ? 1 : -1;
    }
    return 0;
}

int arena_db_check_totals(arena_db *db, char *err, size_t size)
{
    if (!db) {
        adb_err(err, size, "no database");
        return -1;
    }
    if (adb_begin_read(db, err, size) != 0)
        return -1;
    int ret = usable(db, NULL);
    /* Totals out of step with the matches (changed by hand) are not read:
     * nothing to verify. Else the matches replayed into TEMP tables of the
     * same names, which the unqualified statements of adding (prepared
     * again on the schema change) then write, compared with main's. */
    if (ret == 1) {
        ret = exec_all(db, T_TEMP_DROP, err, size) == 0 && exec_all(db, T_TEMP_MAKE, err, size) == 0
                  ? replay(db, err, size) : -1;
        if (ret == 1)                     /* a damaged match: not usable after all */
            adb_err(err, size, "result totals: a match is damaged (arena check says which)");
        else if (ret == 0)
            ret = compare(db, err, size);
        exec_all(db, T_TEMP_DROP, NULL, 0);
    }
    adb_rollback(db);
    return ret;
}

/*
 * web_api_matches.c - pages of matches, a bot's page and the live view
 * (web/API.md).
 *
 * A page of matches is keyset-paginated, newest first: `before` is the
 * cursor (the last id of the previous page), never an OFFSET. With a bot,
 * the (bot_id, match_id) index walks that bot's matches; without one, the
 * primary key walks all matches, and filters no index serves (game,
 * reason, ...) are checked over at most SCAN_WINDOW ids per request: a
 * page that found fewer than asked says `partial` and hands back the
 * cursor to go on from. Either way a request reads a bounded number of
 * rows, at any depth of a database of any size.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clk.h"
#include "game.h"
#include "kv.h"
#include "web_internal.h"

#define PAGE_DEFAULT 50
#define PAGE_MAX 200
#define SCAN_WINDOW 20000

typedef struct page_query {
    int64_t bot, before, limit, tournament, ladder, players;
    const char *game, *reason;
    double score;             /* result: the bot's score, or -1 for any; draws: 0.5 */
} page_query;

/* The unary + keeps SQLite on the primary key (newest first) instead of
 * an index on the filtered column that would then need a sort. */
#define FILTERS \
    " AND (:game = '' OR +m.game = :game) AND (:players = 0 OR +m.seats = :players)" \
    " AND (:tournament = 0 OR +m.tournament_id = :tournament)" \
    " AND (:ladder = 0 OR +m.ladder_id = :ladder)" \
    " AND (:reason = '' OR +m.reason = :reason)"
static const char PAGE_BY_BOT[] =
    "SELECT m.id FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE s.bot_id = :bot AND s.match_id < :before AND (:score < 0 OR s.score = :score)" FILTERS
    " ORDER BY s.match_id DESC LIMIT :limit";
static const char PAGE_ALL[] =
    "SELECT m.id FROM matches m WHERE m.id < :before AND m.id >= :floor"
    " AND (:score < 0 OR (SELECT x.score FROM match_seats x WHERE x.match_id = m.id"
    "                     AND x.seat = 0) = :score)" FILTERS
    " ORDER BY m.id DESC LIMIT :limit";
static const char MATCH_ROW[] =
    "SELECT m.id, m.game, m.seats, m.tournament_id, m.reason, m.culprit, m.detail, m.decisions,"
    " m.started_ms, m.finished_ms, s.seat, s.bot_id, " ARENA_DB_BOT_LABEL("b") ", b.version,"
    " s.team, s.score"
    " FROM matches m JOIN match_seats s ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id"
    " WHERE m.id = :id ORDER BY s.seat";

static void bind(sqlite3_stmt *st, const char *name, int64_t v)
{
    int i = sqlite3_bind_parameter_index(st, name);
    if (i > 0)
        sqlite3_bind_int64(st, i, v);
}

static void bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
    int i = sqlite3_bind_parameter_index(st, name);
    if (i > 0)
        sqlite3_bind_text(st, i, v ? v : "", -1, SQLITE_STATIC);
}

static void put_text(jw *w, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(w);
    else
        jw_strn(w, (const char *)sqlite3_column_text(st, col), (size_t)sqlite3_column_bytes(st, col));
}

static void put_int(jw *w, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(w);
    else
        jw_int(w, sqlite3_column_int64(st, col));
}

/* One match with its seats, as every list shows it: 0, or -1. */
static int match_summary(web_req *r, sqlite3_stmt *st, int64_t id)
{
    jw *w = &r->out;
    sqlite3_reset(st);
    bind(st, ":id", id);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? 0 : -1;
    static const char *const keys[] = { "id", "game", "players", "tournament", "reason",
                                        "culprit", "detail", "decisions", "started_ms",
                                        "finished_ms" };
    jw_obj(w);
    for (int i = 0; i < 10; i++) {
        jw_key(w, keys[i]);
        if (sqlite3_column_type(st, i) == SQLITE_TEXT)
            put_text(w, st, i);
        else
            put_int(w, st, i);
    }
    jw_key(w, "seats");
    jw_arr(w);
    do {
        jw_obj(w);
        jw_key(w, "seat");
        put_int(w, st, 10);
        jw_key(w, "bot_id");
        put_int(w, st, 11);
        jw_key(w, "bot");
        put_text(w, st, 12);
        jw_key(w, "version");
        put_text(w, st, 13);
        jw_key(w, "team");
        put_int(w, st, 14);
        jw_key(w, "score");
        jw_num(w, sqlite3_column_double(st, 15));
        jw_obj_end(w);
    } while ((rc = sqlite3_step(st)) == SQLITE_ROW);
    jw_arr_end(w);
    jw_obj_end(w);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Writes "matches": [...], "next", "partial" for q: 0, or web_fail. */
static int write_page(web_req *r, const page_query *q)
{
    sqlite3 *h = arena_db_sqlite(r->db);
    sqlite3_stmt *st = NULL, *row = NULL;
    int filtered = (q->game && *q->game) || (q->reason && *q->reason) || q->tournament ||
                   q->ladder || q->players || q->score >= 0;
    int64_t before = q->before, floor = 0;
    if (!q->bot && filtered) {
        /* the window starts at the newest match, not at the cursor's default */
        if (sqlite3_prepare_v2(h, "SELECT coalesce(max(id), 0) + 1 FROM matches", -1, &st, NULL) ==
                SQLITE_OK && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) < before)
            before = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        st = NULL;
        floor = before > SCAN_WINDOW ? before - SCAN_WINDOW : 0;
    }
    if (sqlite3_prepare_v2(h, q->bot ? PAGE_BY_BOT : PAGE_ALL, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, MATCH_ROW, -1, &row, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        sqlite3_finalize(row);
        return web_fail(r, 503, "cannot read the matches: %s", sqlite3_errmsg(h));
    }
    bind(st, ":bot", q->bot);
    bind(st, ":before", before);
    bind(st, ":floor", floor);
    bind(st, ":limit", q->limit + 1);
    bind(st, ":tournament", q->tournament);
    bind(st, ":ladder", q->ladder);
    bind(st, ":players", q->players);
    bind_text(st, ":game", q->game);
    bind_text(st, ":reason", q->reason);
    sqlite3_bind_double(st, sqlite3_bind_parameter_index(st, ":score"), q->score);
    int64_t ids[PAGE_MAX + 1];
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    jw *w = &r->out;
    jw_key(w, "matches");
    jw_arr(w);
    int shown = n > q->limit ? (int)q->limit : n;
    for (int i = 0; i < shown && rc == SQLITE_DONE; i++)
        if (match_summary(r, row, ids[i]) != 0)
            rc = SQLITE_ERROR;
    jw_arr_end(w);
    sqlite3_finalize(row);
    if (rc != SQLITE_DONE)
        return web_fail(r, 503, "cannot read the matches");
    int more = n > q->limit, partial = !more && floor > 0;
    jw_key(w, "next");
    if (more)
        jw_int(w, ids[shown - 1]);
    else if (partial)
        jw_int(w, floor);
    else
        jw_null(w);
    jw_key(w, "partial");
    jw_bool(w, partial);
    return 0;
}

int web_bot_id(web_req *r, const char *ref, int64_t *id)
{
    arena_bot b;
    const char *hash = strrchr(ref, '#');
    int rc = arena_db_bot_by_name(r->db, ref, &b);
    if (rc == 1 && hash && kv_i64(hash + 1, 1, INT64_MAX, id) == 0 &&
        arena_db_bot_by_id(r->db, *id, &b) == 0 && strlen(b.name) == (size_t)(hash - ref) &&
        !strncmp(b.name, ref, (size_t)(hash - ref)))
        rc = 0;
    if (rc == 0) {
        *id = b.id;
        return 0;
    }
    /* A name the arena would refuse today (an older or edited database):
     * the exact name, registered first. */
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(arena_db_sqlite(r->db), "SELECT id FROM bots WHERE name = ?1"
                            " ORDER BY removed_at IS NULL DESC, id DESC LIMIT 1", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, ref, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    return web_fail(r, rc == SQLITE_DONE ? 404 : 503, "no bot '%s'", ref);
}

int web_api_matches(web_req *r)
{
    page_query q = { .score = -1 };
    const char *bot = web_param(r, "bot"), *result = web_param(r, "result");
    q.game = web_param(r, "game");
    q.reason = web_param(r, "reason");
    if (q.game && *q.game && !game_find(q.game))
        return web_fail(r, 400, "unknown game '%s'", q.game);
    if (web_param_i64(r, "before", 1, INT64_MAX, INT64_MAX, &q.before) ||
        web_param_i64(r, "limit", 1, PAGE_MAX, PAGE_DEFAULT, &q.limit) ||
        web_param_i64(r, "tournament", 1, INT64_MAX, 0, &q.tournament) ||
        web_param_i64(r, "players", 2, ARENA_MAX_SEATS, 0, &q.players) ||
        web_param_ladder(r, &q.ladder))
        return -1;
    if (result && *result) {
        q.score = !strcmp(result, "win") ? 1 : !strcmp(result, "draw") ? 0.5
                : !strcmp(result, "loss") ? 0 : -2;
        if (q.score == -2)
            return web_fail(r, 400, "result must be win, draw or loss");
        if (q.score != 0.5 && !(bot && *bot))
            return web_fail(r, 400, "result=%s needs a bot (whose win or loss)", result);
    }
    if (bot && *bot && web_bot_id(r, bot, &q.bot) != 0)
        return -1;
    jw_obj(&r->out);
    if (write_page(r, &q) != 0)
        return -1;
    jw_obj_end(&r->out);
    return 0;
}

/* ---- a bot --------------------------------------------------------------- */

void web_put_column(jw *w, sqlite3_stmt *st, int col)
{
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_INTEGER: jw_int(w, sqlite3_column_int64(st, col)); break;
    case SQLITE_FLOAT: jw_num(w, sqlite3_column_double(st, col)); break;
    case SQLITE_NULL: jw_null(w); break;
    default: put_text(w, st, col);
    }
}

/* A list a page shows: its key, its SQL (binding :bot, if it has it), and
 * up to two more whole numbers it binds. */
typedef struct list_query {
    const char *key, *sql;
    struct { const char *name; int64_t value; } extra[2];
} list_query;

/* Runs t's SQL for `bot` (0: binds nothing) and writes each row as an
 * array of its columns: 0, or web_fail. */
static int rows_as_arrays(web_req *r, const list_query *t, int64_t bot)
{
    sqlite3_stmt *st = NULL;
    jw *w = &r->out;
    if (sqlite3_prepare_v2(arena_db_sqlite(r->db), t->sql, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return web_fail(r, 503, "cannot read the database: %s",
                        sqlite3_errmsg(arena_db_sqlite(r->db)));
    }
    bind(st, ":bot", bot);
    for (int i = 0; i < 2; i++)
        if (t->extra[i].name)
            bind(st, t->extra[i].name, t->extra[i].value);
    jw_key(w, t->key);
    jw_arr(w);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        jw_arr(w);
        for (int i = 0; i < sqlite3_column_count(st); i++)
            web_put_column(w, st, i);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : web_fail(r, 503, "cannot read the database");
}

/* The rating plot's points: a bot's whole history when it fits the plot,
 * else every STEPth match and the last (the plot has a few hundred pixels;
 * `arena history` has them all). The ratings come from their index, and a
 * point's time from the index of finish times (schema 9): one seek per
 * point sent, not per match played. */
#define HISTORY_POINTS 500
static const char HISTORY[] =
    "SELECT match_id, elo_after FROM rating_history WHERE bot_id = :bot ORDER BY match_id";
static const char FINISHED[] =
    "SELECT finished_ms FROM matches INDEXED BY matches_finished WHERE id = :id";

typedef struct rated { int64_t match; double elo; } rated;

/* The point after i of n sent every step: the last one is always sent. */
static size_t next_point(size_t i, size_t step, size_t n)
{
    return i + 1 == n ? n : i + step < n ? i + step : n - 1;
}

/* "history": [[finished_ms, elo_after, match_id]], "history_step",
 * "history_total": 0, or web_fail. */
static int history_json(web_req *r, int64_t bot)
{
    sqlite3 *h = arena_db_sqlite(r->db);
    sqlite3_stmt *st = NULL, *at = NULL;
    rated *v = NULL;
    size_t n = 0, cap = 0;
    int rc = sqlite3_prepare_v2(h, HISTORY, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(h, FINISHED, -1, &at, NULL);
    if (rc == SQLITE_OK) {
        bind(st, ":bot", bot);
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (n == cap) {
                rated *grown = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
                if (!grown) {
                    rc = SQLITE_NOMEM;
                    break;
                }
                v = grown;
            }
            v[n++] = (rated){ sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1) };
        }
    }
    size_t step = n > HISTORY_POINTS ? (n + HISTORY_POINTS - 1) / HISTORY_POINTS : 1;
    jw *w = &r->out;
    jw_key(w, "history_total");
    jw_int(w, (int64_t)n);
    jw_key(w, "history_step");
    jw_int(w, (int64_t)step);
    jw_key(w, "history");
    jw_arr(w);
    for (size_t i = 0; rc == SQLITE_DONE && i < n; i = next_point(i, step, n)) {
        sqlite3_reset(at);
        bind(at, ":id", v[i].match);
        if (sqlite3_step(at) != SQLITE_ROW)
            rc = SQLITE_ERROR;
        jw_arr(w);
        jw_int(w, sqlite3_column_int64(at, 0));
        jw_num(w, v[i].elo);
        jw_int(w, v[i].match);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    sqlite3_finalize(st);
    sqlite3_finalize(at);
    free(v);
    return rc == SQLITE_DONE ? 0 : web_fail(r, 503, "cannot read the rating history");
}

/* The ladder's refreshed fits (schema 3), when the database has them. */
static const char FITS[] =
    "SELECT f.at_ms, fb.rating, fb.ci95, fb.games FROM rating_fit_bots fb"
    " JOIN rating_fits f ON f.id = fb.fit_id WHERE fb.bot_id = :bot ORDER BY f.at_ms";
/* Kept per pair as matches are stored (schema 11). */
static const char OPPONENTS[] =
    "SELECT " ARENA_DB_BOT_LABEL("b") ", o.opponent_id, o.wins, o.draws, o.losses"
    " FROM bot_opponents o JOIN bots b ON b.id = o.opponent_id WHERE o.bot_id = :bot"
    " ORDER BY b.name, b.id";
/* The newest 50 of the matches the bot forfeited (schema 11). */
static const char FORFEITS[] =
    "SELECT m.id, m.finished_ms, m.reason, m.detail FROM bot_forfeits f"
    " JOIN matches m ON m.id = f.match_id WHERE f.bot_id = :bot"
    " ORDER BY f.match_id DESC LIMIT 50";
/* Logs are kept for the newest matches only (a retention count): the walk
 * of the bot's matches, newest first, stops at the oldest match with a
 * log, at the 50th found, or after LOGS_WALK matches. */
#define LOGS_WALK 2000
static const char LOGS[] =
    "SELECT l.match_id, l.seat, l.bytes FROM"
    " (SELECT match_id, seat FROM match_seats WHERE bot_id = :bot"
    "  AND match_id >= (SELECT coalesce(min(match_id), 1 << 62) FROM match_logs)"
    "  ORDER BY match_id DESC LIMIT :walk) s"
    " JOIN match_logs l ON l.match_id = s.match_id AND l.seat = s.seat"
    " ORDER BY s.match_id DESC LIMIT 50";

/* "history" (with "history_step", "history_total"), "fits", "opponents",
 * "forfeits", "logs": 0, or web_fail. */
static int bot_tables(web_req *r, int64_t id)
{
    if (history_json(r, id) != 0)
        return -1;
    const list_query tables[] = {
        { "fits", FITS, { { NULL, 0 } } },
        { "opponents", OPPONENTS, { { NULL, 0 } } },
        { "forfeits", FORFEITS, { { NULL, 0 } } },
        { "logs", LOGS, { { ":walk", LOGS_WALK } } },
    };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (rows_as_arrays(r, &tables[i], id) != 0)
            return -1;
    return 0;
}

int web_api_bot(web_req *r)
{
    const char *name = r->path_rest;
    int64_t id;
    if (strlen(name) > 200)
        return web_fail(r, 400, "a bot name is at most 63 characters");
    if (web_bot_id(r, name, &id) != 0)
        return -1;
    jw *w = &r->out;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(arena_db_sqlite(r->db),
                           "SELECT coalesce(elo, 1500), coalesce(games, 0) FROM bots b"
                           " LEFT JOIN ratings r ON r.bot_id = b.id WHERE b.id = :bot", -1, &st,
                           NULL) != SQLITE_OK || (bind(st, ":bot", id), sqlite3_step(st)) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return web_fail(r, 503, "cannot read the bot");
    }
    jw_obj(w);
    jw_key(w, "id");
    jw_int(w, id);
    arena_bot b;
    if (arena_db_bot_by_id(r->db, id, &b) != 0) {
        sqlite3_finalize(st);
        return web_fail(r, 503, "cannot read the bot");
    }
    jw_key(w, "name");
    jw_str(w, b.name);
    jw_key(w, "label");
    jw_str(w, b.label);
    jw_key(w, "version");
    jw_str(w, b.version);
    jw_key(w, "status");
    jw_str(w, arena_bot_status_shown(&b));
    jw_key(w, "status_reason");
    jw_str(w, b.reason);
    jw_key(w, "live_elo");
    jw_num(w, sqlite3_column_double(st, 0));
    jw_key(w, "games");
    jw_int(w, sqlite3_column_int64(st, 1));
    sqlite3_finalize(st);
    if (bot_tables(r, id) != 0)
        return -1;
    page_query q = { .bot = id, .before = INT64_MAX, .limit = 20, .score = -1 };
    jw_key(w, "recent");
    jw_obj(w);
    if (write_page(r, &q) != 0)
        return -1;
    jw_obj_end(w);
    jw_obj_end(w);
    return 0;
}

/* ---- live ------------------------------------------------------------------ */

static const char RECENT_TIMES[] =
    "SELECT finished_ms FROM matches ORDER BY id DESC LIMIT 1000";
/* Unfinished tournaments: planned, stored, when started, and from their
 * live claims (schema 8) the matches taken (an arena claims what it hands
 * to its workers, playing or next in line, and renews the lease while it
 * plays) and by how many arenas. */
static const char RUNNING[] =
    "SELECT t.id, t.game, t.format, t.planned,"
    " (SELECT count(*) FROM matches m WHERE m.tournament_id = t.id), t.created_at,"
    " (SELECT count(*) FROM match_claims c WHERE c.tournament_id = t.id AND c.expires_ms > :now),"
    " (SELECT count(DISTINCT owner) FROM match_claims c"
    "  WHERE c.tournament_id = t.id AND c.expires_ms > :now)"
    " FROM tournaments t WHERE t.finished_at IS NULL ORDER BY t.id DESC LIMIT 20";

/* The arenas at work (schema 12): where, what they play, their workers and
 * the matches handed to them, when started and last seen (an arena renews
 * its row every two seconds; one killed stops being seen). */
static const char ARENAS[] =
    "SELECT r.host, r.pid, r.tournament_id, l.name, r.workers, r.taken, r.listening,"
    " r.started_ms, r.seen_ms FROM arena_runs r LEFT JOIN ladders l ON l.id = r.ladder_id"
    " ORDER BY r.started_ms DESC LIMIT 50";

/* Ladders that played among the latest 1,000 matches: name, game, how many
 * of those, its latest finish, and the matches it has scheduled so far
 * (its highest game_index + 1, from the (ladder, index) index). */
static const char LADDERS_ACTIVE[] =
    "SELECT l.name, l.game, count(*), max(m.finished_ms),"
    " (SELECT max(x.game_index) + 1 FROM matches x WHERE x.ladder_id = l.id)"
    " FROM (SELECT ladder_id, finished_ms FROM matches ORDER BY id DESC LIMIT 1000) m"
    " JOIN ladders l ON l.id = m.ladder_id GROUP BY l.id ORDER BY max(m.finished_ms) DESC";

int web_api_live(web_req *r)
{
    sqlite3_stmt *st = NULL;
    sqlite3 *h = arena_db_sqlite(r->db);
    int64_t newest = 0, minute = 0, ten = 0;
    if (sqlite3_prepare_v2(h, RECENT_TIMES, -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return web_fail(r, 503, "cannot read the matches");
    }
    for (int first = 1; sqlite3_step(st) == SQLITE_ROW; first = 0) {
        int64_t t = sqlite3_column_int64(st, 0);
        if (first)
            newest = t;
        minute += t > newest - 60000;
        ten += t > newest - 600000;
    }
    sqlite3_finalize(st);
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "latest_ms");
    jw_int(w, newest);
    jw_key(w, "per_minute");           /* over the minute before the newest match */
    jw_int(w, minute);
    jw_key(w, "per_minute_10");        /* averaged over ten minutes */
    jw_num(w, ten / 10.0);
    int64_t now = clk_wall_ms();
    jw_key(w, "now_ms");               /* the server's clock, for arenas' seen_ms */
    jw_int(w, now);
    const list_query running = { "running", RUNNING, { { ":now", now } } },
                     arenas = { "arenas", ARENAS, { { NULL, 0 } } },
                     ladders = { "ladders", LADDERS_ACTIVE, { { NULL, 0 } } };
    if (rows_as_arrays(r, &running, 0) != 0 || rows_as_arrays(r, &arenas, 0) != 0 ||
        rows_as_arrays(r, &ladders, 0) != 0)
        return -1;
    page_query q = { .before = INT64_MAX, .limit = 15, .score = -1 };
    jw_key(w, "recent");
    jw_obj(w);
    if (write_page(r, &q) != 0)
        return -1;
    jw_obj_end(w);
    jw_obj_end(w);
    return 0;
}

/*
 * web_api.c - the JSON API's lists (web/API.md): standings, crosstable,
 * the kinds of match and the tournaments.
 *
 * Standings and crosstables come from web_cache.c (the arena's own
 * reports); pages of matches, bots and live from web_api_matches.c.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "game.h"
#include "web_internal.h"

/* ---- filters shared by the reports and the match list ------------------- */

static int read_filter(web_req *r, arena_match_filter *f)
{
    memset(f, 0, sizeof *f);
    const char *game = web_param(r, "game");
    int64_t players, tournament;
    if (game && *game) {
        if (!game_find(game))
            return web_fail(r, 400, "unknown game '%s'", game);
        snprintf(f->game, sizeof f->game, "%s", game);
    }
    if (web_param_i64(r, "players", 2, ARENA_MAX_SEATS, 0, &players) ||
        web_param_i64(r, "tournament", 1, INT64_MAX, 0, &tournament))
        return -1;
    f->seats = (int)players;
    f->tournament_id = tournament;
    return 0;
}

static sqlite3_stmt *prepare(web_req *r, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(arena_db_sqlite(r->db), sql, -1, &st, NULL) != SQLITE_OK) {
        web_fail(r, 503, "cannot read the database: %s", sqlite3_errmsg(arena_db_sqlite(r->db)));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void col_str(web_req *r, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(&r->out);
    else
        jw_strn(&r->out, (const char *)sqlite3_column_text(st, col),
                (size_t)sqlite3_column_bytes(st, col));
}

static void col_int(web_req *r, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(&r->out);
    else
        jw_int(&r->out, sqlite3_column_int64(st, col));
}

static int finish(web_req *r, sqlite3_stmt *st, int rc)
{
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return web_fail(r, 503, "cannot read the database");
    return 0;
}

/* ---- bots: what every table shows beside a name ------------------------- */

#define STR_(x) #x
#define STR(x) STR_(x)
/* Each bot with its label (the name every table shows, told apart from
 * its other versions) and the status shown (provisional: active with few
 * games; removed: unregistered). */
static const char BOTS[] =
    "SELECT b.id, " ARENA_DB_BOT_LABEL("b") ", b.name, b.version,"
    " CASE WHEN b.removed_at IS NOT NULL THEN 'removed'"
    "  WHEN b.status = 'active' AND coalesce(r.games, 0) < " STR(ARENA_PROVISIONAL_GAMES)
    "  THEN 'provisional' ELSE b.status END, nullif(b.status_reason, ''),"
    " (SELECT m.finished_ms FROM matches m WHERE m.id ="
    "   (SELECT max(s.match_id) FROM match_seats s WHERE s.bot_id = b.id)),"
    " b.removed_at IS NULL"
    " FROM bots b LEFT JOIN ratings r ON r.bot_id = b.id WHERE (:id = 0 OR b.id = :id) ORDER BY b.id";

static sqlite3_stmt *bots_query(web_req *r, int64_t id)
{
    sqlite3_stmt *st = prepare(r, BOTS);
    if (st)
        sqlite3_bind_int64(st, 1, id);
    return st;
}

static void bot_object(web_req *r, sqlite3_stmt *st)
{
    static const char *const keys[] = { "id", "label", "name", "version", "status",
                                        "status_reason", "last_active_ms" };
    jw *w = &r->out;
    jw_obj(w);
    for (int i = 0; i < 7; i++) {
        jw_key(w, keys[i]);
        if (i == 0 || i == 6)
            col_int(r, st, i);
        else
            col_str(r, st, i);
    }
    jw_key(w, "registered");
    jw_bool(w, sqlite3_column_int(st, 7));
    jw_obj_end(w);
}

static int bots_array(web_req *r)
{
    sqlite3_stmt *st = bots_query(r, 0);
    if (!st)
        return -1;
    int rc;
    jw_key(&r->out, "bots");
    jw_arr(&r->out);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        bot_object(r, st);
    jw_arr_end(&r->out);
    return finish(r, st, rc);
}

/* ---- reports ----------------------------------------------------------------- */

static int report(web_req *r, web_report what)
{
    arena_match_filter f;
    if (read_filter(r, &f))
        return -1;
    jw_obj(&r->out);
    jw_key(&r->out, what == WEB_STANDINGS ? "standings" : "crosstable");
    if (web_cache_get(r->cache, r, what, &f) != 0)
        return -1;
    if (what == WEB_STANDINGS && bots_array(r) != 0)
        return -1;
    jw_obj_end(&r->out);
    return 0;
}

int web_api_standings(web_req *r) { return report(r, WEB_STANDINGS); }
int web_api_crosstable(web_req *r) { return report(r, WEB_CROSSTABLE); }

/* The distinct (game, seats) of every match, by skipping through the
 * matches_game index: one seek per kind instead of a scan of a million
 * rows (GROUP BY reads every entry of the index). Each step goes to the
 * next seat count of the same game, else to the smallest of the next game. */
#define NEXT_SEATS "(SELECT min(m.seats) FROM matches m WHERE m.game = k.game AND m.seats > k.seats)"
#define NEXT_GAME "(SELECT min(m.game) FROM matches m WHERE m.game > k.game)"
static const char KINDS[] =
    "WITH RECURSIVE k(game, seats) AS ("
    " SELECT * FROM (SELECT game, seats FROM matches ORDER BY game, seats LIMIT 1)"
    " UNION ALL"
    " SELECT CASE WHEN " NEXT_SEATS " IS NOT NULL THEN k.game ELSE " NEXT_GAME " END,"
    "  coalesce(" NEXT_SEATS ", (SELECT min(m.seats) FROM matches m WHERE m.game = " NEXT_GAME "))"
    " FROM k WHERE k.game IS NOT NULL)"
    " SELECT game, seats FROM k WHERE game IS NOT NULL";

int web_api_games(web_req *r)
{
    sqlite3_stmt *st = prepare(r, KINDS);
    if (!st)
        return -1;
    int rc;
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "kinds");
    jw_arr(w);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        jw_obj(w);
        jw_key(w, "game");
        col_str(r, st, 0);
        jw_key(w, "players");
        col_int(r, st, 1);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    if (finish(r, st, rc))
        return -1;
    st = prepare(r, "SELECT id, game, format, games, options, planned, created_at, finished_at"
                    " FROM tournaments ORDER BY id DESC LIMIT 200");
    if (!st)
        return -1;
    jw_key(w, "tournaments");
    jw_arr(w);
    static const char *const keys[] = { "id", "game", "format", "games", "options", "planned",
                                        "created_ms", "finished_ms" };
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        jw_obj(w);
        for (int i = 0; i < 8; i++) {
            jw_key(w, keys[i]);
            if (sqlite3_column_type(st, i) == SQLITE_TEXT)
                col_str(r, st, i);
            else
                col_int(r, st, i);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    return finish(r, st, rc);
}

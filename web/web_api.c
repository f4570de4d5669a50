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

int web_param_ladder(web_req *r, int64_t *id)
{
    const char *name = web_param(r, "ladder");
    arena_ladder l;
    *id = 0;
    if (!name || !*name)
        return 0;
    int rc = arena_db_ladder_get(r->db, name, &l);
    if (rc != 0)
        return web_fail(r, rc == 1 ? 404 : 503, rc == 1 ? "no ladder '%s'" : "cannot read ladder '%s'",
                        name);
    *id = l.id;
    return 0;
}

int web_param_filter(web_req *r, arena_match_filter *f)
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
        web_param_i64(r, "tournament", 1, INT64_MAX, 0, &tournament) ||
        web_param_ladder(r, &f->ladder_id))
        return -1;
    if (tournament && f->ladder_id)
        return web_fail(r, 400, "tournament and ladder choose different matches: give one");
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

static void col_str(jw *w, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(w);
    else
        jw_strn(w, (const char *)sqlite3_column_text(st, col),
                (size_t)sqlite3_column_bytes(st, col));
}

static void col_int(jw *w, sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        jw_null(w);
    else
        jw_int(w, sqlite3_column_int64(st, col));
}

static int finish(web_req *r, sqlite3_stmt *st, int rc)
{
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return web_fail(r, 503, "cannot read the database");
    return 0;
}

/* ---- bots: what every table shows beside a name ------------------------- */

/* Each bot with its label (the name every table shows, told apart from
 * its other versions), what the status shown is made of (the CLI's
 * rule, arena_bot_status_shown: trial, provisional; removed: unregistered)
 * and the games it plays. */
static const char BOTS[] =
    "SELECT b.id, " ARENA_DB_BOT_LABEL("b") ", b.name, b.version, b.status,"
    " nullif(b.status_reason, ''),"
    " (SELECT m.finished_ms FROM matches m WHERE m.id ="
    "   (SELECT max(s.match_id) FROM match_seats s WHERE s.bot_id = b.id)),"
    " b.removed_at IS NULL, coalesce(r.games, 0),"
    " (SELECT group_concat(g.game, ' ') FROM bot_games g WHERE g.bot_id = b.id)"
    " FROM bots b LEFT JOIN ratings r ON r.bot_id = b.id ORDER BY b.id";

static void bot_object(jw *w, sqlite3_stmt *st)
{
    static const char *const keys[] = { "id", "label", "name", "version", "status",
                                        "status_reason", "last_active_ms" };
    arena_bot b = { .games = sqlite3_column_int(st, 8) };
    const char *status = (const char *)sqlite3_column_text(st, 4);
    const char *reason = (const char *)sqlite3_column_text(st, 5);
    snprintf(b.status, sizeof b.status, "%s", status ? status : "");
    snprintf(b.reason, sizeof b.reason, "%s", reason ? reason : "");
    int registered = sqlite3_column_int(st, 7);
    jw_obj(w);
    for (int i = 0; i < 7; i++) {
        jw_key(w, keys[i]);
        if (i == 4)
            jw_str(w, registered ? arena_bot_status_shown(&b) : "removed");
        else if (i == 0 || i == 6)
            col_int(w, st, i);
        else
            col_str(w, st, i);
    }
    jw_key(w, "registered");
    jw_bool(w, registered);
    jw_key(w, "plays");                   /* its games: registry names, space-separated */
    jw_arr(w);
    const char *plays = (const char *)sqlite3_column_text(st, 9);
    for (const char *p = plays ? plays : ""; *p; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        jw_strn(w, p, len);
        p += len;
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

int web_bots_json(arena_db *db, FILE *out, char *err, size_t size)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(arena_db_sqlite(db), BOTS, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err, size, "cannot read the bots: %s", sqlite3_errmsg(arena_db_sqlite(db)));
        sqlite3_finalize(st);
        return -1;
    }
    jw w;
    jw_init(&w);
    jw_arr(&w);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        bot_object(&w, st);
    jw_arr_end(&w);
    sqlite3_finalize(st);
    int ok = rc == SQLITE_DONE && !jw_failed(&w) && fwrite(w.buf, 1, w.len, out) == w.len;
    if (!ok)
        snprintf(err, size, "cannot read the bots");
    jw_free(&w);
    return ok ? 0 : -1;
}

/* ---- reports ----------------------------------------------------------------- */

static int report(web_req *r, web_report what)
{
    arena_match_filter f;
    if (web_param_filter(r, &f))
        return -1;
    jw_obj(&r->out);
    jw_key(&r->out, what == WEB_STANDINGS ? "standings" : "crosstable");
    if (web_cache_get(r->cache, r, what, &f) != 0)
        return -1;
    if (what == WEB_STANDINGS) {
        static const arena_match_filter every;
        jw_key(&r->out, "bots");
        if (web_cache_get(r->cache, r, WEB_BOTS, &every) != 0)
            return -1;
    }
    jw_key(&r->out, "as_of_ms");
    jw_int(&r->out, r->as_of_ms);
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
    " SELECT game, seats, (SELECT max(m.id) FROM matches m WHERE m.game = k.game AND m.seats = k.seats)"
    " FROM k WHERE game IS NOT NULL";

/* "ladders": [{id, name, game, options, created_ms}] (newest 200), then
 * closes the object web_api_games opened. */
static int ladders_json(web_req *r)
{
    sqlite3_stmt *st = prepare(r, "SELECT id, name, game, options, created_at FROM ladders"
                                  " ORDER BY id DESC LIMIT 200");
    if (!st)
        return -1;
    static const char *const keys[] = { "id", "name", "game", "options", "created_ms" };
    int rc;
    jw *w = &r->out;
    jw_key(w, "ladders");
    jw_arr(w);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        jw_obj(w);
        for (int i = 0; i < 5; i++) {
            jw_key(w, keys[i]);
            if (i == 0 || i == 4)
                col_int(w, st, i);
            else
                col_str(w, st, i);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    return finish(r, st, rc);
}

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
        col_str(w, st, 0);
        jw_key(w, "players");
        col_int(w, st, 1);
        jw_key(w, "newest");          /* its newest match's id: the index's last column */
        col_int(w, st, 2);
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
                col_str(w, st, i);
            else
                col_int(w, st, i);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    if (finish(r, st, rc))
        return -1;
    return ladders_json(r);
}

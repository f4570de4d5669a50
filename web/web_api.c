/*
 * web_api.c - the JSON API's lists (web/API.md): standings, crosstable,
 * the kinds of match and the tournaments.
 *
 * Standings and crosstables are the arena's own reports, and the bots
 * beside them a report of this file; web_cache.c keeps each one's JSON
 * until matches change. Pages of matches, bots and live are in
 * web_api_matches.c; what each reads, in db/arena_read.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_read.h"
#include "arena_report.h"
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

/* ---- bots: what every table shows beside a name ------------------------- */

static void put_bot(jw *w, const arena_bot_row *b)
{
    jw_obj(w);
    jw_key(w, "id");
    jw_int(w, b->id);
    jw_key(w, "label");
    jw_str(w, b->label);
    jw_key(w, "name");
    jw_str(w, b->name);
    jw_key(w, "version");
    jw_str(w, b->version);
    jw_key(w, "status");
    jw_str(w, b->status);
    jw_key(w, "status_reason");
    jw_str(w, *b->reason ? b->reason : NULL);
    jw_key(w, "last_active_ms");
    if (b->played)
        jw_int(w, b->last_active_ms);
    else
        jw_null(w);
    jw_key(w, "registered");
    jw_bool(w, b->registered);
    jw_key(w, "plays");                   /* its games: registry names, space-separated */
    jw_arr(w);
    for (const char *p = b->plays; *p; p += strspn(p, " ")) {
        size_t len = strcspn(p, " ");
        jw_strn(w, p, len);
        p += len;
    }
    jw_arr_end(w);
    jw_key(w, "remote");                  /* connected, not connected, absent; null */
    jw_str(w, *b->remote ? b->remote : NULL);
    jw_obj_end(w);
}

/* The JSON array of every bot (label, status, last active) into out: 0, or
 * -1 with err. The filter is unused: a bot is shown the same everywhere. */
static int bots_json(arena_db *db, const arena_match_filter *f, FILE *out, char *err, size_t size)
{
    (void)f;
    arena_bot_row *b;
    int n = arena_read_bots(db, &b);
    if (n < 0) {
        snprintf(err, size, "cannot read the bots");
        return -1;
    }
    jw w;
    jw_init(&w);
    jw_arr(&w);
    for (int i = 0; i < n; i++)
        put_bot(&w, &b[i]);
    jw_arr_end(&w);
    free(b);
    int ok = !jw_failed(&w) && fwrite(w.buf, 1, w.len, out) == w.len;
    if (!ok)
        snprintf(err, size, "cannot read the bots");
    jw_free(&w);
    return ok ? 0 : -1;
}

/* ---- reports ----------------------------------------------------------------- */

static int standings_json(arena_db *db, const arena_match_filter *f, FILE *out, char *err,
                          size_t size)
{
    return arena_standings(db, f, ARENA_JSON, out, err, size);
}

static int crosstable_json(arena_db *db, const arena_match_filter *f, FILE *out, char *err,
                           size_t size)
{
    return arena_crosstable(db, f, ARENA_JSON, out, err, size);
}

/* The arena's own reports, new with every match; the bots, whose status
 * changes without one (a trial passed, a bot disabled), on time alone. */
static const web_report STANDINGS = { standings_json, 0 }, CROSSTABLE = { crosstable_json, 0 },
                        BOTS = { bots_json, 1 };

static int report(web_req *r, const web_report *what)
{
    arena_match_filter f;
    if (web_param_filter(r, &f))
        return -1;
    jw_obj(&r->out);
    jw_key(&r->out, what == &STANDINGS ? "standings" : "crosstable");
    if (web_cache_get(r->cache, r, what, &f) != 0)
        return -1;
    if (what == &STANDINGS) {
        static const arena_match_filter every;
        jw_key(&r->out, "bots");
        if (web_cache_get(r->cache, r, &BOTS, &every) != 0)
            return -1;
    }
    jw_key(&r->out, "as_of_ms");
    jw_int(&r->out, r->as_of_ms);
    jw_obj_end(&r->out);
    return 0;
}

int web_api_standings(web_req *r) { return report(r, &STANDINGS); }
int web_api_crosstable(web_req *r) { return report(r, &CROSSTABLE); }

/* ---- kinds, tournaments, ladders ------------------------------------------------ */

static void put_kinds(jw *w, const arena_kind_row *k, int n)
{
    jw_key(w, "kinds");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_obj(w);
        jw_key(w, "game");
        jw_str(w, k[i].game);
        jw_key(w, "players");
        jw_int(w, k[i].players);
        jw_key(w, "newest");          /* its newest match's id */
        jw_int(w, k[i].newest);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void put_tournaments(jw *w, const arena_tournament_row *t, int n)
{
    jw_key(w, "tournaments");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_obj(w);
        jw_key(w, "id");
        jw_int(w, t[i].id);
        jw_key(w, "game");
        jw_str(w, t[i].game);
        jw_key(w, "format");
        jw_str(w, t[i].format);
        jw_key(w, "games");
        jw_int(w, t[i].games);
        jw_key(w, "options");
        jw_str(w, t[i].options);
        jw_key(w, "planned");
        jw_int(w, t[i].planned);
        jw_key(w, "created_ms");
        jw_int(w, t[i].created_ms);
        jw_key(w, "finished_ms");
        if (t[i].finished)
            jw_int(w, t[i].finished_ms);
        else
            jw_null(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void put_ladders(jw *w, const arena_ladder_row *l, int n)
{
    jw_key(w, "ladders");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_obj(w);
        jw_key(w, "id");
        jw_int(w, l[i].id);
        jw_key(w, "name");
        jw_str(w, l[i].name);
        jw_key(w, "game");
        jw_str(w, l[i].game);
        jw_key(w, "options");
        jw_str(w, l[i].options);
        jw_key(w, "created_ms");
        jw_int(w, l[i].created_ms);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

int web_api_games(web_req *r)
{
    arena_kind_row *k = NULL;
    arena_tournament_row *t = NULL;
    arena_ladder_row *l = NULL;
    int nk = arena_read_kinds(r->db, &k), nt = -1, nl = -1;
    if (nk >= 0)
        nt = arena_read_tournaments(r->db, &t);
    if (nt >= 0)
        nl = arena_read_ladders(r->db, &l);
    if (nl >= 0) {
        jw *w = &r->out;
        jw_obj(w);
        put_kinds(w, k, nk);
        put_tournaments(w, t, nt);
        put_ladders(w, l, nl);
        jw_obj_end(w);
    }
    free(k), free(t), free(l);
    return nl >= 0 ? 0 : web_fail(r, 503, "cannot read the database");
}

/* ---- a Swiss or knockout event's own results ----------------------------- */

int web_api_event(web_req *r)
{
    int64_t tid;
    arena_tournament t;
    char err[256];
    if (web_param_i64(r, "tournament", 1, INT64_MAX, 0, &tid))
        return -1;
    if (!tid)
        return web_fail(r, 400, "which tournament? (tournament=ID)");
    int rc = arena_db_tournament_get(r->db, tid, &t);
    if (rc != 0)
        return web_fail(r, rc == 1 ? 404 : 503, rc == 1 ? "no tournament %lld"
                        : "cannot read tournament %lld", (long long)tid);
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "tournament");
    jw_int(w, tid);
    jw_key(w, "format");                       /* "swiss rounds=R": its first word */
    jw_strn(w, t.format, strcspn(t.format, " "));
    if (arena_event_json(r->db, tid, w, err, sizeof err) < 0)
        return web_fail(r, 503, "%s", err);
    jw_obj_end(w);
    return 0;
}

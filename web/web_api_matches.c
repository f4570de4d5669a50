/*
 * web_api_matches.c - pages of matches, a bot's page and the live view
 * (web/API.md), as db/arena_read.h reads them.
 *
 * A page of matches is keyset-paginated, newest first: `before` is the
 * cursor (the last id of the previous page), never an OFFSET; filters no
 * index serves are checked over a bounded window of ids, and a page that
 * found fewer than asked says `partial` and hands back the cursor to go
 * on from (arena_page). Either way a request reads a bounded number
 * of rows, at any depth of a database of any size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_db_playing.h"
#include "arena_read.h"
#include "clk.h"
#include "game.h"
#include "web_internal.h"

#define PAGE_DEFAULT 50
#define PAGE_MAX 200
#define HISTORY_POINTS 500    /* the plot has a few hundred pixels; `arena history` has them all */

static void put_int_or_null(jw *w, int is, int64_t v)
{
    if (is)
        jw_int(w, v);
    else
        jw_null(w);
}

/* One match with its seats, as every list shows it. */
static void put_match(jw *w, const arena_match_row *m)
{
    jw_obj(w);
    jw_key(w, "id");
    jw_int(w, m->id);
    jw_key(w, "game");
    jw_str(w, m->game);
    jw_key(w, "players");
    jw_int(w, m->players);
    jw_key(w, "tournament");
    put_int_or_null(w, m->tournament_id != 0, m->tournament_id);
    jw_key(w, "reason");
    jw_str(w, m->reason);
    jw_key(w, "culprit");
    put_int_or_null(w, m->culprit >= 0, m->culprit);
    jw_key(w, "detail");
    jw_str(w, m->detail);
    jw_key(w, "decisions");
    jw_int(w, m->decisions);
    jw_key(w, "started_ms");
    jw_int(w, m->started_ms);
    jw_key(w, "finished_ms");
    jw_int(w, m->finished_ms);
    jw_key(w, "seats");
    jw_arr(w);
    for (int i = 0; i < m->nseats; i++) {
        const arena_seat_row *s = &m->seat[i];
        jw_obj(w);
        jw_key(w, "seat");
        jw_int(w, s->seat);
        jw_key(w, "bot_id");
        jw_int(w, s->bot_id);
        jw_key(w, "bot");
        jw_str(w, s->bot);
        jw_key(w, "version");
        jw_str(w, s->version);
        jw_key(w, "team");
        jw_int(w, s->team);
        jw_key(w, "score");
        jw_num(w, s->score);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

/* Writes "matches": [...], "next", "partial" for q: 0, or web_fail. */
static int write_page(web_req *r, const arena_page_query *q)
{
    arena_page p;
    if (arena_read_page(r->db, q, &p) != 0)
        return web_fail(r, 503, "cannot read the matches");
    jw *w = &r->out;
    jw_key(w, "matches");
    jw_arr(w);
    for (int i = 0; i < p.n; i++)
        put_match(w, &p.m[i]);
    jw_arr_end(w);
    jw_key(w, "next");
    put_int_or_null(w, p.next != 0, p.next);
    jw_key(w, "partial");
    jw_bool(w, p.partial);
    arena_read_page_free(&p);
    return 0;
}

int web_bot_id(web_req *r, const char *ref, int64_t *id)
{
    int rc = arena_read_bot_ref(r->db, ref, id);
    return rc == 0 ? 0 : web_fail(r, rc == 1 ? 404 : 503, "no bot '%s'", ref);
}

int web_api_matches(web_req *r)
{
    arena_page_query q = { .score = -1 };
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

/* "history": [[finished_ms, elo_after, match_id]], after "history_total"
 * and "history_step": 0, or web_fail. */
static int history_json(web_req *r, int64_t bot)
{
    arena_plot p;
    if (arena_read_plot(r->db, bot, HISTORY_POINTS, &p) != 0)
        return web_fail(r, 503, "cannot read the rating history");
    jw *w = &r->out;
    jw_key(w, "history_total");
    jw_int(w, p.total);
    jw_key(w, "history_step");
    jw_int(w, p.step);
    jw_key(w, "history");
    jw_arr(w);
    for (int64_t i = 0; i < p.n; i++) {
        jw_arr(w);
        jw_int(w, p.p[i].finished_ms);
        jw_num(w, p.p[i].elo);
        jw_int(w, p.p[i].match_id);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    free(p.p);
    return 0;
}

/* "fits": [[at_ms, rating, ci95, games]]: the ladders' refreshed fits. */
static int fits_json(web_req *r, int64_t bot)
{
    int64_t *at = NULL;
    arena_fit_row *f = NULL;
    int n = arena_db_fit_history(r->db, 0, bot, &at, &f);
    if (n < 0)
        return web_fail(r, 503, "cannot read the database");
    jw *w = &r->out;
    jw_key(w, "fits");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_arr(w);
        jw_int(w, at[i]);
        jw_num(w, f[i].rating);
        jw_num(w, f[i].ci95);
        jw_int(w, f[i].games);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    free(at), free(f);
    return 0;
}

/* "opponents": [[label, id, wins, draws, losses]], "forfeits": [[match,
 * finished_ms, reason, detail]] (the newest), "logs": [[match, seat,
 * bytes]] (the newest kept): 0, or web_fail. */
static int bot_lists(web_req *r, int64_t bot)
{
    arena_opponent_row *o = NULL;
    arena_forfeit_row *f = NULL;
    arena_log_row *l = NULL;
    int no = arena_read_opponents(r->db, bot, &o), nf = -1, nl = -1;
    if (no >= 0)
        nf = arena_read_forfeits(r->db, bot, &f);
    if (nf >= 0)
        nl = arena_read_logs(r->db, bot, &l);
    jw *w = &r->out;
    if (nl >= 0) {
        jw_key(w, "opponents");
        jw_arr(w);
        for (int i = 0; i < no; i++) {
            jw_arr(w);
            jw_str(w, o[i].label);
            jw_int(w, o[i].opponent_id);
            jw_int(w, o[i].wins);
            jw_int(w, o[i].draws);
            jw_int(w, o[i].losses);
            jw_arr_end(w);
        }
        jw_arr_end(w);
        jw_key(w, "forfeits");
        jw_arr(w);
        for (int i = 0; i < nf; i++) {
            jw_arr(w);
            jw_int(w, f[i].match_id);
            jw_int(w, f[i].finished_ms);
            jw_str(w, f[i].reason);
            jw_str(w, f[i].detail);
            jw_arr_end(w);
        }
        jw_arr_end(w);
        jw_key(w, "logs");
        jw_arr(w);
        for (int i = 0; i < nl; i++) {
            jw_arr(w);
            jw_int(w, l[i].match_id);
            jw_int(w, l[i].seat);
            jw_int(w, l[i].bytes);
            jw_arr_end(w);
        }
        jw_arr_end(w);
    }
    free(o), free(f), free(l);
    return nl >= 0 ? 0 : web_fail(r, 503, "cannot read the database");
}

int web_api_bot(web_req *r)
{
    const char *name = r->path_rest;
    int64_t id;
    if (strlen(name) > 200)
        return web_fail(r, 400, "a bot name is at most 63 characters");
    if (web_bot_id(r, name, &id) != 0)
        return -1;
    arena_bot b;
    if (arena_db_bot_by_id(r->db, id, &b) != 0)
        return web_fail(r, 503, "cannot read the bot");
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "id");
    jw_int(w, id);
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
    jw_num(w, b.elo);
    jw_key(w, "games");
    jw_int(w, b.games);
    if (history_json(r, id) != 0 || fits_json(r, id) != 0 || bot_lists(r, id) != 0)
        return -1;
    arena_page_query q = { .bot = id, .before = INT64_MAX, .limit = 20, .score = -1 };
    jw_key(w, "recent");
    jw_obj(w);
    if (write_page(r, &q) != 0)
        return -1;
    jw_obj_end(w);
    jw_obj_end(w);
    return 0;
}

/* ---- live ------------------------------------------------------------------ */

/* "running": [[id, game, format, planned, stored, created_ms, taken,
 * arenas]], the unfinished tournaments and their live claims. */
static void put_running(jw *w, const arena_running_row *t, int n)
{
    jw_key(w, "running");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_arr(w);
        jw_int(w, t[i].id);
        jw_str(w, t[i].game);
        jw_str(w, t[i].format);
        const int64_t v[] = { t[i].planned, t[i].stored, t[i].created_ms, t[i].taken,
                              t[i].arenas };
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            jw_int(w, v[k]);
        jw_arr_end(w);
    }
    jw_arr_end(w);
}

/* "arenas": [[host, pid, tournament, ladder, workers, taken, listening,
 * started_ms, seen_ms]], the arenas at work. */
static void put_arenas(jw *w, const arena_work_row *a, int n)
{
    jw_key(w, "arenas");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        const arena_run_row *run = &a[i].run;
        jw_arr(w);
        jw_str(w, run->host);
        jw_int(w, run->pid);
        put_int_or_null(w, run->tournament_id != 0, run->tournament_id);
        jw_str(w, *a[i].ladder ? a[i].ladder : NULL);
        jw_int(w, run->workers);
        jw_int(w, run->taken);
        jw_str(w, *run->listening ? run->listening : NULL);
        jw_int(w, run->started_ms);
        jw_int(w, run->seen_ms);
        jw_arr_end(w);
    }
    jw_arr_end(w);
}

/* "ladders": [[name, game, matches, latest_ms, scheduled]], those playing. */
static void put_ladders_live(jw *w, const arena_ladder_live_row *l, int n)
{
    jw_key(w, "ladders");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_arr(w);
        jw_str(w, l[i].name);
        jw_str(w, l[i].game);
        jw_int(w, l[i].matches);
        jw_int(w, l[i].latest_ms);
        jw_int(w, l[i].scheduled);
        jw_arr_end(w);
    }
    jw_arr_end(w);
}

/* The decisions a record so far holds: its decision lines. */
static int64_t decisions_in(const char *record)
{
    int64_t n = 0;
    for (const char *p = record; p && (p = strstr(p, "\ndecision ")) != NULL; p++)
        n++;
    return n;
}

/* "playing": [{id, game, players, tournament, ladder, started_ms, decisions,
 * seats: [{seat, bot_id, bot}]}], the matches in play (arena_db_playing.h):
 * 0, or web_fail. */
static int put_playing(web_req *r, int64_t now)
{
    arena_playing *p = NULL;
    int n = arena_db_playing_list(r->db, now, &p);
    if (n < 0)
        return web_fail(r, 503, "cannot read the matches in play");
    jw *w = &r->out;
    jw_key(w, "playing");
    jw_arr(w);
    for (int i = 0; i < n; i++) {
        jw_obj(w);
        jw_key(w, "id");
        jw_int(w, p[i].id);
        jw_key(w, "game");
        jw_str(w, p[i].game);
        jw_key(w, "players");
        jw_int(w, p[i].seats);
        jw_key(w, "tournament");
        put_int_or_null(w, p[i].tournament_id != 0, p[i].tournament_id);
        jw_key(w, "ladder");
        put_int_or_null(w, p[i].ladder_id != 0, p[i].ladder_id);
        jw_key(w, "started_ms");
        jw_int(w, p[i].started_ms);
        jw_key(w, "decisions");
        jw_int(w, decisions_in(p[i].record));
        jw_key(w, "seats");
        jw_arr(w);
        for (int k = 0; k < p[i].seats; k++) {
            arena_bot b;
            int found = arena_db_bot_by_id(r->db, p[i].bot[k], &b) == 0;
            jw_obj(w);
            jw_key(w, "seat");
            jw_int(w, k);
            jw_key(w, "bot_id");
            jw_int(w, p[i].bot[k]);
            jw_key(w, "bot");
            jw_str(w, found ? b.label : NULL);
            jw_obj_end(w);
        }
        jw_arr_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    arena_playing_free_list(p, n);
    return 0;
}

/* "running", "arenas", "ladders" at now_ms: 0, or web_fail. */
static int live_lists(web_req *r, int64_t now)
{
    arena_running_row *t = NULL;
    arena_work_row *a = NULL;
    arena_ladder_live_row *l = NULL;
    int nt = arena_read_running(r->db, now, &t), na = -1, nl = -1;
    if (nt >= 0)
        na = arena_read_arenas(r->db, &a);
    if (na >= 0)
        nl = arena_read_ladders_live(r->db, &l);
    if (nl >= 0) {
        put_running(&r->out, t, nt);
        put_arenas(&r->out, a, na);
        put_ladders_live(&r->out, l, nl);
    }
    free(t), free(a), free(l);
    return nl >= 0 ? 0 : web_fail(r, 503, "cannot read the database");
}

int web_api_live(web_req *r)
{
    arena_pace pace;
    if (arena_read_pace(r->db, &pace) != 0)
        return web_fail(r, 503, "cannot read the matches");
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "latest_ms");
    jw_int(w, pace.latest_ms);
    jw_key(w, "per_minute");           /* over the minute before the newest match */
    jw_int(w, pace.minute);
    jw_key(w, "per_minute_10");        /* averaged over ten minutes */
    jw_num(w, (double)pace.ten_minutes / 10.0);
    int64_t now = clk_wall_ms();
    jw_key(w, "now_ms");               /* the server's clock, for arenas' seen_ms */
    jw_int(w, now);
    if (live_lists(r, now) != 0 || put_playing(r, now) != 0)
        return -1;
    arena_page_query q = { .before = INT64_MAX, .limit = 15, .score = -1 };
    jw_key(w, "recent");
    jw_obj(w);
    if (write_page(r, &q) != 0)
        return -1;
    jw_obj_end(w);
    jw_obj_end(w);
    return 0;
}

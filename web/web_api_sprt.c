/*
 * web_api_sprt.c - SPRT results (web/API.md). GET /api/gates: the verdicts
 * of the ladders' SPRT gates (arena_ladder_gate.h; stored since schema
 * 10), newest first: one ladder's (`ladder=NAME`), one bot's as the new
 * version or as the one it had to beat (`bot=NAME`), or everyone's; at
 * most 200. GET /api/sprt: `arena sprt A B` on request, over every game
 * between the two that the filter selects (arena_sprt.h).
 */
#include <stdlib.h>
#include <string.h>
#include "arena_read.h"
#include "arena_sprt.h"
#include "web_internal.h"

static void put_gate(jw *w, const arena_gate_row *g)
{
    jw_obj(w);
    jw_key(w, "id");
    jw_int(w, g->id);
    jw_key(w, "ladder");
    jw_str(w, g->ladder);
    jw_key(w, "bot_id");
    jw_int(w, g->bot_id);
    jw_key(w, "bot");
    jw_str(w, g->bot);
    jw_key(w, "opponent_id");
    jw_int(w, g->opponent_id);
    jw_key(w, "opponent");
    jw_str(w, g->opponent);
    jw_key(w, "outcome");
    jw_str(w, g->outcome);
    const struct { const char *key; double v; } reals[] = {
        { "elo0", g->elo0 }, { "elo1", g->elo1 }, { "alpha", g->alpha }, { "beta", g->beta },
        { "llr", g->llr }, { "lower", g->lower }, { "upper", g->upper },
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        jw_key(w, reals[i].key);
        jw_num(w, reals[i].v);
    }
    const struct { const char *key; int64_t v; } ints[] = {
        { "wins", g->wins }, { "draws", g->draws }, { "losses", g->losses },
        { "pairs", g->pairs }, { "decided_ms", g->decided_ms },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        jw_key(w, ints[i].key);
        jw_int(w, ints[i].v);
    }
    jw_obj_end(w);
}

int web_api_gates(web_req *r)
{
    const char *bot = web_param(r, "bot");
    int64_t ladder = 0, bot_id = 0;
    if (web_param_ladder(r, &ladder) != 0 || (bot && *bot && web_bot_id(r, bot, &bot_id) != 0))
        return -1;
    arena_gate_row *g;
    int n = arena_read_gates(r->db, ladder, bot_id, &g);
    if (n < 0)
        return web_fail(r, 503, "cannot read the gates");
    jw *w = &r->out;
    jw_obj(w);
    jw_key(w, "gates");
    jw_arr(w);
    for (int i = 0; i < n; i++)
        put_gate(w, &g[i]);
    jw_arr_end(w);
    jw_obj_end(w);
    free(g);
    return 0;
}

/* ---- a test on request ------------------------------------------------------ */

static void put_num(jw *w, const char *key, double v)
{
    jw_key(w, key);
    jw_num(w, v);
}

int web_api_sprt(web_req *r)
{
    const char *a = web_param(r, "a"), *b = web_param(r, "b");
    int64_t ida, idb;
    arena_match_filter f;
    rt_sprt_params p = ARENA_SPRT_DEFAULTS;
    if (!a || !*a || !b || !*b)
        return web_fail(r, 400, "name the two bots: a=NAME&b=NAME");
    if (web_bot_id(r, a, &ida) || web_bot_id(r, b, &idb) || web_param_filter(r, &f) ||
        web_param_f64(r, "elo0", -2000, 2000, p.elo0, &p.elo0) ||
        web_param_f64(r, "elo1", -2000, 2000, p.elo1, &p.elo1) ||
        web_param_f64(r, "alpha", 1e-6, 0.5, p.alpha, &p.alpha) ||
        web_param_f64(r, "beta", 1e-6, 0.5, p.beta, &p.beta))
        return -1;
    if (ida == idb)
        return web_fail(r, 400, "a bot against itself: name two bots");
    if (!(p.elo0 < p.elo1))
        return web_fail(r, 400, "elo0 must be below elo1");
    arena_sprt_tally t;
    char err[256];
    if (arena_sprt_tally_of(r->db, ida, idb, &f, &p, 0, &t, err, sizeof err) != 0)
        return web_fail(r, strncmp(err, "cannot read", 11) ? 400 : 503, "%s", err);
    jw *w = &r->out;
    jw_obj(w);
    const struct { const char *key; double v; } nums[] = {
        { "elo0", p.elo0 }, { "elo1", p.elo1 }, { "alpha", p.alpha }, { "beta", p.beta },
        { "llr", t.r.llr }, { "lower", t.r.lower }, { "upper", t.r.upper },
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        put_num(w, nums[i].key, nums[i].v);
    const struct { const char *key; int64_t v; } ints[] = {
        { "a_id", ida }, { "b_id", idb }, { "wins", t.w }, { "draws", t.d }, { "losses", t.l },
        { "pairs", t.pairs },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        jw_key(w, ints[i].key);
        jw_int(w, ints[i].v);
    }
    jw_key(w, "penta");               /* seed pairs by A's points: 0, 0.5, 1, 1.5, 2 */
    jw_arr(w);
    for (int k = 0; k < 5; k++)
        jw_int(w, t.penta[k]);
    jw_arr_end(w);
    jw_key(w, "verdict");
    jw_str(w, t.r.verdict == RT_SPRT_ACCEPT_H1 ? "H1" : t.r.verdict == RT_SPRT_ACCEPT_H0 ? "H0"
                                                                                      : "continue");
    jw_obj_end(w);
    return 0;
}

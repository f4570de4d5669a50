/*
 * arena_ladder_gate.c - the ladder's SPRT gate (arena_ladder_gate.h):
 * which version a new one must beat, the verdict on their games, and its
 * row for people.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "arena_ladder_gate.h"

void arena_gate_default(arena_gate_opts *o)
{
    const rt_sprt_params p = ARENA_SPRT_DEFAULTS;
    *o = (arena_gate_opts){ .on = 0, .p = p, .max_games = 2000 };
}

static int index_of(const arena_bot *list, int n, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (list[i].id == id)
            return i;
    return -1;
}

int64_t arena_gate_opponent(const arena_bot *list, int n, int i)
{
    /* n steps at most: a chain that loops (a damaged table) ends. */
    for (int step = 0, k = index_of(list, n, list[i].previous_id); k >= 0 && step < n;
         step++, k = index_of(list, n, list[k].previous_id))
        if (!list[k].removed && !strcmp(list[k].status, "active"))
            return list[k].id;
    return 0;
}

int arena_gate_judge(arena_db *db, int64_t ladder_id, const arena_gate_opts *o,
                     const arena_bot *bot, arena_gate *g, char *err, size_t size)
{
    arena_match_filter f = { .ladder_id = ladder_id };
    g->bot = bot->id;
    g->state = ARENA_GATE_TRIAL;
    if (arena_sprt_tally_of(db, bot->id, g->opponent, &f, &o->p, 1, &g->t, err, size) < 0)
        return -1;
    long games = g->t.w + g->t.d + g->t.l;
    if (g->t.r.verdict == RT_SPRT_ACCEPT_H1)
        g->state = ARENA_GATE_PASSED;
    else if (g->t.r.verdict == RT_SPRT_ACCEPT_H0)
        g->state = ARENA_GATE_FAILED;
    else if (games >= o->max_games)
        g->state = ARENA_GATE_CAPPED;
    /* Enabled by hand after the games that failed it: overruled. */
    if ((g->state == ARENA_GATE_FAILED || g->state == ARENA_GATE_CAPPED) &&
        bot->status_ms > g->t.last_ms)
        g->state = ARENA_GATE_PASSED;
    return 0;
}

int arena_gate_store(arena_db *db, int64_t ladder_id, const arena_gate_opts *o,
                     const arena_gate *g, int64_t now_ms, char *err, size_t size)
{
    assert(g->state == ARENA_GATE_PASSED || g->state == ARENA_GATE_FAILED ||
           g->state == ARENA_GATE_CAPPED);
    const arena_sprt_tally *t = &g->t;
    const char *outcome = g->state == ARENA_GATE_FAILED ? "failed"
                        : g->state == ARENA_GATE_CAPPED ? "capped"
                        : t->r.verdict == RT_SPRT_ACCEPT_H1 ? "passed" : "overruled";
    arena_gate_verdict v = {
        .ladder_id = ladder_id, .bot_id = g->bot, .opponent_id = g->opponent, .outcome = outcome,
        .elo0 = o->p.elo0, .elo1 = o->p.elo1, .alpha = o->p.alpha, .beta = o->p.beta,
        .llr = t->r.llr, .lower = t->r.lower, .upper = t->r.upper,
        .wins = t->w, .draws = t->d, .losses = t->l, .pairs = t->pairs, .decided_ms = now_ms,
    };
    return arena_db_gate_verdict_store(db, &v, err, size) < 0 ? -1 : 0;
}

void arena_gate_text(const arena_gate *g, const arena_gate_opts *o, const char *ladder,
                     char *out, size_t size)
{
    const arena_sprt_tally *t = &g->t;
    const char *who = g->opponent_label;
    long games = t->w + t->d + t->l;
    switch (g->state) {
    case ARENA_GATE_WAIT:
        snprintf(out, size, ARENA_BOT_TRIAL "its SPRT gate in ladder %s waits for %s's own", ladder,
                 who);
        break;
    case ARENA_GATE_TRIAL:
        snprintf(out, size, ARENA_BOT_TRIAL "SPRT gate against %s in ladder %s: LLR %.2f in "
                 "[%.2f, %.2f] after %ld pairs, %ld of at most %d games (w-d-l %ld-%ld-%ld)",
                 who, ladder, t->r.llr, t->r.lower, t->r.upper, t->pairs, games, o->max_games,
                 t->w, t->d, t->l);
        break;
    case ARENA_GATE_PASSED:
        if (t->r.verdict == RT_SPRT_ACCEPT_H1)
            snprintf(out, size, "passed its SPRT gate against %s in ladder %s: LLR %.2f >= %.2f "
                     "after %ld pairs (w-d-l %ld-%ld-%ld)", who, ladder, t->r.llr, t->r.upper,
                     t->pairs, t->w, t->d, t->l);
        else
            snprintf(out, size, "let in by hand after its SPRT gate against %s in ladder %s "
                     "(LLR %.2f after %ld pairs)", who, ladder, t->r.llr, t->pairs);
        break;
    case ARENA_GATE_FAILED:
        snprintf(out, size, "failed its SPRT gate against %s: LLR %.2f <= %.2f after %ld pairs "
                 "(w-d-l %ld-%ld-%ld) in ladder %s", who, t->r.llr, t->r.lower, t->pairs, t->w,
                 t->d, t->l, ladder);
        break;
    case ARENA_GATE_CAPPED:
        snprintf(out, size, "its SPRT gate against %s was inconclusive after %ld games (LLR "
                 "%.2f in [%.2f, %.2f]) in ladder %s", who, games, t->r.llr, t->r.lower,
                 t->r.upper, ladder);
        break;
    }
}

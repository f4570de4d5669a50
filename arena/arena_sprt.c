/*
 * arena_sprt.c - the SPRT over stored matches between two bots.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "arena_sprt.h"

/* The seat bot plays in m, or -1. */
static int seat_of(const arena_match *m, int64_t bot)
{
    for (int s = 0; s < m->seats; s++)
        if (m->bot[s] == bot)
            return s;
    return -1;
}

/* Whether A and B play in m on opposite teams: in a team game each of
 * them may have a partner, and the rotation of partners over a team
 * tournament gives A's and B's teams the same partners on average. */
static int opposed(const arena_match *m, int64_t a, int64_t b)
{
    int sa = seat_of(m, a), sb = seat_of(m, b);
    return sa >= 0 && sb >= 0 && m->team[sa] != m->team[sb];
}

/* A's score in match m (A's team's, where A and B are opposed). */
static double score_of(const arena_match *m, int64_t a)
{
    int s = seat_of(m, a);
    assert(s >= 0);
    return m->score[s];
}

/* Plan order: a seed pair's two games side by side, whatever order the
 * workers finished them in. A tournament's or a ladder's plan: each
 * numbers its games from 0. */
static int by_plan(const void *x, const void *y)
{
    const arena_match *a = x, *b = y;
    if (a->tournament_id != b->tournament_id)
        return a->tournament_id < b->tournament_id ? -1 : 1;
    if (a->ladder_id != b->ladder_id)
        return a->ladder_id < b->ladder_id ? -1 : 1;
    if (a->game_index != b->game_index)
        return a->game_index < b->game_index ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Whether x and y (next in plan order) are one seed pair: games 2k and
 * 2k+1 of one tournament's or ladder's plan, on one seed. */
static int one_pair(const arena_match *x, const arena_match *y)
{
    return y && (x->tournament_id || x->ladder_id) && x->tournament_id == y->tournament_id &&
           x->ladder_id == y->ladder_id && x->game_index / 2 == y->game_index / 2 &&
           x->game_index != y->game_index && x->seed == y->seed;
}

static void count(arena_sprt_tally *t, const arena_match *m, double s)
{
    t->w += s == 1.0, t->d += s > 0.0 && s < 1.0, t->l += s == 0.0;
    t->last_ms = m->finished_ms > t->last_ms ? m->finished_ms : t->last_ms;
}

/* A's games against B that f selects, in plan order. Count, or -1 with err. */
static int games_between(arena_db *db, int64_t a, int64_t b, const arena_match_filter *f,
                         arena_match **out, char *err, size_t size)
{
    arena_match_filter two = {0};
    if (f)
        two = *f;
    if (!two.seats)
        two.seats = 2;
    two.bot_id = a;
    arena_match *list;
    int n = arena_db_match_list(db, &two, &list), m = 0;
    if (n < 0) {
        snprintf(err, size, "cannot read the matches");
        return -1;
    }
    for (int k = 0; k < n; k++)         /* keep A against B only */
        if (opposed(&list[k], a, b)) {
            if (m > 0 && strcmp(list[k].game, list[0].game) != 0) {
                snprintf(err, size, "the two bots played %s and %s: choose a game",
                         list[0].game, list[k].game);
                free(list);
                return -1;
            }
            list[m++] = list[k];
        }
    qsort(list, (size_t)m, sizeof *list, by_plan);
    *out = list;
    return m;
}

int arena_sprt_tally_of(arena_db *db, int64_t a, int64_t b, const arena_match_filter *f,
                        const rt_sprt_params *p, int first_verdict, arena_sprt_tally *t,
                        char *err, size_t size)
{
    memset(t, 0, sizeof *t);
    long none[5] = { 0 };
    if (rt_sprt_pentanomial(p, none, &t->r) != RT_OK) {
        snprintf(err, size, "bad SPRT bounds: need elo0 < elo1 and 0 < alpha, beta < 1");
        return -1;
    }
    arena_match *list;
    int m = games_between(db, a, b, f, &list, err, size);
    if (m < 0)
        return -1;
    for (int k = 0; k < m; k++) {
        const arena_match *x = &list[k], *y = k + 1 < m ? &list[k + 1] : NULL;
        double s = score_of(x, a);
        count(t, x, s);
        if (!one_pair(x, y))
            continue;
        double u = score_of(y, a);
        count(t, y, u);
        t->penta[(int)((s + u) * 2 + 0.5)]++;
        t->pairs++;
        k++;
        if (first_verdict && rt_sprt_pentanomial(p, t->penta, &t->r) == RT_OK &&
            t->r.verdict != RT_SPRT_CONTINUE)
            break;
    }
    free(list);
    if (t->pairs)
        rt_sprt_pentanomial(p, t->penta, &t->r);
    else if (t->w + t->d + t->l)
        rt_sprt_trinomial(p, t->w, t->d, t->l, &t->r);
    return 0;
}

static const char *verdict_text(const arena_sprt_tally *t)
{
    return t->r.verdict == RT_SPRT_ACCEPT_H1 ? "H1 accepted: the first bot is stronger"
         : t->r.verdict == RT_SPRT_ACCEPT_H0 ? "H0 accepted: not stronger by that much"
                                             : "continue: play more games";
}

void arena_sprt_line(const arena_sprt_tally *t, FILE *out)
{
    fprintf(out, "sprt: pairs %ld  games %ld  w-d-l %ld-%ld-%ld  LLR %.3f  bounds [%.3f, %.3f]  "
            "%s\n", t->pairs, t->w + t->d + t->l, t->w, t->d, t->l, t->r.llr, t->r.lower,
            t->r.upper, t->r.verdict == RT_SPRT_ACCEPT_H1 ? "H1" :
            t->r.verdict == RT_SPRT_ACCEPT_H0 ? "H0" : "continue");
}

int arena_sprt(arena_db *db, int64_t a, int64_t b, const arena_match_filter *f,
               const rt_sprt_params *p, int first_verdict, FILE *out, char *err, size_t size)
{
    arena_sprt_tally t;
    if (arena_sprt_tally_of(db, a, b, f, p, first_verdict, &t, err, size) < 0)
        return -2;
    if (t.w + t.d + t.l == 0) {
        snprintf(err, size, "the two bots have not played each other yet");
        return -2;
    }
    long w = t.w, d = t.d, l = t.l;
    fprintf(out, "H0: elo < %g   H1: elo > %g   alpha %g   beta %g\n", p->elo0, p->elo1, p->alpha,
            p->beta);
    fprintf(out, "games %ld   w-d-l %ld-%ld-%ld   score %.1f%%   Elo %+.1f\n", w + d + l, w, d,
            l, 100.0 * (w + 0.5 * d) / (w + d + l),
            rt_elo_from_score((w + 0.5 * d) / (w + d + l)));
    if (t.pairs)
        fprintf(out, "pairs %ld   pentanomial 0-0.5-1-1.5-2: %ld %ld %ld %ld %ld\n", t.pairs,
                t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]);
    else
        fprintf(out, "no complete seed pairs: single games (trinomial)\n");
    fprintf(out, "LLR %.3f   bounds [%.3f, %.3f]   %s\n", t.r.llr, t.r.lower, t.r.upper,
            verdict_text(&t));
    return t.r.verdict;
}

/*
 * arena_sprt.c - the SPRT over stored matches between two bots.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "arena_sprt.h"

/* A's score in match m (which A and B both play). */
static double score_of(const arena_match *m, int64_t a)
{
    return m->bot[0] == a ? m->score[0] : m->score[1];
}

/* Plan order: a seed pair's two games side by side, whatever order the
 * workers finished them in. */
static int by_plan(const void *x, const void *y)
{
    const arena_match *a = x, *b = y;
    if (a->tournament_id != b->tournament_id)
        return a->tournament_id < b->tournament_id ? -1 : 1;
    if (a->game_index != b->game_index)
        return a->game_index < b->game_index ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

int arena_sprt(arena_db *db, int64_t a, int64_t b, const arena_match_filter *f,
               const rt_sprt_params *p, FILE *out, char *err, size_t size)
{
    arena_match_filter two = {0};
    if (f)
        two = *f;
    two.seats = 2;
    arena_match *list;
    int n = arena_db_match_list(db, &two, &list), m = 0;
    if (n < 0) {
        snprintf(err, size, "cannot read the matches");
        return -2;
    }
    for (int k = 0; k < n; k++)         /* keep A against B only */
        if ((list[k].bot[0] == a && list[k].bot[1] == b) ||
            (list[k].bot[0] == b && list[k].bot[1] == a)) {
            if (m > 0 && strcmp(list[k].game, list[0].game) != 0) {
                snprintf(err, size, "the two bots played %s and %s: choose a game",
                         list[0].game, list[k].game);
                free(list);
                return -2;
            }
            list[m++] = list[k];
        }
    qsort(list, (size_t)m, sizeof *list, by_plan);
    long w = 0, d = 0, l = 0, penta[5] = { 0 }, pairs = 0;
    for (int k = 0; k < m; k++) {
        double s = score_of(&list[k], a);
        w += s == 1.0, d += s > 0.0 && s < 1.0, l += s == 0.0;
        /* A seed pair is games 2k and 2k+1 of one tournament's plan. */
        const arena_match *x = &list[k], *y = k + 1 < m ? &list[k + 1] : NULL;
        if (y && x->tournament_id && x->tournament_id == y->tournament_id &&
            x->game_index / 2 == y->game_index / 2 && x->game_index != y->game_index &&
            x->seed == y->seed) {
            double t = score_of(y, a);
            w += t == 1.0, d += t > 0.0 && t < 1.0, l += t == 0.0;
            penta[(int)((s + t) * 2 + 0.5)]++;
            pairs++;
            k++;
        }
    }
    free(list);
    if (w + d + l == 0) {
        snprintf(err, size, "the two bots have not played each other yet");
        return -2;
    }
    rt_sprt_result r;
    int rc = pairs ? rt_sprt_pentanomial(p, penta, &r) : rt_sprt_trinomial(p, w, d, l, &r);
    if (rc != RT_OK) {
        snprintf(err, size, "bad SPRT bounds: need elo0 < elo1 and 0 < alpha, beta < 1");
        return -2;
    }
    fprintf(out, "H0: elo < %g   H1: elo > %g   alpha %g   beta %g\n", p->elo0, p->elo1, p->alpha,
            p->beta);
    fprintf(out, "games %ld   w-d-l %ld-%ld-%ld   score %.1f%%   Elo %+.1f\n", w + d + l, w, d,
            l, 100.0 * (w + 0.5 * d) / (w + d + l),
            rt_elo_from_score((w + 0.5 * d) / (w + d + l)));
    if (pairs)
        fprintf(out, "pairs %ld   pentanomial 0-0.5-1-1.5-2: %ld %ld %ld %ld %ld\n", pairs,
                penta[0], penta[1], penta[2], penta[3], penta[4]);
    else
        fprintf(out, "no complete seed pairs: single games (trinomial)\n");
    fprintf(out, "LLR %.3f   bounds [%.3f, %.3f]   %s\n", r.llr, r.lower, r.upper,
            r.verdict == RT_SPRT_ACCEPT_H1 ? "H1 accepted: the first bot is stronger"
            : r.verdict == RT_SPRT_ACCEPT_H0 ? "H0 accepted: not stronger by that much"
                                             : "continue: play more games");
    return r.verdict;
}

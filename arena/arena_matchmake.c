/*
 * arena_matchmake.c - the ladder's pairing rules (arena_matchmake.h says
 * what they are and why). Pure: the same arguments give the same pairing.
 */
#include "arena_matchmake.h"
#include "pcg.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

void arena_mm_default(arena_mm_params *p)
{
    *p = (arena_mm_params){ .seats = 2, .per_bot = 2, .provisional = 20, .near = 100,
                            .wide = 0.1 };
}

static int has_room(const arena_mm_bot *b, const arena_mm_params *p)
{
    return b->busy + 2 <= p->per_bot;
}

static double uniform(pcg32 *g)
{
    return pcg32_next(g) / 4294967296.0;
}

/* Rule 2: the free bot with the fewest games, then the least busy; ties
 * drawn uniformly (reservoir sampling over the tied). -1 if none. */
static int first_bot(const arena_mm_bot *bots, int n, const arena_mm_params *p, pcg32 *g)
{
    int best = -1, ties = 0;
    for (int i = 0; i < n; i++) {
        if (!has_room(&bots[i], p))
            continue;
        int cmp = best < 0 ? -1
                : bots[i].games != bots[best].games ? (bots[i].games < bots[best].games ? -1 : 1)
                : bots[i].busy != bots[best].busy ? (bots[i].busy < bots[best].busy ? -1 : 1)
                : 0;
        if (cmp < 0) {
            best = i;
            ties = 1;
        } else if (cmp == 0 && pcg32_below(g, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    return best;
}

/* Rule 3's weight of bots[i] as an opponent of bots[a] (rule 4: 1 for
 * all), or 0 when it cannot play: no room, or already in the pairing. */
static double weight(const arena_mm_bot *bots, const arena_mm_params *p, int a, int i,
                     const int *taken, int ntaken, int wide)
{
    if (!has_room(&bots[i], p))
        return 0;
    for (int k = 0; k < ntaken; k++)
        if (taken[k] == i)
            return 0;
    if (wide)
        return 1;
    double s = p->near * (bots[a].games < p->provisional ? 3.0 : 1.0);
    double d = (bots[i].rating - bots[a].rating) / s;
    return exp(-0.5 * d * d) + 1e-300;       /* never zero: a far bot can still be drawn */
}

/* Rules 3 and 4: one opponent for bots[a], not among taken[0..ntaken-1];
 * two passes over the weights, so nothing is allocated. -1 if none. */
static int opponent(const arena_mm_bot *bots, int n, const arena_mm_params *p, int a,
                    const int *taken, int ntaken, pcg32 *g)
{
    int wide = uniform(g) < p->wide;
    double total = 0;
    for (int i = 0; i < n; i++)
        total += weight(bots, p, a, i, taken, ntaken, wide);
    if (total <= 0)
        return -1;
    double x = uniform(g) * total;
    int last = -1;
    for (int i = 0; i < n; i++) {
        double w = weight(bots, p, a, i, taken, ntaken, wide);
        if (w <= 0)
            continue;
        last = i;
        if ((x -= w) < 0)
            return i;
    }
    return last;          /* rounding left x a hair above zero */
}

int arena_mm_pick(const arena_mm_bot *bots, int n, const arena_mm_params *p, uint64_t seed,
                  int64_t pair, int seat[4])
{
    assert(p->seats == 2 || p->seats == 4);
    assert(p->per_bot >= 2);
    pcg32 g;
    pcg32_seed(&g, seed, (uint64_t)pair);
    int chosen[4], k = 0;
    if ((chosen[k] = first_bot(bots, n, p, &g)) < 0)
        return 0;
    for (k = 1; k < p->seats; k++)
        if ((chosen[k] = opponent(bots, n, p, chosen[0], chosen, k, &g)) < 0)
            return 0;
    if (p->seats == 2) {
        seat[0] = chosen[0];
        seat[1] = chosen[1];
        return 1;
    }
    /* Rule 5: partner of the first bot by the pair number's split. */
    int split = (int)(pair % 3), partner = 1 + split, o[2] = { 0 }, m = 0;
    for (int i = 1; i < 4; i++)
        if (i != partner)
            o[m++] = chosen[i];
    seat[0] = chosen[0];
    seat[1] = o[0];
    seat[2] = chosen[partner];
    seat[3] = o[1];
    return 1;
}

void arena_mm_swap(int seats, const int in[4], int out[4])
{
    if (seats == 2) {
        out[0] = in[1];
        out[1] = in[0];
    } else {
        out[0] = in[1];
        out[1] = in[0];
        out[2] = in[3];
        out[3] = in[2];
    }
}

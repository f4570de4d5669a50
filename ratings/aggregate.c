/*
 * aggregate.c - folds a list of single games into per-pair W/D/L counts.
 *
 * The BT fit works on pairs, so its cost depends on how many distinct
 * pairs met rather than how many games were played: a million games among
 * a thousand bots collapse to a few hundred thousand rows. Sorting the
 * games by (low index, high index) with two stable counting-sort passes
 * keeps this linear and makes the output independent of game order.
 */
#include "ratings.h"

#include <assert.h>
#include <stdint.h>

size_t rt_aggregate_workspace_size(int n_players, size_t n_games)
{
    if (n_players < 0)
        return 0;
    /* bucket counts, then two index permutations */
    return ((size_t)n_players + 1) * sizeof(size_t) +
           2 * n_games * sizeof(size_t);
}

static int game_key(const rt_game *g, int by_high)
{
    int lo = g->a < g->b ? g->a : g->b;
    int hi = g->a < g->b ? g->b : g->a;
    return by_high ? hi : lo;
}

/* One stable counting-sort pass of `in` (game indices) by key(game). */
static void counting_pass(const rt_game *games, size_t n_games, int n_players,
                          int by_high, const size_t *in, size_t *out,
                          size_t *count)
{
    for (int p = 0; p <= n_players; p++)
        count[p] = 0;
    for (size_t g = 0; g < n_games; g++) {
        count[game_key(&games[in[g]], by_high) + 1]++;
    }
    for (int p = 0; p < n_players; p++)
        count[p + 1] += count[p];
    for (size_t g = 0; g < n_games; g++) {
        out[count[game_key(&games[in[g]], by_high)]++] = in[g];
    }
}

int rt_aggregate_games(int n_players, const rt_game *games, size_t n_games,
                       void *work, size_t work_size,
                       rt_pair *out, size_t *n_out)
{
    if (n_players < 0 || !n_out || (n_games > 0 && (!games || !out)))
        return RT_ERR_ARG;
    for (size_t g = 0; g < n_games; g++) {
        const rt_game *gm = &games[g];
        if (gm->a < 0 || gm->a >= n_players || gm->b < 0 ||
            gm->b >= n_players || gm->a == gm->b)
            return RT_ERR_ARG;
        if (gm->score_a != 0.0 && gm->score_a != 0.5 && gm->score_a != 1.0)
            return RT_ERR_ARG;
    }
    if (work_size < rt_aggregate_workspace_size(n_players, n_games) ||
        (!work && n_games > 0))
        return RT_ERR_WORKSPACE;
    *n_out = 0;
    if (n_games == 0)
        return RT_OK;
    assert((uintptr_t)work % _Alignof(size_t) == 0);

    size_t *count = work;
    size_t *perm_a = count + (size_t)n_players + 1;
    size_t *perm_b = perm_a + n_games;

    /* LSD radix: sort by the high index, then stably by the low one. */
    for (size_t g = 0; g < n_games; g++)
        perm_b[g] = g;
    counting_pass(games, n_games, n_players, 1, perm_b, perm_a, count);
    counting_pass(games, n_games, n_players, 0, perm_a, perm_b, count);

    size_t n = 0;
    for (size_t g = 0; g < n_games; g++) {
        const rt_game *gm = &games[perm_b[g]];
        int lo = gm->a < gm->b ? gm->a : gm->b;
        int hi = gm->a < gm->b ? gm->b : gm->a;
        double s_lo = gm->a == lo ? gm->score_a : 1.0 - gm->score_a;
        if (n == 0 || out[n - 1].i != lo || out[n - 1].j != hi) {
            out[n].i = lo;
            out[n].j = hi;
            out[n].wins_i = out[n].draws = out[n].wins_j = 0;
            n++;
        }
        rt_pair *p = &out[n - 1];
        if (s_lo == 1.0)
            p->wins_i++;
        else if (s_lo == 0.0)
            p->wins_j++;
        else
            p->draws++;
    }
    assert(n <= n_games);
    *n_out = n;
    return RT_OK;
}

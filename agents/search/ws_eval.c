/*
 * ws_eval.c - the heuristic of ws_eval.h. It counts control markers, the
 * units on the board and their first coins, how close each unit of the
 * side stands to a location the side does not hold, the coins still
 * cycling through its bag (each pays for a future action), and the
 * initiative.
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include "ws_eval.h"
#include "wc_rng.h"

/* within[d][h]: the hexes at most d steps from h, tabled on first use
 * (no two hexes of the 4-player board are more than 10 apart). */
#define FARTHEST 10
static wc_mask within[FARTHEST + 1][WC_NHEX];

static void table_distances(void)
{
    static int done;
    if (done)
        return;
    for (int a = 0; a < WC_NHEX; a++)
        for (int b = 0; b < WC_NHEX; b++) {
            int d = wc_hex_distance(a, b);
            assert(d <= FARTHEST);
            for (int k = d; k <= FARTHEST; k++)
                within[k][a] |= (wc_mask)1 << b;
        }
    done = 1;
}

/* Steps from `hex` to the nearest of `targets`; 99 if there are none. */
static int nearest(int hex, wc_mask targets)
{
    if (!targets)
        return 99;
    int d = 0;
    while (!(within[d][hex] & targets))
        d++;
    return d;
}

/* A unit is worth most for its first two coins: beyond that a coin does
 * more cycling through the bag, where it pays for maneuvers. */
static int stack_value(int coins)
{
    return 15 + 6 * (coins < 2 ? coins : 2) + (coins > 2 ? coins - 2 : 0);
}

/* The coins in a seat's bag, hand and discards: 4 zones of WC_NCOINS
 * counts, summed eight at a time (a seat has at most 21 coins, so no byte
 * of the running sum, nor the total, reaches 256). */
static int cycling_coins(const uint8_t *zones)
{
    static_assert(4 * WC_NCOINS == 68, "eight words and a half");
    uint64_t sum = 0, word;
    uint32_t tail;
    for (int i = 0; i < 8; i++) {
        memcpy(&word, zones + 8 * i, sizeof word);
        sum += word;
    }
    memcpy(&tail, zones + 64, sizeof tail);
    sum += tail;
    return (int)((sum * 0x0101010101010101ULL) >> 56);
}

/* Every term is a whole number of points, so the sum is kept in an int. */
double ws_eval(const wc_state *s, int side)
{
    table_distances();
    if (wc_is_over(s))
        return s->winner == WC_NONE ? 0 : s->winner == side ? 1e6 : -1e6;
    int v = 100 * (wc_popcount(s->control[side]) - wc_popcount(s->control[side ^ 1]));
    wc_mask open = s->locations & ~s->control[side];
    for (wc_mask m = s->side_units[side]; m; m &= m - 1) {
        int h = __builtin_ctzll(m);
        v += stack_value(s->hex_coins[h]) - 4 * nearest(h, open);
    }
    for (wc_mask m = s->side_units[side ^ 1]; m; m &= m - 1)
        v -= stack_value(s->hex_coins[__builtin_ctzll(m)]);
    static_assert(WC_BAG == 0 && WC_HAND == 1 && WC_DISCARD_UP == 2 && WC_DISCARD_DOWN == 3,
                  "the cycling zones come first");
    for (int seat = 0; seat < s->nseats; seat++) {
        if (wc_side_of(s, seat) != side)
            continue;
        v += 4 * cycling_coins(s->coins[seat][0]);
    }
    if (wc_side_of(s, s->initiative) == side)
        v += 3;
    return v;
}

double ws_eval_win(const wc_state *s, double scale)
{
    if (wc_is_over(s))
        return s->winner == WC_NONE ? 0.5 : s->winner == 0 ? 1.0 : 0.0;
    /* Each side's view counts its own reserves and reach only: take both. */
    double v = 0.5 * (ws_eval(s, 0) - ws_eval(s, 1));
    return 1.0 / (1.0 + exp(-v / scale));
}

int ws_greedy_choose(const wc_state *s, const wc_action *acts, int n, wc_rng *rng)
{
    int side = wc_side_of(s, wc_to_move(s)), best = 0, ties = 0;
    double best_value = -1e300;
    for (int i = 0; i < n; i++) {
        wc_state next = *s;
        wc_apply(&next, &acts[i]);
        double v = ws_eval(&next, side);
        if (v > best_value) {
            best_value = v;
            best = i;
            ties = 1;
        } else if (v == best_value && wc_rng_below(rng, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    return best;
}

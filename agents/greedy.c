/*
 * greedy.c - a one-ply bot: it tries every legal action on a state rebuilt
 * from its observation (wc_determinize) and keeps the one whose result
 * scores best. The score counts markers, units and their first coins on
 * the board, how close its units stand to locations it does not hold, and
 * the coins still cycling through its bag. Ties go to a seeded coin flip, so the bot is deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include "kv.h"
#include "wc_bot.h"
#include "wc_rng.h"

static int nearest_open_location(const wc_state *s, int hex, int side)
{
    int best = 99;
    for (wc_mask m = s->locations & ~s->control[side]; m; m &= m - 1) {
        int d = wc_hex_distance(hex, __builtin_ctzll(m));
        best = d < best ? d : best;
    }
    return best;
}

/* A unit is worth most for its first two coins: beyond that a coin does
 * more cycling through the bag, where it pays for maneuvers. */
static double stack_value(int coins)
{
    return 15.0 + 6.0 * (coins < 2 ? coins : 2) + 1.0 * (coins > 2 ? coins - 2 : 0);
}

static double evaluate(const wc_state *s, int me)
{
    int side = wc_side_of(s, me);
    if (wc_is_over(s))
        return s->winner == WC_NONE ? 0 : s->winner == side ? 1e6 : -1e6;
    double v = 100.0 * (wc_popcount(s->control[side]) - wc_popcount(s->control[side ^ 1]));
    for (int h = 0; h < WC_NHEX; h++) {
        if (s->hex_unit[h] == WC_NONE)
            continue;
        int mine = wc_side_of(s, s->unit_owner[s->hex_unit[h]]) == side;
        double unit = stack_value(s->hex_coins[h]);
        if (mine)
            unit -= 4.0 * nearest_open_location(s, h, side);
        v += mine ? unit : -unit;
    }
    for (int seat = 0; seat < s->nseats; seat++) {
        if (wc_side_of(s, seat) != side)
            continue;
        for (int c = 0; c < WC_NCOINS; c++)
            v += 4.0 * (s->coins[seat][WC_BAG][c] + s->coins[seat][WC_HAND][c] +
                        s->coins[seat][WC_DISCARD_UP][c] + s->coins[seat][WC_DISCARD_DOWN][c]);
    }
    if (wc_side_of(s, s->initiative) == side)
        v += 3.0;
    return v;
}

int main(void)
{
    const char *text = getenv("ARENA_BOT_SEED");
    uint64_t seed = 1;
    if (text && kv_u64(text, &seed) < 0) {
        fprintf(stderr, "greedy: ARENA_BOT_SEED must be a whole number, not '%s'\n", text);
        return 2;
    }
    bot_conn *bot = bot_connect("greedy", "1.0");
    if (!bot)
        return 1;
    wc_rng rng;
    wc_rng_seed(&rng, seed, 13);
    static wc_request req;
    while (wc_bot_next(bot, &req) > 0) {
        wc_state base, next;
        wc_determinize(&req.obs, wc_rng_next(&rng), &base);
        int best = 0, ties = 0;
        double best_value = -1e300;
        for (int i = 0; i < req.nactions; i++) {
            if (!wc_is_legal(&base, &req.actions[i]))
                continue;
            next = base;
            wc_apply(&next, &req.actions[i]);
            double v = evaluate(&next, req.obs.seat);
            if (v > best_value) {
                best_value = v;
                best = i;
                ties = 1;
            } else if (v == best_value && wc_rng_below(&rng, (uint32_t)++ties) == 0) {
                best = i;
            }
        }
        wc_bot_answer(bot, &req, best);
    }
    return bot_close(bot);
}

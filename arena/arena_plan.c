/*
 * arena_plan.c - tournament plans: pairings, seed pairs, order.
 */
#include <string.h>
#include "arena_plan.h"

int arena_format_parse(const char *name)
{
    if (!strcmp(name, "round-robin"))
        return ARENA_ROUND_ROBIN;
    if (!strcmp(name, "gauntlet"))
        return ARENA_GAUNTLET;
    return -1;
}

static int pairings(int format, int nbots)
{
    return format == ARENA_GAUNTLET ? nbots - 1 : nbots * (nbots - 1) / 2;
}

int arena_plan_size(int format, int nbots, int games, const char **why)
{
    if (format != ARENA_ROUND_ROBIN && format != ARENA_GAUNTLET) {
        *why = "format must be round-robin or gauntlet";
        return -1;
    }
    if (nbots < 2) {
        *why = "a tournament needs at least 2 bots";
        return -1;
    }
    if (games < 2 || games % 2 || games > 1000000) {
        *why = "--games must be a positive even number: games come in seed pairs, "
               "each seed played with the seats both ways";
        return -1;
    }
    long total = (long)pairings(format, nbots) * games;
    if (total > 10000000) {
        *why = "that plan has more than 10 million matches";
        return -1;
    }
    return (int)total;
}

/* SplitMix64: consecutive inputs give unrelated outputs. */
uint64_t arena_pair_seed(uint64_t seed, int pair)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(pair + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int arena_plan(int format, int nbots, int games, uint64_t seed, arena_game *out)
{
    int n = 0;
    for (int pair = 0; pair < games / 2; pair++) {
        uint64_t s = arena_pair_seed(seed, pair);
        for (int a = 0; a < nbots; a++)
            for (int b = a + 1; b < nbots; b++) {
                if (format == ARENA_GAUNTLET && a != 0)
                    continue;
                out[n] = (arena_game){ n, s, { a, b } };
                n++;
                out[n] = (arena_game){ n, s, { b, a } };
                n++;
            }
    }
    return n;
}

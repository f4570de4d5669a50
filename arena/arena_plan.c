/*
 * arena_plan.c - tournament plans: pairings, seed pairs, order.
 */
#include <string.h>
#include "arena_plan.h"

static const char *const format_names[] = { "round-robin", "gauntlet", "teams" };

int arena_format_parse(const char *name)
{
    for (int f = 0; f < 3; f++)
        if (!strcmp(name, format_names[f]))
            return f;
    return -1;
}

const char *arena_format_name(int format)
{
    return format >= 0 && format < 3 ? format_names[format] : "?";
}

static long pairings(int format, int nbots)
{
    if (format == ARENA_TEAMS)       /* 4-subsets, 3 splits each */
        return (long)nbots * (nbots - 1) * (nbots - 2) * (nbots - 3) / 24 * 3;
    return format == ARENA_GAUNTLET ? nbots - 1 : (long)nbots * (nbots - 1) / 2;
}

int arena_plan_size(int format, int nbots, int games, const char **why)
{
    if (format < 0 || format > ARENA_TEAMS) {
        *why = "format must be round-robin, gauntlet or teams";
        return -1;
    }
    if (nbots < 2) {
        *why = "a tournament needs at least 2 bots";
        return -1;
    }
    if (format == ARENA_TEAMS && nbots < 4) {
        *why = "a team tournament needs at least 4 bots: two teams of two";
        return -1;
    }
    if (games < 2 || games % 2 || games > 1000000) {
        *why = "--games must be a positive even number: games come in seed pairs, "
               "each seed played with the seats both ways";
        return -1;
    }
    long total = pairings(format, nbots) * games;
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

/* One seed pair of a team split: {a, b} against {c, d}, then sides swapped. */
static int team_pair(arena_game *out, int n, uint64_t seed, int a, int b, int c, int d)
{
    out[n] = (arena_game){ n, seed, 4, { a, c, b, d } };
    n++;
    out[n] = (arena_game){ n, seed, 4, { c, a, d, b } };
    return n + 1;
}

int arena_plan(int format, int nbots, int games, uint64_t seed, arena_game *out)
{
    int n = 0;
    for (int pair = 0; pair < games / 2; pair++) {
        uint64_t s = arena_pair_seed(seed, pair);
        if (format == ARENA_TEAMS) {
            for (int a = 0; a < nbots; a++)
                for (int b = a + 1; b < nbots; b++)
                    for (int c = b + 1; c < nbots; c++)
                        for (int d = c + 1; d < nbots; d++) {
                            n = team_pair(out, n, s, a, b, c, d);
                            n = team_pair(out, n, s, a, c, b, d);
                            n = team_pair(out, n, s, a, d, b, c);
                        }
            continue;
        }
        for (int a = 0; a < nbots; a++)
            for (int b = a + 1; b < nbots; b++) {
                if (format == ARENA_GAUNTLET && a != 0)
                    continue;
                out[n] = (arena_game){ n, s, 2, { a, b, 0, 0 } };
                n++;
                out[n] = (arena_game){ n, s, 2, { b, a, 0, 0 } };
                n++;
            }
    }
    return n;
}

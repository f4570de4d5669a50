/*
 * arena_plan.c - tournament plans: pairings, seed pairs, order.
 */
#include <string.h>
#include "arena_plan.h"

static const char *const format_names[] = { "round-robin", "gauntlet", "teams",
                                            "free-for-all" };
#define NFORMATS 4

int arena_format_parse(const char *name)
{
    for (int f = 0; f < NFORMATS; f++)
        if (!strcmp(name, format_names[f]))
            return f;
    return -1;
}

const char *arena_format_name(int format)
{
    return format >= 0 && format < NFORMATS ? format_names[format] : "?";
}

/* n choose k, for k <= 4. */
static long choose(long n, int k)
{
    long c = 1;
    for (int i = 0; i < k; i++)
        c = c * (n - i) / (i + 1);
    return n < k ? 0 : c;
}

static long pairings(int format, int seats, int nbots)
{
    if (format == ARENA_FREE_FOR_ALL)
        return choose(nbots, seats);
    if (format == ARENA_TEAMS)       /* 4-subsets, 3 splits each */
        return (long)nbots * (nbots - 1) * (nbots - 2) * (nbots - 3) / 24 * 3;
    return format == ARENA_GAUNTLET ? nbots - 1 : (long)nbots * (nbots - 1) / 2;
}

int arena_plan_size(int format, int seats, int nbots, int games, const char **why)
{
    if (format < 0 || format >= NFORMATS) {
        *why = "format must be round-robin, gauntlet, teams or free-for-all";
        return -1;
    }
    if (format == ARENA_FREE_FOR_ALL && (seats < 2 || seats > 4)) {
        *why = "free-for-all plans games of 2 to 4 seats";
        return -1;
    }
    if (format == ARENA_FREE_FOR_ALL && nbots < seats) {
        *why = "a free-for-all tournament needs at least as many bots as seats";
        return -1;
    }
    if (format == ARENA_FREE_FOR_ALL && (games < seats || games % seats || games > 1000000)) {
        *why = "--games must be a multiple of the seats in free-for-all: each seed is "
               "played once per rotation of the seats";
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
    if (format != ARENA_FREE_FOR_ALL && (games < 2 || games % 2 || games > 1000000)) {
        *why = "--games must be a positive even number: games come in seed pairs, "
               "each seed played with the seats both ways";
        return -1;
    }
    long total = pairings(format, seats, nbots) * games;
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

/* One seed of a group of k bots, once per rotation of its seats. */
static int rotations(arena_game *out, int n, uint64_t seed, int k, const int *group)
{
    for (int r = 0; r < k; r++) {
        out[n] = (arena_game){ n, seed, k, { 0, 0, 0, 0 } };
        for (int i = 0; i < k; i++)
            out[n].seat[i] = group[(i + r) % k];
        n++;
    }
    return n;
}

/* Every k-subset of 0..nbots-1 in lexicographic order, one seed each. */
static int free_for_all(arena_game *out, int n, uint64_t seed, int k, int nbots)
{
    int group[4];
    for (int i = 0; i < k; i++)
        group[i] = i;
    for (;;) {
        n = rotations(out, n, seed, k, group);
        int i = k - 1;
        while (i >= 0 && group[i] == nbots - k + i)
            i--;
        if (i < 0)
            return n;
        group[i]++;
        for (int j = i + 1; j < k; j++)
            group[j] = group[j - 1] + 1;
    }
}

int arena_plan(int format, int seats, int nbots, int games, uint64_t seed, arena_game *out)
{
    int n = 0;
    if (format == ARENA_FREE_FOR_ALL) {
        for (int unit = 0; unit < games / seats; unit++)
            n = free_for_all(out, n, arena_pair_seed(seed, unit), seats, nbots);
        return n;
    }
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

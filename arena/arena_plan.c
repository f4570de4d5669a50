/*
 * arena_plan.c - tournament plans: pairings, seed pairs, order; any game of a
 * plan computed from its index.
 */
#include <assert.h>
#include <string.h>
#include "arena_plan.h"

static const char *const format_names[] = { "round-robin", "gauntlet", "teams",
                                            "free-for-all", "swiss", "knockout" };
#define NFORMATS 6
#define NPLANS 4    /* formats planned here; the others are events */

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
    if (format < 0 || format >= NPLANS) {
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
    if (format == ARENA_FREE_FOR_ALL &&
        (games < seats || games % seats || games > ARENA_MAX_GAMES)) {
        *why = "--games must be a multiple of the seats in free-for-all, at most 1000000: "
               "each seed is played once per rotation of the seats";
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
    if (format != ARENA_FREE_FOR_ALL && (games < 2 || games % 2 || games > ARENA_MAX_GAMES)) {
        *why = "--games must be an even number from 2 to 1000000: games come in seed pairs, "
               "each seed played with the seats both ways";
        return -1;
    }
    if (pairings(format, seats, nbots) * games > ARENA_MAX_MATCHES) {
        *why = "that plan has more than 100 million matches (bots' pairings times --games)";
        return -1;
    }
    return (int)(pairings(format, seats, nbots) * games);
}

/* SplitMix64: consecutive inputs give unrelated outputs. */
uint64_t arena_pair_seed(uint64_t seed, int pair)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(pair + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The rank-th k-subset of 0..n-1 in lexicographic order, into group. */
static void unrank(long rank, int n, int k, int *group)
{
    int x = 0;
    for (int i = 0; i < k; i++, x++) {
        for (long below = choose(n - x - 1, k - i - 1); rank >= below;
             below = choose(n - x - 1, k - i - 1)) {
            rank -= below;
            x++;
        }
        group[i] = x;
    }
}

void arena_plan_game(int format, int seats, int nbots, uint64_t seed, int index,
                     arena_game *out)
{
    assert(index >= 0);
    int k = format == ARENA_FREE_FOR_ALL ? seats : 2;  /* games per seed of a pairing */
    long per_seed = pairings(format, seats, nbots) * k;
    assert(per_seed > 0);               /* a plan of no games has no game `index` */
    long unit = index / per_seed, within = index % per_seed, pairing = within / k;
    int turn = (int)(within % k), g[4];
    *out = (arena_game){ index, arena_pair_seed(seed, (int)unit), 2, { 0, 0, 0, 0 } };
    if (format == ARENA_FREE_FOR_ALL) {
        /* one seed of a group of k bots, once per rotation of its seats */
        unrank(pairing, nbots, k, g);
        out->seats = k;
        for (int i = 0; i < k; i++)
            out->seat[i] = g[(i + turn) % k];
    } else if (format == ARENA_TEAMS) {
        /* 4 bots a < b < c < d, split {a, x} against the other two */
        unrank(pairing / 3, nbots, 4, g);
        int x = 1 + (int)(pairing % 3), t0[2] = { g[0], g[x] }, t1[2], n1 = 0;
        for (int i = 1; i < 4; i++)
            if (i != x)
                t1[n1++] = g[i];
        const int *first = turn ? t1 : t0, *second = turn ? t0 : t1;
        out->seats = 4;
        out->seat[0] = first[0];
        out->seat[1] = second[0];
        out->seat[2] = first[1];
        out->seat[3] = second[1];
    } else {
        if (format == ARENA_GAUNTLET) {
            g[0] = 0;
            g[1] = (int)pairing + 1;
        } else {
            unrank(pairing, nbots, 2, g);
        }
        out->seat[0] = g[turn];
        out->seat[1] = g[1 - turn];
    }
}

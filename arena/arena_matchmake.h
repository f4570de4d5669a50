/*
 * arena_matchmake.h - who a ladder pairs next: pure, no I/O, reproducible.
 *
 * The ladder asks for one seed pair at a time (two matches on one seed,
 * seats swapped, so a deal favours nobody). The rules, and why:
 *
 * 1. Only bots with room may play: a pair puts a bot in two matches, and
 *    a bot is never in more matches at once than `per_bot` (its CPU share).
 *    No bot plays itself: the seats of a pairing are distinct bots.
 * 2. The first seat goes to the free bot with the fewest games (then the
 *    least busy; then a draw). A new bot is therefore paired first until it
 *    has caught up, and gets a rating quickly; an established ladder stays
 *    level in games, so every rating is as certain as the others.
 * 3. Its opponents are drawn near it in rating: a weight exp(-d^2 / 2s^2)
 *    for a rating gap d. Near games say the most about who is stronger
 *    (a 50% game carries the most information). While the first bot is
 *    provisional, s is three times wider: its rating is still a guess, and
 *    games across the field place it fastest.
 * 4. With probability `wide`, an opponent comes from the whole field
 *    instead: ratings never settle into islands that never meet, and an
 *    underrated bot can still meet the top.
 * 5. Four seats: the first bot and three drawn near it; the split into two
 *    teams rotates with the pair number over its three splits ({ab|cd},
 *    {ac|bd}, {ad|bc}), so partners rotate; a team sits in seats 0 and 2.
 * 6. Every draw comes from PCG32 seeded by (ladder seed, pair number), so
 *    the whole schedule is a function of the seed and of the state the
 *    ladder passes in (games, ratings, busy): the same seed and the same
 *    results give the same schedule.
 */
#ifndef ARENA_MATCHMAKE_H
#define ARENA_MATCHMAKE_H

#include <stdint.h>

typedef struct arena_mm_bot {
    int64_t id;
    double  rating;           /* live Elo */
    int     games;            /* matches played in this ladder */
    int     busy;             /* its matches queued or running now */
} arena_mm_bot;

typedef struct arena_mm_params {
    int    seats;             /* 2, or 4 (two teams of two) */
    int    per_bot;           /* matches a bot may be in at once, >= 2 */
    int    provisional;       /* games under which a bot is new */
    double near;              /* s of rule 3, in Elo */
    double wide;              /* chance of rule 4, 0..1 */
} arena_mm_params;

/* Defaults: 2 seats, 2 matches a bot, 20 games, s = 100, wide 10%. */
void arena_mm_default(arena_mm_params *p);

/* The bots of seed pair `pair`: seat[0..seats-1] are indexes into bots[]
 * for the pair's first match (its second swaps the sides, see
 * arena_mm_swap). 1, or 0 when too few bots have room. */
int arena_mm_pick(const arena_mm_bot *bots, int n, const arena_mm_params *p, uint64_t seed,
                  int64_t pair, int seat[4]);

/* The seats of a pair's second match: 2 seats reversed, 4 seats with the
 * teams' sides swapped (0 1 2 3 -> 1 0 3 2). */
void arena_mm_swap(int seats, const int in[4], int out[4]);

#endif

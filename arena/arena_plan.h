/*
 * arena_plan.h - which matches a tournament plays: pure planning, no I/O.
 *
 * Games come in seed pairs: one seed, played twice with the seats swapped,
 * so a lucky deal favours neither bot (fishtest's game pairs). Every
 * pairing of the tournament plays the same seeds, all derived from the
 * tournament seed, so results across pairings share their luck too and a
 * whole tournament can be re-run exactly. The plan interleaves pairings
 * (pair 1 of every pairing, then pair 2, ...) so that a tournament stopped
 * halfway has still sampled every pairing evenly.
 */
#ifndef ARENA_PLAN_H
#define ARENA_PLAN_H

#include <stdint.h>

enum { ARENA_ROUND_ROBIN, ARENA_GAUNTLET, ARENA_TEAMS, ARENA_FREE_FOR_ALL,
       ARENA_SWISS, ARENA_KNOCKOUT };   /* the last two: events, arena_events.h */

/* The largest plan: games per pairing, and matches in all. */
#define ARENA_MAX_GAMES   1000000
#define ARENA_MAX_MATCHES 100000000

typedef struct arena_game {
    int      index;       /* position in the plan: the match's game_index */
    uint64_t seed;
    int      seats;       /* 2; 4 for team games; free-for-all: the game's */
    int      seat[4];     /* indexes into the tournament's bot list */
} arena_game;

/* Parses "round-robin" / "gauntlet" / "teams" / "free-for-all" / "swiss" /
 * "knockout"; -1 if none. */
int  arena_format_parse(const char *name);
const char *arena_format_name(int format);

/* The number of matches, or -1 with a reason: at least 2 bots (4 for
 * teams, `seats` for free-for-all), and games per pairing a positive even
 * number (seed pairs), for free-for-all a multiple of `seats`.
 *
 * Teams: 2 v 2 with partners rotating. Every 4 bots of the list meet in
 * each of their 3 splits into two teams ({ab|cd}, {ac|bd}, {ad|bc}); a
 * team sits in seats 0 and 2, the other in 1 and 3, and the seed pair
 * swaps the sides.
 *
 * Free-for-all: games of `seats` seats (2..4), each seat for itself.
 * Every group of `seats` bots meets; a seed is played once per rotation
 * of the group's seats (a seed pair generalised), so each bot sits in each
 * seat as often, under the same luck. `seats` matters to this format only. */
int  arena_plan_size(int format, int seats, int nbots, int games, const char **why);
/* Game `index` (0 <= index < arena_plan_size(...)) of the plan, computed
 * from the index alone: a plan is never held in memory, so a tournament of
 * a million games starts its first match at once, in constant memory. */
void arena_plan_game(int format, int seats, int nbots, uint64_t seed, int index,
                     arena_game *out);

/* The seed of seed pair `pair` of a tournament seeded `seed`. */
uint64_t arena_pair_seed(uint64_t seed, int pair);

#endif

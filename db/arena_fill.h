/*
 * arena_fill.h - synthetic matches for benchmarks at scale (bench_arena_db,
 * `arena bench --web`): B bots, mostly 2 seats, some 3 and 4 (2 v 2), random
 * results, stored through arena_db_match_store like real ones.
 */
#ifndef ARENA_FILL_H
#define ARENA_FILL_H

#include <stdint.h>
#include "arena_db.h"

/* One random match among bots 1..bots (distinct bots per match): 2 seats
 * (80%, game "duel"), 3 (10%, "trio", each its own team) or 4 (2 v 2).
 * One in 50 of 2 or 4 seats is forfeited: a seat timed out, its team lost.
 * A 2-seat match gives seat 0 to `retired` instead when it is not 0. */
void arena_fill_match(arena_match *m, int bots, int64_t retired, uint64_t *rng);
uint64_t arena_fill_rand(uint64_t *rng);       /* xorshift64 */

#endif

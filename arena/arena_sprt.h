/*
 * arena_sprt.h - "is A stronger than B by at least X Elo?", answered from
 * the stored results as fishtest does: a sequential probability ratio
 * test (ratings/sprt.c) over game pairs (pentanomial: a seed pair is one
 * unit, since its two games share their luck), or over single games when
 * no complete pair exists yet.
 */
#ifndef ARENA_SPRT_H
#define ARENA_SPRT_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"
#include "ratings.h"

/* Over the 2-player matches of A against B that `f` selects (NULL: all),
 * which must be of one game. Prints counts, LLR, bounds and the verdict.
 * Returns the verdict (RT_SPRT_*), or -2 with err. */
int arena_sprt(arena_db *db, int64_t bot_a, int64_t bot_b, const arena_match_filter *f,
               const rt_sprt_params *p, FILE *out, char *err, size_t size);

#endif

/*
 * arena_sprt.h - "is A stronger than B by at least X Elo?", answered from
 * the stored results as fishtest does: a sequential probability ratio
 * test (ratings/sprt.c) over game pairs (pentanomial: a seed pair is one
 * unit, since its two games share their luck), or over single games when
 * no complete pair exists yet. `arena sprt` asks it of a record; the
 * ladder's gate (arena_ladder_gate.h) asks it as the games come in and
 * stops at the first pair that decides.
 */
#ifndef ARENA_SPRT_H
#define ARENA_SPRT_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"
#include "ratings.h"

/* The hypotheses `arena sprt` and `arena ladder --gate sprt` test unless
 * told otherwise: H0 elo <= 0, H1 elo >= 10, alpha = beta = 0.05. */
#define ARENA_SPRT_DEFAULTS { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 }

/* A's record against B and the test's answer on it. */
typedef struct arena_sprt_tally {
    long w, d, l;                 /* games, from A's side */
    long penta[5];                /* complete seed pairs by A's points, in halves */
    long pairs;
    int64_t last_ms;              /* when the last game counted finished */
    rt_sprt_result r;             /* LLR, bounds, verdict */
} arena_sprt_tally;

/* A's record against B over the matches `f` selects (NULL: all), which
 * must be of one game: 2-player matches, or with f->seats set, games of
 * that many seats where A's team opposes B's (A's score is its team's),
 * in the order they were planned. With
 * `first_verdict` set, the count stops at the first complete seed pair
 * after which the test decides (a sequential test's verdict stands
 * whatever is played after it); else every game counts. No game yet:
 * all counts 0, LLR 0, continue. 0, or -1 with err (two games, bad
 * bounds, the database). */
int arena_sprt_tally_of(arena_db *db, int64_t bot_a, int64_t bot_b, const arena_match_filter *f,
                        const rt_sprt_params *p, int first_verdict, arena_sprt_tally *t,
                        char *err, size_t size);

/* The test over the whole record (with `first_verdict`, up to the pair
 * that decided it), printed to `out`: counts, LLR, bounds and the
 * verdict. Returns the verdict (RT_SPRT_*), or -2 with err. */
int arena_sprt(arena_db *db, int64_t bot_a, int64_t bot_b, const arena_match_filter *f,
               const rt_sprt_params *p, int first_verdict, FILE *out, char *err,
               size_t size);
/* The tally as one progress line: "sprt: pairs 12  games 24  w-d-l ...
 * LLR 1.234  bounds [-2.944, 2.944]  continue" (or H0, H1). */
void arena_sprt_line(const arena_sprt_tally *t, FILE *out);

#endif

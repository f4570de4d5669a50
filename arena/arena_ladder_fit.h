/*
 * arena_ladder_fit.h - a 2-seat ladder's Bradley-Terry fit, kept up as
 * matches are stored; its per-pair totals are also what the standings
 * (arena_report.c) fit, gathered as the matches stream by. Reading a million matches back for every refresh
 * costs seconds (and a gigabyte); the fit only needs the results per pair
 * of bots, which change by one game per match. So the totals are read
 * from the database once (arena_db_ladder_pairs), each stored match adds
 * its game, and each fit starts from the previous one's ratings
 * (rt_bt_options.start), which after a hundred new games is a few sweeps
 * from the optimum.
 *
 * Sigmas: EXACT (as `arena standings`) up to ARENA_LFIT_EXACT_MAX bots;
 * above, DIAGONAL: its O(pairs) cost fits a refresh in the issue's
 * 0.5 s at 1,000 bots, where EXACT's dense Cholesky alone takes 0.4 s on
 * this machine, and in a large, well-mixed pool it is close to EXACT.
 */
#ifndef ARENA_LADDER_FIT_H
#define ARENA_LADDER_FIT_H

#include <stdint.h>
#include "arena_db.h"
#include "ratings.h"

#define ARENA_LFIT_EXACT_MAX 300

typedef struct arena_lfit arena_lfit;

arena_lfit *arena_lfit_new(void);            /* NULL when out of memory */
void arena_lfit_free(arena_lfit *f);

/* Adds the totals stored for ladder_id. 0, or -1 (database, memory). */
int  arena_lfit_load(arena_lfit *f, arena_db *db, int64_t ladder_id);

/* One game between bots a and b (a != b) scoring score_a for a: 1, 0.5
 * or 0. 0, or -1 (bad arguments, memory). */
int  arena_lfit_add(arena_lfit *f, int64_t a, int64_t b, double score_a);

/* A stored 2-seat match's game; other matches are refused (-1). */
int  arena_lfit_add_match(arena_lfit *f, const arena_match *m);

/* The index of bot `id` in the totals (bots are numbered 0, 1, ... in the
 * order first seen: by an add, or by this call), added if new; -1 when out
 * of memory. A caller that names every bot here first, in its own order,
 * gets the pairs in that order: `arena standings` fits its rows so. */
int  arena_lfit_bot(arena_lfit *f, int64_t id);

/* One game between the bots of indices i and j (i != j, both given by
 * arena_lfit_bot), as arena_lfit_add. 0, or -1. */
int  arena_lfit_add_at(arena_lfit *f, int i, int j, double score_i);

/* w wins of index i, d draws and l wins of index j at once (the stored
 * totals of a pair). 0, or -1. */
int  arena_lfit_add_counts(arena_lfit *f, int i, int j, int64_t w, int64_t d, int64_t l);

/* The same for a pair not added before (the caller knows it: the stored
 * totals have one row a pair), without looking it up. 0, or -1. */
int  arena_lfit_add_new(arena_lfit *f, int i, int j, int64_t w, int64_t d, int64_t l);

/* The per-pair totals, i < j by the indices above: *np of them, valid
 * until the next add. */
const rt_pair *arena_lfit_pairs(const arena_lfit *f, size_t *np);

/* Games a bot has in the totals (0 if none). */
int  arena_lfit_games(const arena_lfit *f, int64_t bot);

/* Fits the totals, warm from the last fit: *out (malloc'ed, best first)
 * gets one row per bot with games; info (may be NULL) the fit's. Count,
 * or -1 with err. */
int  arena_lfit_fit(arena_lfit *f, arena_fit_row **out, rt_bt_info *info, char *err,
                    size_t size);

#endif

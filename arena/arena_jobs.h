/*
 * arena_jobs.h - from a planned match to a worker's job, and from the
 * worker's result back to a match row: what tournaments and the ladder
 * share. A match is described by its seating: the bots in each seat, its
 * seed and its game_index; the spec gives the game and its time control.
 */
#ifndef ARENA_JOBS_H
#define ARENA_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "arena_db.h"
#include "arena_pool.h"
#include "arena_tourney.h"

typedef struct arena_seating {
    int64_t  index;               /* the match's game_index (the job's id) */
    uint64_t seed;
    int      seats;
    int64_t  bot[4];              /* bot ids, seat order */
} arena_seating;

/* The job that plays `s` under spec's game and time control; each seat's
 * command and folder are read from the bots table. */
void arena_job_for(const arena_spec *spec, const arena_seating *s, int64_t log_bytes,
                   arena_db *db, arena_job *job);

/* A worker's result for `s` into a match row (m->record and m->logs point
 * into res: store m before freeing res). The record must answer the job:
 * spec's game and options, s's seats and seed; and it must replay
 * (ref_record_verify) to the end it states, so that what is stored is the
 * engine's result, not the worker's word. 0, or -1 with err (a record the
 * worker should not have sent: arena_pool_refuse). */
int  arena_match_from_result(const arena_job_result *res, const arena_spec *spec,
                             const arena_seating *s, arena_match *m, char *err, size_t size);

/* A verdict (res->deaths > 0: the match killed ARENA_POOL_DEATHS workers)
 * into a match row without a record: with res->culprit, a forfeit of that
 * seat (reason ARENA_KILLED_REFEREE); without, a void match (ARENA_VOID),
 * which is stored and counts as played, and which nothing rates. The
 * detail says why. 0, or -1 with err. */
int  arena_match_from_verdict(const arena_job_result *res, const arena_spec *spec,
                              const arena_seating *s, arena_match *m, char *err, size_t size);

/* A playable result whose match a bot lost waiting for a CPU: not stored,
 * played again from its seed. */
int  arena_result_contended(const arena_job_result *res);

#endif

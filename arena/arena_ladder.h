/*
 * arena_ladder.h - the ladder: a competition that runs until it is
 * stopped, pairs the active bots as it goes (arena_matchmake.h), plays
 * them through the same workers and job code as tournaments
 * (arena_pool.h, arena_jobs.h), and stores each match with the ladder's
 * id and its own game_index, so that nothing is ever stored twice.
 *
 * What it watches while it runs:
 * - the bots table, every few seconds: bots added, new versions, bots
 *   disabled, enabled or retired from another shell are picked up;
 * - each bot's forfeits in a row: at `max_forfeits` the bot is disabled,
 *   with the reason and the last match named;
 * - the Bradley-Terry fit, refreshed every `fit_every` matches or
 *   `fit_seconds` and stored as the ladder's rating history;
 * - with a gate (arena_ladder_gate.h), each new version on trial: it
 *   plays only its previous version until its SPRT decides.
 *
 * Stopping (run->stop set by a signal): no new match is planned; the
 * running ones have `grace_s` to finish and be stored; the rest are
 * abandoned (never stored: a seed pair half played is simply not
 * counted). Run again, it goes on from its highest stored game_index.
 */
#ifndef ARENA_LADDER_H
#define ARENA_LADDER_H

#include <stddef.h>
#include <stdint.h>
#include "arena_db.h"
#include "arena_ladder_gate.h"
#include "arena_tourney.h"

/* What a run cost, for `arena bench --ladder`: the ladder's own time is
 * wall_s - wait_s (planning, storing, rating, watching). */
typedef struct arena_ladder_stats {
    int64_t stored;               /* matches stored this run */
    double  wall_s;               /* the run, start to stop */
    double  wait_s;               /* spent waiting for the workers' results */
    double  setup_s;              /* opening: the ladder, its bots, its rating totals */
    double  fit_s, fit_max_s;     /* BT refreshes: all, the longest */
    int     fits;
} arena_ladder_stats;

typedef struct arena_ladder_opts {
    const char *name;             /* NULL or "": arena_db_ladder_default */
    int     max_forfeits;         /* forfeits in a row that disable a bot; 0: never */
    int     retire_old;           /* a version that passes its gate retires the one it beat */
    int     per_bot;              /* matches a bot may be in at once, >= 2 (a seed pair) */
    int     fit_every;            /* refresh the BT fit every N stored matches... */
    double  fit_seconds;          /* ...or after this many seconds with new matches */
    double  grace_s;              /* on stop: time the running matches have to finish */
    double  reload_s;             /* the bots table is read again this often */
    double  log_s;                /* not on a terminal: a progress line this often */
    int64_t matches;              /* plan this many matches in this run, then stop; 0: no end */
    arena_gate_opts gate;         /* new versions on trial first (2 seats only) */
    arena_ladder_stats *stats;    /* NULL, or filled when the run ends */
} arena_ladder_opts;

void arena_ladder_default(arena_ladder_opts *o);


/* Runs the ladder (its game, options and time control from spec; its
 * seed from spec->seed when it is created, else the stored one) until
 * run->stop is set or o->matches are played. 0 on a clean stop, -1 with
 * err (a ladder stored under this name with another game or options, a
 * database error, the workers failing). */
int  arena_ladder_run(arena_db *db, const arena_spec *spec, const arena_run *run,
                      const arena_ladder_opts *o, char *err, size_t size);

#endif

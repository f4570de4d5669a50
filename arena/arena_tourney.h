/*
 * arena_tourney.h - running a tournament: plan it, skip what is stored,
 * hand the rest to workers, store each result with its rating update as it
 * arrives, and show progress. Killed at any moment, it is resumed by
 * running it again: the plan is the same, and stored matches are skipped.
 */
#ifndef ARENA_TOURNEY_H
#define ARENA_TOURNEY_H

#include <stdint.h>
#include "arena_db.h"
#include "arena_pool.h"
#include "game.h"

typedef struct arena_spec {
    char     game[32];            /* the game's registry name */
    int      format;              /* ARENA_ROUND_ROBIN, ARENA_GAUNTLET, ARENA_TEAMS */
    int      games;               /* per pairing, even */
    int      rounds;              /* Swiss: rounds (stored in the format text) */
    char     options[GAME_OPTIONS_TEXT_MAX + 1];   /* its options' canonical text */
    uint64_t seed;
    int      nbots;
    int64_t  bot[ARENA_MAX_BOTS]; /* bot ids, in order (gauntlet: first is the hero) */
    ref_terms terms;              /* what its matches are played under (ref_terms.h) */
    double   elo_k;
} arena_spec;

typedef struct arena_run {
    int  concurrency;
    int  affinity;                /* each local worker (a match at a time) on its own CPU */
    int  force;                   /* --force-concurrency: more thinking bots than cores */
    const char *referee;          /* path to the referee binary */
    const char *sandbox;          /* the local workers' --sandbox MODE, or NULL: theirs */
    arena_remote remote;          /* remote workers: endpoint and keys, or none */
    int  quiet;                   /* no progress */
    int64_t log_bytes;            /* each seat's log kept per match, cut to this; 0: none */
    int64_t keep_logs;            /* logs of the newest N matches stay; -1: all */
    int  rating_interval;         /* standings every N stored matches; 0: never */
    int64_t remote_wait_s;        /* a match with a remote bot not connected is left for
                                     others, then waited for this long at most; still
                                     absent, it is skipped and the tournament stops,
                                     resumable (not Swiss or knockout: they wait) */
    const volatile int *stop;     /* set (by a signal handler): store what is
                                     finished, stop the rest (NULL: never) */
    /* Asked after each match stored here (NULL: never): nonzero ends the
     * tournament early, finished, once the seed pairs already handed out
     * are stored. Not for Swiss or knockout. `arena sprt --play`'s test. */
    int (*enough)(void *ctx, arena_db *db, int64_t tournament_id);
    void *enough_ctx;
} arena_run;

/* The default game with its default options, round-robin, 10 games. */
void arena_spec_default(arena_spec *s);
/* A spec is stored as its tournament's columns, which identify it: the
 * same spec finds the same tournament. From a stored tournament back to
 * its spec (for --resume, rerun): 0, or -1 for an unknown format. */
void arena_spec_to_tournament(const arena_spec *s, int planned, arena_tournament *t);
int  arena_spec_from_tournament(const arena_tournament *t, arena_spec *s);
/* A Swiss or knockout tournament replayed from its stored matches: its
 * seed order (seed_order[ARENA_EVENT_MAX_BOTS]: entrants strongest first)
 * and where it stands. 0, or -1 with err. */
struct arena_event;
int  arena_event_now(arena_db *db, const arena_spec *spec, int64_t tid, int *seed_order,
                     struct arena_event *ev, char *err, size_t size);

/* The seats and teams (distinct sides) of the spec's game and options.
 * 0, or -1 with err (an unknown game, options that make no game). */
int  arena_spec_shape(const arena_spec *s, int *seats, int *teams, char *err, size_t size);

/* The matches the spec plans (Swiss, knockout: at most), or -1 with why. */
int  arena_spec_plan_size(const arena_spec *s, int seats, const char **why);

/* Runs (or resumes) the tournament; fills *tournament_id. 0 when every
 * planned match is stored, -1 with err otherwise. Unless quiet, it ends by
 * saying how many matches it played: each a job a worker ran. */
int  arena_tourney_run(arena_db *db, const arena_spec *spec, const arena_run *run,
                       int64_t *tournament_id, char *err, size_t size);

#endif

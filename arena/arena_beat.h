/*
 * arena_beat.h - a running arena's presence in its database: a random
 * owner id (its claims' and its row's), and its row in arena_runs (schema
 * 12), written when it starts, refreshed as it renews its claims with its
 * ready workers and the matches handed to them, deleted when it stops; and
 * at the same beat, the database's workers (arena_workers.h) and the
 * matches in play with their records so far (arena_db_playing.h). A
 * tournament (arena_tourney.c) and a ladder (arena_ladder.c) keep one each;
 * the web's live page lists them.
 */
#ifndef ARENA_BEAT_H
#define ARENA_BEAT_H

#include <stdint.h>
#include "arena_db.h"
#include "arena_pool.h"

/* How often an arena renews its claims and refreshes its row; a row not
 * refreshed for ARENA_FORGET_MS (its arena was killed) is deleted by the
 * next arena to start. */
#define ARENA_BEAT_MS 2000
#define ARENA_FORGET_MS (10 * 60 * 1000)

typedef struct arena_beat {
    arena_run_row row;
    int64_t seen_mono_ms;     /* when last written, monotonic */
    int     playing_failed;   /* writing the matches in play failed: said once */
} arena_beat;

/* A random owner id, never 0: an arena's claims and its row. */
int64_t arena_owner_new(void);

/* Writes the row of `owner`, playing a tournament or a ladder (the other
 * id 0), with the pool's workers. */
void arena_beat_start(arena_beat *b, arena_db *db, int64_t owner, int64_t tournament_id,
                      int64_t ladder_id, arena_pool *pool);
/* Refreshes the row when ARENA_BEAT_MS have passed (then 1: claims are due
 * too), or at once when its workers changed (0). */
int  arena_beat_tick(arena_beat *b, arena_db *db, arena_pool *pool);
/* Deletes the row and writes the workers' last activity: the arena stops
 * (before its pool, which may be NULL). */
void arena_beat_stop(arena_beat *b, arena_db *db, arena_pool *pool);

#endif

/*
 * arena_db_playing.h - the matches in play (schema 20, matches_playing):
 * what each arena's workers are playing, with each match's record so far,
 * written by the arena at its beat (arena_beat.c) and read by the web
 * (/api/live `playing`, /api/matches/ID of a match in play).
 *
 * A match in play has no row in `matches` yet, so no id of its own: its
 * row here takes one from ARENA_PLAYING_BASE up, apart from any match's,
 * and keeps it while it plays; once the arena stores the match, the row
 * names it (match_id), so the same id then leads to the finished match.
 * The record so far is what the worker sent (ref_link.h `progress`):
 * untrusted until the finished record is checked, so the web checks that
 * it answers the row (game, options, seed, seats) and replays it before
 * showing it.
 */
#ifndef ARENA_DB_PLAYING_H
#define ARENA_DB_PLAYING_H

#include <stdint.h>
#include "arena_db.h"

/* 2^52: the first id of a match in play; exact in every JSON reader. */
#define ARENA_PLAYING_BASE 4503599627370496LL
/* A row not refreshed for this long goes (its match is stored, or its
 * arena died); the web lists as playing only rows seen lately. */
#define ARENA_PLAYING_KEEP_MS 60000
#define ARENA_PLAYING_FRESH_MS 10000

typedef struct arena_playing {
    int64_t id;                   /* ARENA_PLAYING_BASE and up */
    int64_t job;                  /* its game_index */
    int64_t tournament_id, ladder_id;   /* 0: none */
    char    game[32];
    char   *options;              /* malloc'ed */
    uint64_t seed;
    int     seats;
    int64_t bot[ARENA_MAX_SEATS];
    int64_t started_ms, seen_ms;
    int     running;
    char   *record;               /* malloc'ed, or NULL: no decision heard yet */
    int64_t match_id;             /* 0 while not stored */
} arena_playing;

/* The arena `owner` (playing tournament_id or ladder_id, the other 0)
 * states what its workers play now: rows[n] (their id and match_id
 * ignored). In one transaction: these rows written (a new one gets the
 * next id), its other rows marked not running and, where their match is
 * stored, given its id; rows of any arena not seen since
 * now_ms - ARENA_PLAYING_KEEP_MS deleted. 0, or -1 with err. */
int  arena_db_playing_sync(arena_db *db, int64_t owner, int64_t tournament_id,
                           int64_t ladder_id, const arena_playing *rows, int n, int64_t now_ms,
                           char *err, size_t size);
/* The matches in play as of now_ms (running, not stored, seen within
 * ARENA_PLAYING_FRESH_MS), oldest first, with their records: the count,
 * *out malloc'ed (arena_playing_free_list), or -1. */
int  arena_db_playing_list(arena_db *db, int64_t now_ms, arena_playing **out);
/* The row of id: 0, 1 none, -1 error (arena_playing_clear). */
int  arena_db_playing_get(arena_db *db, int64_t id, arena_playing *out);
void arena_playing_clear(arena_playing *p);                  /* its texts */
void arena_playing_free_list(arena_playing *rows, int n);    /* theirs, and rows */

#endif

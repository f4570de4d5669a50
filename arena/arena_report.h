/*
 * arena_report.h - standings and crosstables from the database, as a text
 * table, CSV or JSON.
 *
 * Standings rank bots by a Bradley-Terry maximum-likelihood fit over every
 * result (ratings/), with a 95% interval and the likelihood that each bot
 * is stronger than the one ranked below it; the live Elo, updated match by
 * match, is shown beside it. Each kind of match (a game and its number of
 * seats) is rated apart. In 2 v 2 a team is as strong as the mean of its
 * two players, both in the fit (rt_team_fit) and in the live Elo
 * (arena_elo_match); other kinds count each two seats of different teams
 * as a game (rt_match_games).
 */
#ifndef ARENA_REPORT_H
#define ARENA_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"

enum { ARENA_TABLE, ARENA_CSV, ARENA_JSON };

int arena_report_format(const char *name);       /* -1 if unknown */
/* 0, or -1 with err. `f` (NULL: everything) chooses the matches: one table
 * per kind of match it selects, or one empty table when there is none.
 * The crosstable is of 2-player matches, of one game (f's, or the only
 * one stored). */
int arena_standings(arena_db *db, const arena_match_filter *f, int format, FILE *out,
                    char *err, size_t size);
int arena_crosstable(arena_db *db, const arena_match_filter *f, int format, FILE *out,
                     char *err, size_t size);

/* The Bradley-Terry fit of one kind of match (a game and its seats, as
 * `kind` selects them: a ladder's matches), best first, as rating-history
 * rows; *out malloc'ed. Count, or -1 with err. */
int arena_report_fit(arena_db *db, const arena_match_filter *kind, arena_fit_row **out,
                     char *err, size_t size);

/* A Swiss or knockout tournament's own results (arena_event_report.c):
 * Swiss points with byes and Buchholz, or the knockout's bracket. 1
 * printed, 0 not such an event (nothing printed), -1 with err. */
int arena_event_results(arena_db *db, int64_t tid, FILE *out, char *err, size_t size);

/* The same as JSON keys, into w's open object: `done`, `rounds`, and
 * `swiss` (rows by rank) or `bracket` and `winner` (web/API.md
 * `/api/event`). 1 written, 0 not such an event (nothing written), -1
 * with err. */
struct jw;
int arena_event_json(arena_db *db, int64_t tid, struct jw *w, char *err, size_t size);
#endif

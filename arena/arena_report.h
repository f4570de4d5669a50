/*
 * arena_report.h - standings and crosstables from the database, as a text
 * table, CSV or JSON.
 *
 * Standings rank bots by a Bradley-Terry maximum-likelihood fit over every
 * result (ratings/), with a 95% interval and the likelihood that each bot
 * is stronger than the one ranked below it; the live Elo, updated match by
 * match, is shown beside it. 2-player and 4-player games are rated apart:
 * in 2 v 2 a team is as strong as the mean of its two players, both in the
 * fit (rt_team_fit) and in the live Elo (arena_elo_match).
 */
#ifndef ARENA_REPORT_H
#define ARENA_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "arena_db.h"

enum { ARENA_TABLE, ARENA_CSV, ARENA_JSON };

int arena_report_format(const char *name);       /* -1 if unknown */
/* 0, or -1 with err. `tournament_id` 0 means every match; `players` 2 or 4
 * shows one kind of game, 0 both (the 4-player table only when any such
 * game was played). The crosstable is of 2-player games. */
int arena_standings(arena_db *db, int64_t tournament_id, int players, int format, FILE *out,
                    char *err, size_t size);
int arena_crosstable(arena_db *db, int64_t tournament_id, int format, FILE *out,
                     char *err, size_t size);

#endif

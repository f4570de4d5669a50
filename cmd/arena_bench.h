/*
 * arena_bench.h - `arena bench`: matches per minute at concurrency 1 and 2
 * over the same matches, and their ratio (arena_bench.c).
 */
#ifndef ARENA_BENCH_H
#define ARENA_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "arena_db.h"

int arena_bench_main(int argc, char **argv, const char *referee, const char *bot);
/* `arena bench --ladder`: the ladder's overhead per match and its rating
 * refresh at 1,000 bots and 1,000,000 matches (arena_bench_ladder.c). */
int arena_bench_ladder_main(int argc, char **argv, const char *referee, const char *bot);
/* arena bench --coordinator (arena_bench_coord.c) */
struct arena_db;
struct arena_spec;
/* A fresh database at path with two random bots (`bot`), and a spec of
 * `games` matches between them: 0, or -1 said. */
int arena_bench_db(const char *path, const char *bot, int games, struct arena_db **db,
                   struct arena_spec *spec);
int arena_bench_coord_main(int argc, char **argv, const char *referee, const char *bot);
/* `arena bench --remote`: workers in network namespaces against the same
 * workers local, 1, 2 and 4 of them (arena_bench_remote.c; root only). */
int arena_bench_remote_main(int argc, char **argv, const char *referee, const char *bot);

/* What both benches share (arena_bench.c). */
/* Sorts v[0..n) and returns its middle value (n is odd in every bench),
 * its range in *lo and *hi when they are given. */
double arena_bench_median(double *v, int n, double *lo, double *hi);
/* Registers n random bots, random-a, random-b..., each the command `bot`
 * with its own ARENA_BOT_SEED (1, 2...); their ids in ids when given. 0,
 * or -1 with err. */
int arena_bench_bots(arena_db *db, int n, const char *bot, int64_t *ids, char *err,
                     size_t size);

#endif

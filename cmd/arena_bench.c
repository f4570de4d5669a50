/*
 * arena_bench.c - how the arena scales with workers, and what the fair
 * clocks cost it. The same tournament (random against random, the same
 * seeds) runs at concurrency 1 and 2 under the default time control (the
 * CPU clock, bots frozen between turns once seen pondering) and at 2 under --clock wall, each
 * into a fresh database, in interleaved rounds so that the machine's noise
 * hits all three alike; the ratios are taken round by round.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_bench.h"
#include "cli.h"
#include "arena_db.h"
#include "arena_plan.h"
#include "arena_tourney.h"
#include "clk.h"
#include "ref_log.h"

#define ROUNDS 3

/* Matches per minute for one tournament at `concurrency` on `clock`; < 0
 * on error. */
static double run_once(const char *dir, int concurrency, const char *clock, int games,
                       const char *referee, const char *bot)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/c%d-%s.db", dir, concurrency, clock);
    arena_db *db;
    arena_spec spec;
    if (arena_bench_db(path, bot, games, &db, &spec) < 0)
        return -1;
    ref_clock_mode_parse(clock, &spec.terms.clock);
    arena_run run = { .concurrency = concurrency, .referee = referee, .quiet = 1,
                      .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1 };
    int64_t tid;
    double t0 = clk_mono_s();
    int rc = arena_tourney_run(db, &spec, &run, &tid, err, sizeof err);
    double t = clk_mono_s() - t0;
    arena_db_close(db);
    arena_db_unlink(path);
    if (rc < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return -1;
    }
    return games / (t / 60);
}

int arena_bench_bots(arena_db *db, int n, const char *bot, int64_t *ids, char *err,
                     size_t size)
{
    for (int i = 0; i < n; i++) {
        arena_bot b = { 0 };
        snprintf(b.name, sizeof b.name, "random-%c", 'a' + i);
        snprintf(b.cmd, sizeof b.cmd, "ARENA_BOT_SEED=%d %s", i + 1, bot);
        if (arena_db_bot_add(db, &b, err, size) < 0)
            return -1;
        if (ids && arena_db_bot_by_name(db, b.name, &b) == 0)
            ids[i] = b.id;
    }
    return 0;
}

int arena_bench_db(const char *path, const char *bot, int games, arena_db **db,
                   arena_spec *spec)
{
    char err[512];
    if (arena_db_open(db, path, 1, err, sizeof err) < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return -1;
    }
    arena_spec_default(spec);
    spec->games = games;
    spec->nbots = 2;
    if (arena_bench_bots(*db, spec->nbots, bot, spec->bot, err, sizeof err) < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        arena_db_close(*db);
        return -1;
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double arena_bench_median(double *v, int n, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    if (lo)
        *lo = v[0];
    if (hi)
        *hi = v[n - 1];
    return v[n / 2];
}

int arena_bench_main(int argc, char **argv, const char *referee, const char *bot)
{
    int games = 60;
    char err[256];
    const cli_flag flags[] = {
        CLI_NUM("--games", CLI_INT, "N", "matches per measurement, a multiple of 6 (default 60)",
                &games, 6, 1000000),
        CLI_END,
    };
    int got = cli_parse(flags, argc, argv, NULL, NULL, 0, err, sizeof err);
    if (got == 1) {
        printf("usage: arena bench [--games N]   matches per minute at concurrency 1 and 2, "
               "CPU clock against wall clock\n");
        cli_help(stdout, flags);
        return 0;
    }
    if (got < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return 2;
    }
    if (games % (2 * ROUNDS)) {
        fprintf(stderr, "arena: bench --games must be a multiple of %d\n", 2 * ROUNDS);
        return 2;
    }
    char dir[] = "/tmp/arena-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("arena: bench");
        return 1;
    }
    double one[ROUNDS], two[ROUNDS], wall[ROUNDS], scaling[ROUNDS], clocks[ROUNDS];
    int per = games / ROUNDS, rc = 0;
    for (int r = 0; r < ROUNDS && rc == 0; r++) {
        one[r] = run_once(dir, 1, "cpu", per, referee, bot);
        two[r] = one[r] < 0 ? -1 : run_once(dir, 2, "cpu", per, referee, bot);
        wall[r] = two[r] < 0 ? -1 : run_once(dir, 2, "wall", per, referee, bot);
        rc = wall[r] < 0;
        scaling[r] = two[r] / one[r];
        clocks[r] = two[r] / wall[r];
    }
    rmdir(dir);
    if (rc)
        return 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double lo, hi, m;
    printf("matches                 %d random vs random per measurement, stored with ratings, "
           "in %d interleaved rounds\n", games, ROUNDS);
    m = arena_bench_median(one, ROUNDS, &lo, &hi);
    printf("concurrency 1, cpu      %.0f matches/min (median; rounds %.0f..%.0f)\n", m, lo, hi);
    m = arena_bench_median(two, ROUNDS, &lo, &hi);
    printf("concurrency 2, cpu      %.0f matches/min (median; rounds %.0f..%.0f)\n", m, lo, hi);
    m = arena_bench_median(wall, ROUNDS, &lo, &hi);
    printf("concurrency 2, wall     %.0f matches/min (median; rounds %.0f..%.0f)\n", m, lo, hi);
    m = arena_bench_median(scaling, ROUNDS, &lo, &hi);
    printf("scaling                 %.2fx   (2 / 1 workers, cpu; %ld cores; rounds %.2f..%.2f)\n",
           m, cores, lo, hi);
    m = arena_bench_median(clocks, ROUNDS, &lo, &hi);
    printf("cpu / wall clock        %.3f   (matches/min at concurrency 2, median of per-round "
           "ratios; rounds %.3f..%.3f)\n", m, lo, hi);
    return 0;
}

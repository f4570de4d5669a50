/*
 * arena_bench.c - how the arena scales with workers. The same tournament
 * (random against random, the same seeds) runs at concurrency 1 and then 2,
 * each into a fresh database, and the rates are compared in one run.
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

/* Matches per minute for one tournament at `concurrency`; < 0 on error. */
static double run_once(const char *dir, int concurrency, int games, const char *referee,
                       const char *bot)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/c%d.db", dir, concurrency);
    arena_db *db;
    if (arena_db_open(&db, path, 1, err, sizeof err) < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return -1;
    }
    arena_spec spec;
    arena_spec_default(&spec);
    spec.games = games;
    for (int i = 0; i < 2; i++) {
        arena_bot b;
        memset(&b, 0, sizeof b);
        snprintf(b.name, sizeof b.name, "random-%c", 'a' + i);
        snprintf(b.cmd, sizeof b.cmd, "ARENA_BOT_SEED=%d %s", i + 1, bot);
        arena_db_bot_add(db, &b, err, sizeof err);
        arena_db_bot_by_name(db, b.name, &b);
        spec.bot[spec.nbots++] = b.id;
    }
    arena_run run = { .concurrency = concurrency, .referee = referee, .quiet = 1,
                      .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1 };
    int64_t tid;
    double t0 = clk_mono_s();
    int rc = arena_tourney_run(db, &spec, &run, &tid, err, sizeof err);
    double t = clk_mono_s() - t0;
    arena_db_close(db);
    unlink(path);
    char side[300];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    if (rc < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return -1;
    }
    return games / (t / 60);
}

int arena_bench_main(int argc, char **argv, const char *referee, const char *bot)
{
    int games = 60;
    char err[256];
    const cli_flag flags[] = {
        CLI_NUM("--games", CLI_INT, "N", "matches per measurement, even (default 60)", &games, 2,
                1000000),
        CLI_END,
    };
    int got = cli_parse(flags, argc, argv, NULL, NULL, 0, err, sizeof err);
    if (got == 1) {
        printf("usage: arena bench [--games N]   matches per minute at concurrency 1 and 2\n");
        cli_help(stdout, flags);
        return 0;
    }
    if (got < 0) {
        fprintf(stderr, "arena: bench: %s\n", err);
        return 2;
    }
    if (games % 2) {
        fprintf(stderr, "arena: bench --games must be a positive even number\n");
        return 2;
    }
    char dir[] = "/tmp/arena-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("arena: bench");
        return 1;
    }
    double one = run_once(dir, 1, games, referee, bot);
    double two = one < 0 ? -1 : run_once(dir, 2, games, referee, bot);
    rmdir(dir);
    if (one < 0 || two < 0)
        return 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("matches                 %d random vs random, stored with ratings\n", games);
    printf("concurrency 1           %.0f matches/min\n", one);
    printf("concurrency 2           %.0f matches/min\n", two);
    printf("scaling                 %.2fx   (%ld cores)\n", two / one, cores);
    return 0;
}

/*
 * arena_bench_ladder.c - `arena bench --ladder`: what the ladder itself
 * costs, against the issue's targets.
 *
 * 1. Overhead per match: a real ladder (the real referee, random bots, one
 *    worker) plays N matches; the ladder's own time is its wall time less
 *    the time it waited for results (planning, storing, live Elo, the fit's
 *    totals and refreshes, watching the bots), as a share of the wall time.
 *    Target: under 2%.
 * 2. The BT refresh at scale: a database with B bots and M stored matches
 *    of one ladder (true strengths, random pairings; --keep FILE keeps it
 *    for the next run). The ladder's totals are read once, then R rounds
 *    store 100 matches and refresh (fit + the history rows), as the ladder
 *    does with --fit-every 100, while a second connection keeps storing
 *    matches of another ladder. The first fit is cold (the baseline: what
 *    every refresh would cost without a warm start). Target: under 0.5 s.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena_bench.h"
#include "arena_fill.h"
#include "arena_ladder.h"
#include "arena_ladder_fit.h"
#include "cli.h"
#include "clk.h"
#include "ref_log.h"

#define BATCH 100

typedef struct scale {
    int bots;
    int64_t matches;
    int rounds;
    double *truth;            /* each bot's true strength, Elo */
    uint64_t rng;
} scale;

static double unit(uint64_t *rng)
{
    return (double)(arena_fill_rand(rng) >> 11) / 9007199254740992.0;
}

/* A 2-seat match of the ladder between random bots, scored by their true
 * strengths (30% of even games drawn, as in ratings_bench). */
static arena_match sim_match(scale *s, int64_t ladder, int64_t index)
{
    arena_match m;
    memset(&m, 0, sizeof m);
    snprintf(m.game, sizeof m.game, "duel");
    m.seats = 2;
    int a = (int)(arena_fill_rand(&s->rng) % (uint64_t)s->bots), b;
    do
        b = (int)(arena_fill_rand(&s->rng) % (uint64_t)s->bots);
    while (b == a);
    double p = 1 / (1 + pow(10, (s->truth[b] - s->truth[a]) / 400)), draw = 1.2 * p * (1 - p);
    double u = unit(&s->rng), score = u < p - draw / 2 ? 1 : u < p + draw / 2 ? 0.5 : 0;
    m.bot[0] = a + 1;
    m.bot[1] = b + 1;
    m.team[1] = 1;
    m.score[0] = score;
    m.score[1] = 1 - score;
    m.culprit = -1;
    snprintf(m.reason, sizeof m.reason, "markers");
    m.ladder_id = ladder;
    m.game_index = (int)index;
    m.seed = arena_fill_rand(&s->rng);
    m.elo_k = 16;
    m.started_ms = m.finished_ms = 1700000000000 + index * 100;
    return m;
}

/* The database of the scale test: bots 1..B, ladders "bench" and "other". */
static int fill(arena_db *db, scale *s, arena_ladder *l, char *err, size_t size)
{
    arena_ladder other = {0};
    snprintf(l->name, sizeof l->name, "bench");
    snprintf(other.name, sizeof other.name, "other");
    snprintf(l->game, sizeof l->game, "duel");
    snprintf(other.game, sizeof other.game, "duel");
    int found = arena_db_ladder_open(db, l, err, size);
    if (found < 0 || arena_db_ladder_open(db, &other, err, size) < 0)
        return -1;
    if (found && l->matches >= s->matches)
        return 0;
    for (int i = (int)(found ? s->bots : 0); i < s->bots; i++) {
        arena_bot b = {0};
        snprintf(b.name, sizeof b.name, "bot%d", i);
        snprintf(b.cmd, sizeof b.cmd, "true");
        if (arena_db_bot_add(db, &b, err, size) < 0)
            return -1;
    }
    double t0 = clk_mono_s();
    for (int64_t i = l->matches; i < s->matches; i++) {
        arena_match m = sim_match(s, l->id, i);
        if (arena_db_match_store(db, &m, err, size) != 0)
            return -1;
        if ((i + 1) % 100000 == 0)
            fprintf(stderr, "bench: %" PRId64 " matches stored (%.0f/s)\n", i + 1,
                    (double)(i + 1 - l->matches) / (clk_mono_s() - t0));
    }
    l->matches = s->matches;
    l->next_index = s->matches;
    return 0;
}

/* The other writer: matches of ladder "other" until told to stop. */
typedef struct writer {
    const char *path;
    atomic_int stop;
    int64_t stored;
    double seconds;
    scale s;
} writer;

static void *write_on(void *arg)
{
    writer *w = arg;
    arena_db *db;
    char err[256];
    arena_ladder other = {0};
    snprintf(other.name, sizeof other.name, "other");
    if (arena_db_open(&db, w->path, 1, err, sizeof err) != 0)
        return NULL;
    if (arena_db_ladder_get(db, "other", &other) != 0) {
        arena_db_close(db);
        return NULL;
    }
    double t0 = clk_mono_s();
    for (int64_t i = other.next_index; !atomic_load(&w->stop); i++) {
        arena_match m = sim_match(&w->s, other.id, i);
        if (arena_db_match_store(db, &m, err, sizeof err) != 0)
            break;
        w->stored++;
    }
    w->seconds = clk_mono_s() - t0;
    arena_db_close(db);
    return NULL;
}

/* R rounds of BATCH stored matches and a refresh, timed. */
static int refresh_rounds(arena_db *db, scale *s, arena_ladder *l, arena_lfit *f,
                          double *refresh, double *store, char *err, size_t size)
{
    for (int r = 0; r < s->rounds; r++) {
        double t = clk_mono_s();
        for (int k = 0; k < BATCH; k++) {
            arena_match m = sim_match(s, l->id, l->next_index++);
            if (arena_db_match_store(db, &m, err, size) != 0 || arena_lfit_add_match(f, &m) < 0)
                return -1;
        }
        store[r] = (clk_mono_s() - t) / BATCH;
        t = clk_mono_s();
        arena_fit_row *rows = NULL;
        int n = arena_lfit_fit(f, &rows, NULL, err, size);
        l->matches += BATCH;
        if (n < 0 || arena_db_fit_store(db, l->id, clk_wall_ms(), l->matches, rows, n, err,
                                        size) < 0) {
            free(rows);
            return -1;
        }
        free(rows);
        refresh[r] = clk_mono_s() - t;
    }
    arena_bench_median(refresh, s->rounds, NULL, NULL);     /* sorted: median and max */
    arena_bench_median(store, s->rounds, NULL, NULL);
    return 0;
}

static int scale_test(scale *s, const char *keep, char *err, size_t size)
{
    char dir[] = "/tmp/arena-bench-ladder-XXXXXX", path[300];
    if (!keep && !mkdtemp(dir)) {
        snprintf(err, size, "cannot make a temporary folder");
        return -1;
    }
    if (keep)
        snprintf(path, sizeof path, "%s", keep);
    else
        snprintf(path, sizeof path, "%s/ladder.db", dir);
    arena_db *db;
    arena_ladder l = {0};
    int rc = arena_db_open(&db, path, 1, err, size);
    double t = clk_mono_s();
    if (rc == 0 && (rc = fill(db, s, &l, err, size)) == 0)
        printf("database                %d bots, %" PRId64 " matches of the ladder (made or "
               "completed in %.1f s)\n", s->bots, l.matches, clk_mono_s() - t);
    arena_lfit *f = rc == 0 ? arena_lfit_new() : NULL;
    t = clk_mono_s();
    if (rc == 0 && (!f || arena_lfit_load(f, db, l.id) < 0)) {
        snprintf(err, size, "cannot read the results per pair");
        rc = -1;
    }
    double load = clk_mono_s() - t;
    double *refresh = calloc((size_t)s->rounds, sizeof *refresh);
    double *store = calloc((size_t)s->rounds, sizeof *store);
    arena_fit_row *rows = NULL;
    rt_bt_info info = {0};
    double cold = 0;
    if (rc == 0) {
        t = clk_mono_s();
        rc = arena_lfit_fit(f, &rows, &info, err, size) < 0 ? -1 : 0;
        cold = clk_mono_s() - t;
        free(rows);
    }
    writer w = { .path = path, .s = *s };
    w.s.rng ^= 0x9e3779b97f4a7c15ULL;
    pthread_t th;
    int started = rc == 0 && pthread_create(&th, NULL, write_on, &w) == 0;
    if (rc == 0)
        rc = refresh_rounds(db, s, &l, f, refresh, store, err, size);
    atomic_store(&w.stop, 1);
    if (started)
        pthread_join(th, NULL);
    if (rc == 0) {
        int R = s->rounds;
        printf("results per pair read   %.3f s (once, when the ladder starts)\n", load);
        printf("first fit (cold)        %.3f s  (%d sweeps, %s sigmas)\n", cold, info.iterations,
               info.sigma_mode == RT_BT_SIGMA_EXACT ? "exact" : "diagonal");
        printf("refresh (warm)          %.3f s median, %.3f s max over %d refreshes of %d new "
               "matches (fit + history rows); target 0.5 s\n", refresh[R / 2], refresh[R - 1],
               R, BATCH);
        printf("warm / cold             %.2f\n", refresh[R / 2] / cold);
        printf("storing a match         %.2f ms median (with its totals)\n", 1000 * store[R / 2]);
        printf("meanwhile               another connection stored %" PRId64 " matches "
               "(%.0f/s)\n", w.stored, w.seconds > 0 ? (double)w.stored / w.seconds : 0.0);
    }
    free(refresh);
    free(store);
    arena_lfit_free(f);
    if (db)
        arena_db_close(db);
    if (!keep) {
        arena_db_unlink(path);
        rmdir(dir);
    }
    return rc;
}

/* A real ladder of random bots for `matches` matches at concurrency 1. */
static int overhead_test(int matches, const char *referee, const char *bot, char *err,
                         size_t size)
{
    char dir[] = "/tmp/arena-bench-ladder-XXXXXX", path[300];
    if (!mkdtemp(dir)) {
        snprintf(err, size, "cannot make a temporary folder");
        return -1;
    }
    snprintf(path, sizeof path, "%s/overhead.db", dir);
    arena_db *db;
    int rc = arena_db_open(&db, path, 1, err, size);
    if (rc == 0)
        rc = arena_bench_bots(db, 4, bot, NULL, err, size);
    arena_spec spec;
    arena_spec_default(&spec);
    spec.format = -1;
    arena_run run = { .concurrency = 1, .referee = referee, .quiet = 1,
                      .log_bytes = REF_LOG_DEFAULT_CAP, .keep_logs = -1 };
    arena_ladder_opts o;
    arena_ladder_default(&o);
    arena_ladder_stats st = {0};
    o.matches = matches;
    o.stats = &st;
    o.fit_every = 10;
    if (rc == 0)
        rc = arena_ladder_run(db, &spec, &run, &o, err, size);
    if (db)
        arena_db_close(db);
    arena_db_unlink(path);
    rmdir(dir);
    if (rc < 0)
        return -1;
    double own = st.wall_s - st.wait_s - st.setup_s;
    printf("ladder run              %" PRId64 " matches, random bots, 1 worker, refresh every "
           "10: %.2f s (%.1f ms a match)\n", st.stored, st.wall_s,
           st.stored ? 1000 * st.wall_s / (double)st.stored : 0.0);
    printf("ladder's own time       %.3f s = %.2f ms a match: %.2f%% of the run (target "
           "under 2%%); %d refreshes took %.3f s\n", own,
           st.stored ? 1000 * own / (double)st.stored : 0.0, 100 * own / st.wall_s, st.fits,
           st.fit_s);
    return 0;
}

int arena_bench_ladder_main(int argc, char **argv, const char *referee, const char *bot)
{
    scale s = { .bots = 1000, .matches = 1000000, .rounds = 9, .rng = 20240601 };
    int overhead = 60;
    const char *keep = NULL;
    char err[512];
    const cli_flag flags[] = {
        CLI_NUM("--bots", CLI_INT, "B", "bots of the scale test (default 1000)", &s.bots, 2,
                1000000),
        CLI_NUM("--matches", CLI_I64, "M", "stored matches of the scale test (default "
                "1000000)", &s.matches, 1, (int64_t)1 << 31),
        CLI_NUM("--refreshes", CLI_INT, "R", "refreshes timed (default 9)", &s.rounds, 1, 1000),
        CLI_NUM("--overhead-matches", CLI_INT, "N", "matches of the real ladder (default 60; "
                "0: skip)", &overhead, 0, 100000),
        CLI_ARG("--keep", CLI_STR, "FILE", "the scale test's database: filled once, reused",
                &keep),
        CLI_END,
    };
    int got = cli_parse(flags, argc, argv, NULL, NULL, 0, err, sizeof err);
    if (got == 1) {
        printf("usage: arena bench --ladder [flags]   the ladder's overhead per match and its "
               "rating refresh at scale\n");
        cli_help(stdout, flags);
        return 0;
    }
    if (got < 0) {
        fprintf(stderr, "arena: bench --ladder: %s\n", err);
        return 2;
    }
    if (overhead > 0 && overhead_test(overhead, referee, bot, err, sizeof err) < 0) {
        fprintf(stderr, "arena: bench --ladder: %s\n", err);
        return 1;
    }
    s.truth = calloc((size_t)s.bots, sizeof *s.truth);
    uint64_t g = 7;
    for (int i = 0; s.truth && i < s.bots; i++) {   /* normal(0, 200) by Box-Muller */
        double u1 = unit(&g), u2 = unit(&g);
        s.truth[i] = 200 * sqrt(-2 * log(u1 + 1e-300)) * cos(2 * M_PI * u2);
    }
    snprintf(err, sizeof err, "out of memory");
    int rc = s.truth ? scale_test(&s, keep, err, sizeof err) : -1;
    free(s.truth);
    if (rc < 0) {
        fprintf(stderr, "arena: bench --ladder: %s\n", err);
        return 1;
    }
    return 0;
}

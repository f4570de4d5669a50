/*
 * bench_arena_db.c - the arena's database at scale (not a test: it prints
 * numbers). Fills a fresh file with N matches among B bots through
 * arena_db_match_store (one transaction each, as tournaments store them),
 * mostly 2 seats, some 3 and 4; one more bot, "retired", plays only in the
 * first 10,000. Then times, the cache warmed by a first pass:
 *   - storing: matches per second over the first and the last 10,000;
 *   - a bot's newest 50 matches with their seats (what a bot page and
 *     `arena matches` page with), p50 and p99 over 2,000 random bots, and
 *     the retired bot's, with the (bot_id, ...) index and without it;
 *   - a bot's W-D-L (its page's header), p50 and p99;
 *   - the results of every bot over every match (arena_db_results) and
 *     the ratings replay check (arena_db_check_ratings).
 *
 *   bench_arena_db [MATCHES [BOTS]]      (default 1000000 1000)
 *   bench_arena_db MATCHES BOTS --keep FILE
 *       fills FILE (a new database) and stops there: the file the reports'
 *       numbers at scale are measured on (docs/PERFORMANCE.md).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "arena_db.h"
#include "arena_fill.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next_rand(void) { return arena_fill_rand(&rng); }

static const char WDL[] =
    "SELECT count(*), sum(score = 1.0), sum(score > 0.0 AND score < 1.0), sum(score = 0.0)"
    " FROM match_seats WHERE bot_id = :bot";
static const char PAGE[] =
    "SELECT m.id, m.game, m.reason, s.seat, s.bot_id, s.score"
    " FROM (SELECT match_id FROM match_seats WHERE bot_id = :bot"
    "       ORDER BY match_id DESC LIMIT 50) p"
    " JOIN matches m ON m.id = p.match_id JOIN match_seats s ON s.match_id = m.id"
    " ORDER BY m.id DESC, s.seat";

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* p50 and p99 in microseconds of `sql` (binding :bot) over `n` bots
 * (random ones, or always `bot`), after one pass to warm the cache. */
static void time_query(const char *path, const char *sql, int bots, int64_t bot, int n,
                       const char *label)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "bench: %s\n", sqlite3_errmsg(h));
        exit(1);
    }
    double *us = malloc((size_t)n * sizeof *us);
    long rows = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            double t0 = now();
            int64_t b = bot ? bot : 1 + (int64_t)(next_rand() % (uint64_t)bots);
            sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":bot"), b);
            while (sqlite3_step(st) == SQLITE_ROW)
                rows += pass;
            sqlite3_reset(st);
            us[i] = (now() - t0) * 1e6;
        }
    qsort(us, (size_t)n, sizeof *us, by_double);
    printf("%-32s p50 %7.0f us, p99 %7.0f us, %.1f rows\n", label, us[n / 2], us[n * 99 / 100],
           (double)rows / n);
    free(us);
    sqlite3_finalize(st);
    sqlite3_close(h);
}

static void time_pages(const char *path, int bots, int64_t retired, const char *how)
{
    char label[64];
    snprintf(label, sizeof label, "a bot's page (%s):", how);
    time_query(path, PAGE, bots, 0, 2000, label);
    snprintf(label, sizeof label, "the retired bot's page (%s):", how);
    time_query(path, PAGE, bots, retired, 50, label);
    snprintf(label, sizeof label, "a bot's W-D-L (%s):", how);
    time_query(path, WDL, bots, 0, 200, label);
}

int main(int argc, char **argv)
{
    long matches = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    int bots = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 1000;
    const char *keep = argc == 5 && !strcmp(argv[3], "--keep") ? argv[4] : NULL;
    if (matches < 20000 || bots < 4 || (argc > 3 && !keep)) {
        fprintf(stderr, "usage: bench_arena_db [MATCHES >= 20000 [BOTS >= 4 [--keep FILE]]]\n");
        return 2;
    }
    char dir[] = "/tmp/bench_arena_db.XXXXXX", path[1024], err[512];
    if (keep && access(keep, F_OK) == 0) {
        fprintf(stderr, "bench: %s exists\n", keep);
        return 2;
    }
    if (!keep && !mkdtemp(dir))
        return 1;
    if (keep)
        snprintf(path, sizeof path, "%s", keep);
    else
        snprintf(path, sizeof path, "%s/arena.db", dir);
    arena_db *db = NULL;
    if (arena_db_open(&db, path, 1, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    for (int i = 0; i <= bots; i++) {
        arena_bot b = {0};
        snprintf(b.name, sizeof b.name, i < bots ? "bot%d" : "retired", i);
        snprintf(b.cmd, sizeof b.cmd, "true");
        arena_db_bot_add(db, &b, err, sizeof err);
    }
    int64_t retired = bots + 1;
    double t0 = now(), first = 0, last_start = 0;
    for (long i = 0; i < matches; i++) {
        if (i == matches - 10000)
            last_start = now();
        arena_match m;
        arena_fill_match(&m, bots, i < 10000 && i % 10 == 0 ? retired : 0, &rng);
        if (arena_db_match_store(db, &m, err, sizeof err) != 0) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        if (i == 9999)
            first = now() - t0;
    }
    double last = now() - last_start, fill = now() - t0;
    printf("%ld matches, %d bots: stored in %.1f s; first 10000 at %.0f/s, last 10000 at %.0f/s\n",
           matches, bots, fill, 10000 / first, 10000 / last);
    if (keep) {
        arena_db_close(db);
        return 0;
    }

    time_pages(path, bots, retired, "index");
    double t1 = now();
    arena_rating *r = NULL;
    int n = arena_db_results(db, 0, &r);
    printf("results of every bot over every match: %.0f ms (%d bots)\n", (now() - t1) * 1e3, n);
    free(r);
    t1 = now();
    int rc = arena_db_check_ratings(db, err, sizeof err);
    printf("ratings replay check: %.1f s (%s)\n", now() - t1, rc == 0 ? "equal" : err);
    arena_db_close(db);

    sqlite3 *h = NULL;
    sqlite3_open(path, &h);
    sqlite3_exec(h, "DROP INDEX match_seats_bot", NULL, NULL, NULL);
    sqlite3_close(h);
    time_pages(path, bots, retired, "no index");
    static const char *const files[] = { "arena.db", "arena.db-wal", "arena.db-shm" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    return rmdir(dir) == 0 ? 0 : 1;
}

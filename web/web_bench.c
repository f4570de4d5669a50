/*
 * web_bench.c - `arena bench --web`: the web at scale. Fills a fresh
 * database with N matches among B bots (arena_fill.h, through
 * arena_db_match_store like real ones; 2-seat matches are of the default game,
 * and every 100th carries the record of a real random game, so replays
 * re-simulate; one in 50 is forfeited; the newest 100,000 keep their
 * seats' logs, but a silent tenth of the bots never logs), starts the
 * server in this process on a loopback port, and times each route from C
 * concurrent keep-alive clients: p50, p99, max.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "arena_fill.h"
#include "arena_read.h"
#include "clk.h"
#include "game.h"
#include "kv.h"
#include "ref_record.h"
#include "web.h"
#include "web_bench.h"

#define RECORDS 64

/* A random War Chest game as record text (malloc'ed), from `seed`. */
static char *random_record(uint64_t seed, uint64_t *hash, int *decisions, double score[2])
{
    const game_api *g = game_default();
    game_options *o = game_options_new(g);
    void *s = calloc(1, g->state_size);
    ref_record r;
    ref_record_init(&r);
    g->init(s, o, seed);
    snprintf(r.game, sizeof r.game, "%s", g->name);
    game_options_format(o, r.options, sizeof r.options);
    r.seed = seed;
    r.seats = 2;
    for (int i = 0; i < 2; i++)
        snprintf(r.name[i], sizeof r.name[i], "bot");
    uint64_t rng = seed | 1;
    game_action legal[GAME_MAX_ACTIONS];
    while (g->to_move(s) >= 0) {
        int n = g->legal(s, legal);
        game_action a = legal[arena_fill_rand(&rng) % (uint64_t)n];
        ref_decision d = { .action = a, .micros = 1000, .cpu_us = REF_UNMEASURED,
                           .wait_us = REF_UNMEASURED, .seat = (uint8_t)g->to_move(s),
                           .log_end = REF_LOG_UNMARKED };
        ref_record_add(&r, &d);
        g->apply(s, a);
    }
    g->result(s, r.score, r.reason, sizeof r.reason, r.detail, sizeof r.detail);
    r.culprit = -1;
    r.hash = *hash = g->hash(s);
    *decisions = (int)r.ndecisions;
    score[0] = r.score[0], score[1] = r.score[1];
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ref_record_write(&r, g, f);
    fclose(f);
    ref_record_free(&r);
    game_options_free(o), free(s);
    return text;
}

/* What a log retention (--keep-logs) leaves: logs on the newest matches
 * only, from every bot but the silent tenth. */
#define LOGGED_MATCHES 100000

static int bench_logs(const arena_match *m, arena_log *logs, char text[][96])
{
    int n = 0;
    for (int i = 0; i < m->seats; i++) {
        if (m->bot[i] % 10 == 0)
            continue;
        int len = snprintf(text[n], sizeof text[n], "seat %d: search depth 3, 1200 nodes\n"
                           "seat %d: best line found\n", i, i);
        logs[n] = (arena_log){ .seat = i, .bytes = (uint64_t)len, .text = text[n],
                               .len = (size_t)len };
        n++;
    }
    return n;
}

static int fill(const char *path, long matches, int bots, char *err, size_t size)
{
    arena_db *db;
    if (arena_db_open(&db, path, 1, err, size) != 0)
        return -1;
    for (int i = 0; i < bots; i++) {
        arena_bot b = {0};
        snprintf(b.name, sizeof b.name, "bot%d", i);
        snprintf(b.cmd, sizeof b.cmd, "true");
        arena_db_bot_add(db, &b, err, size);
    }
    struct { char *text; uint64_t seed, hash; int decisions; double score[2]; } rec[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
        rec[i].seed = 1000 + (uint64_t)i;
        rec[i].text = random_record(rec[i].seed, &rec[i].hash, &rec[i].decisions, rec[i].score);
    }
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    double t0 = clk_mono_s();
    int rc = 0;
    for (long i = 0; i < matches && rc == 0; i++) {
        arena_match m;
        arena_fill_match(&m, bots, 0, &rng);
        if (m.seats == 2) {
            snprintf(m.game, sizeof m.game, "%s", game_default()->name);
            if (i % 100 == 0) {
                int k = (int)(i / 100 % RECORDS);
                m.record = rec[k].text;
                m.seed = rec[k].seed;
                m.hash = rec[k].hash;
                m.decisions = rec[k].decisions;
                m.score[0] = rec[k].score[0], m.score[1] = rec[k].score[1];
                m.culprit = -1;                 /* the record's game ended on the board */
                snprintf(m.reason, sizeof m.reason, "markers");
                m.detail[0] = 0;
            }
        }
        m.started_ms = m.finished_ms = 1700000000000 + i * 100;
        arena_log logs[ARENA_MAX_SEATS];
        char text[ARENA_MAX_SEATS][96];
        if (i >= matches - LOGGED_MATCHES)
            m.nlogs = bench_logs(&m, logs, text), m.logs = logs;
        rc = arena_db_match_store(db, &m, err, size) == 0 ? 0 : -1;
        if ((i + 1) % 100000 == 0)
            fprintf(stderr, "bench: %ld matches stored (%.0f/s)\n", i + 1, (i + 1) / (clk_mono_s() - t0));
    }
    for (int i = 0; i < RECORDS; i++)
        free(rec[i].text);
    arena_db_close(db);
    return rc;
}

/* ---- clients ------------------------------------------------------------ */

typedef struct route_stats { const char *name; double *ms; int n; } route_stats;

typedef struct client {
    int port, requests, bots;
    long matches;
    const int64_t *replays;   /* ids of matches stored with a record */
    int nreplays;
    uint64_t rng;
    route_stats *routes;      /* one slot per route, this client's own */
    int failed;
} client;

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* GET path on a keep-alive connection; the status, or -1. */
static int get(int fd, const char *path, char *buf, size_t size)
{
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
    if (write(fd, req, (size_t)n) != n)
        return -1;
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        ssize_t r = read(fd, buf + have, size - have - 1);
        if (r <= 0)
            return -1;
        have += (size_t)r;
        buf[have] = 0;
        end = strstr(buf, "\r\n\r\n");
    }
    const char *cl = strstr(buf, "Content-Length: ");
    int64_t body = 0;
    char num[24] = "";
    if (cl)
        sscanf(cl + 16, "%23[0-9]", num);
    if (!cl || kv_i64(num, 0, INT64_MAX, &body) != 0)
        return -1;
    int status = atoi(buf + 9);
    size_t got = have - (size_t)(end + 4 - buf);
    while (got < (size_t)body) {
        ssize_t r = read(fd, buf, size - 1 < (size_t)body - got ? size - 1 : (size_t)body - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return status;
}

enum { R_STANDINGS, R_GAMES, R_PAGE, R_BOT_PAGE, R_BOT, R_REPLAY, R_N };
static const char *const route_names[R_N] = {
    "leaderboard  /api/standings", "kinds        /api/games", "match list   /api/matches?before=",
    "bot's list   /api/matches?bot=", "bot page     /api/bots/NAME", "replay       /api/matches/ID",
};

static void *client_main(void *arg)
{
    client *c = arg;
    char *buf = malloc(1 << 20);
    int fd = connect_to(c->port);
    for (int i = 0; i < c->requests && fd >= 0 && buf; i++) {
        int r = i % R_N;
        char path[256];
        uint64_t x = arena_fill_rand(&c->rng);
        long id = 1 + (long)(x % (uint64_t)c->matches);
        switch (r) {
        case R_STANDINGS: snprintf(path, sizeof path, "/api/standings?game=%s&players=2", game_default()->name); break;
        case R_GAMES: snprintf(path, sizeof path, "/api/games"); break;
        case R_PAGE: snprintf(path, sizeof path, "/api/matches?before=%ld&limit=50", id + 1); break;
        case R_BOT_PAGE:
            snprintf(path, sizeof path, "/api/matches?bot=bot%d&before=%ld", (int)(x % (uint64_t)c->bots), id + 1);
            break;
        case R_BOT: snprintf(path, sizeof path, "/api/bots/bot%d", (int)(x % (uint64_t)c->bots)); break;
        default:
            snprintf(path, sizeof path, "/api/matches/%lld",
                     (long long)c->replays[x % (uint64_t)c->nreplays]);
        }
        double t0 = clk_mono_s();
        int status = get(fd, path, buf, 1 << 20);
        double ms = (clk_mono_s() - t0) * 1e3;
        if (status != 200) {
            fprintf(stderr, "bench: %s -> %d\n", path, status);
            c->failed = 1;
            break;
        }
        c->routes[r].ms[c->routes[r].n++] = ms;
    }
    if (fd >= 0)
        close(fd);
    free(buf);
    return NULL;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run_clients(int port, int nclients, int requests, long matches, int bots,
                       const int64_t *replays, int nreplays)
{
    client *cs = calloc((size_t)nclients, sizeof *cs);
    pthread_t *t = calloc((size_t)nclients, sizeof *t);
    for (int i = 0; i < nclients; i++) {
        cs[i] = (client){ .port = port, .requests = requests, .matches = matches, .bots = bots,
                          .replays = replays, .nreplays = nreplays, .rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1) };
        cs[i].routes = calloc(R_N, sizeof *cs[i].routes);
        for (int r = 0; r < R_N; r++)
            cs[i].routes[r].ms = calloc((size_t)requests, sizeof(double));
        pthread_create(&t[i], NULL, client_main, &cs[i]);
    }
    int failed = 0;
    for (int i = 0; i < nclients; i++) {
        pthread_join(t[i], NULL);
        failed |= cs[i].failed;
    }
    printf("%d clients, %d requests each, over loopback:\n", nclients, requests);
    printf("  %-36s %7s %8s %8s %8s\n", "route", "n", "p50 ms", "p99 ms", "max ms");
    for (int r = 0; r < R_N; r++) {
        int n = 0;
        double *all = calloc((size_t)nclients * (size_t)requests, sizeof(double));
        for (int i = 0; i < nclients; i++)
            for (int k = 0; k < cs[i].routes[r].n; k++)
                all[n++] = cs[i].routes[r].ms[k];
        qsort(all, (size_t)n, sizeof *all, by_double);
        if (n)
            printf("  %-36s %7d %8.2f %8.2f %8.2f\n", route_names[r], n, all[n / 2],
                   all[(int)(n * 0.99)], all[n - 1]);
        free(all);
    }
    for (int i = 0; i < nclients; i++) {
        for (int r = 0; r < R_N; r++)
            free(cs[i].routes[r].ms);
        free(cs[i].routes);
    }
    free(cs), free(t);
    return failed ? 1 : 0;
}

/* Ids of the matches stored with a record: what the replay route reads. */
static int replay_ids(const char *path, int64_t **out)
{
    arena_db *db;
    char err[256];
    *out = NULL;
    if (arena_db_open_readonly(&db, path, err, sizeof err) != 0)
        return 0;
    int n = arena_read_recorded(db, out);
    arena_db_close(db);
    return n > 0 ? n : 0;
}

static const char usage[] =
    "usage: arena bench --web [--matches N] [--bots B] [--clients C] [--requests R] [--keep FILE]\n"
    "  fills a database (default 1000000 matches, 1000 bots; --keep FILE keeps it, or\n"
    "  reuses FILE when it exists), serves it on loopback and times every route from C\n"
    "  concurrent clients (default 4), R requests each (default 3000)\n";

static int bench(long matches, int bots, int clients, int requests, const char *keep)
{
    char dir[] = "/tmp/arena-bench-web.XXXXXX", path[1100], err[512];
    if (!keep && !mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s", keep ? keep : dir);
    if (!keep)
        snprintf(path, sizeof path, "%s/arena.db", dir);
    double t0 = clk_mono_s();
    if (access(path, F_OK) != 0 && fill(path, matches, bots, err, sizeof err) != 0) {
        fprintf(stderr, "arena: bench --web: %s\n", err);
        return 1;
    }
    printf("%ld matches, %d bots: filled in %.1f s\n", matches, bots, clk_mono_s() - t0);
    web_options o = { .db_path = path, .listen = "127.0.0.1:0", .threads = 8 };
    web_server *s;
    if (web_start(&o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "arena: bench --web: %s\n", err);
        return 1;
    }
    /* The first leaderboard computes the fit; every later one is cached. */
    int fd = connect_to(web_port(s));
    char *buf = malloc(1 << 20);
    t0 = clk_mono_s();
    char first[128];
    snprintf(first, sizeof first, "/api/standings?game=%s&players=2", game_default()->name);
    int status = get(fd, first, buf, 1 << 20);
    printf("first leaderboard (the fit, then cached): %.0f ms (status %d)\n",
           (clk_mono_s() - t0) * 1e3, status);
    close(fd);
    free(buf);
    int64_t *replays = NULL;
    int nreplays = replay_ids(path, &replays);
    int rc = nreplays > 0 ? run_clients(web_port(s), clients, requests, matches, bots, replays,
                                        nreplays) : 1;
    free(replays);
    web_stop(s);
    if (!keep) {
        static const char *const files[] = { "arena.db", "arena.db-wal", "arena.db-shm" };
        for (size_t i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            unlink(path);
        }
        rmdir(dir);
    }
    return rc;
}

int web_bench_main(int argc, char **argv)
{
    int64_t matches = 1000000, bots = 1000, clients = 4, requests = 3000;
    const char *keep = NULL;
    for (int i = 0; i < argc; i++) {
        const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = !v;
        if (!bad && !strcmp(f, "--matches"))
            bad = kv_i64(v, 1000, 100000000, &matches) != 0;
        else if (!bad && !strcmp(f, "--bots"))
            bad = kv_i64(v, 4, 100000, &bots) != 0;
        else if (!bad && !strcmp(f, "--clients"))
            bad = kv_i64(v, 1, 256, &clients) != 0;
        else if (!bad && !strcmp(f, "--requests"))
            bad = kv_i64(v, 6, 10000000, &requests) != 0;
        else if (!bad && !strcmp(f, "--keep"))
            keep = v;
        else
            bad = 1;
        if (bad) {
            fputs(usage, stderr);
            return 2;
        }
        i++;
    }
    return bench((long)matches, (int)bots, (int)clients, (int)requests, keep);
}

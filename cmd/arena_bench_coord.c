/*
 * arena_bench_coord.c - `arena bench --coordinator`: how many matches one
 * coordinator takes in a minute. Simulated workers (threads of this
 * process, each a DEALER on the real worker link) answer each job at once
 * with a real record: the engine plays the job's game from the job's seed,
 * each seat taking a legal action at random (War Chest: a full-length game
 * of a few hundred decisions), so the arena's replay check runs as for any
 * worker. The arena is the real one: arena_tourney_run with its pool, the
 * replay of each record (arena_match_from_result) and the SQLite store.
 * Beside the rate it measures, in the same run, what one record's replay
 * costs alone, so the share of the replay in the arena's CPU is known.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>
#include "arena_bench.h"
#include "arena_db.h"
#include "arena_tourney.h"
#include "cli.h"
#include "clk.h"
#include "mps.h"
#include "mpw.h"
#include "pcg.h"
#include "ref_ready.h"
#include "ref_record.h"

#define MAX_SIMS 64

typedef struct sim {
    pthread_t   thread;
    const char *endpoint;
    int         capacity;         /* jobs it holds at once, said at ready */
    atomic_int *handed;           /* jobs received, all simulated workers */
    double      cpu_s;            /* its CPU making records */
    int         failed;
} sim;

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The record of `game` with `options` from `seed`, every seat playing at
 * random (its own generator, seeded by the seed): its text (malloc'ed), or
 * NULL. */
static char *play_record(const char *game, const char *options, uint64_t seed)
{
    const game_api *g = game_find(game);
    game_options *o = g ? game_options_new(g) : NULL;
    char err[256], *text = NULL;
    size_t len = 0;
    void *state = g ? malloc(g->state_size) : NULL;
    if (!o || !state || game_options_parse(o, options, err, sizeof err) < 0 ||
        g->init(state, o, seed)) {
        game_options_free(o);
        free(state);
        return NULL;
    }
    ref_record rec;
    ref_record_init(&rec);
    snprintf(rec.game, sizeof rec.game, "%s", g->name);
    game_options_format(o, rec.options, sizeof rec.options);
    rec.seed = seed;
    rec.seats = g->seats(state);
    for (int s = 0; s < rec.seats; s++) {
        snprintf(rec.name[s], sizeof rec.name[s], "sim");
        snprintf(rec.version[s], sizeof rec.version[s], "1");
    }
    pcg32 rng;
    pcg32_seed(&rng, seed, 54);
    game_action legal[GAME_MAX_ACTIONS];
    int seat;
    while ((seat = g->to_move(state)) >= 0) {
        int n = g->legal(state, legal);
        ref_decision d = { .action = legal[pcg32_next(&rng) % (uint32_t)n], .micros = 1,
                           .cpu_us = REF_UNMEASURED, .wait_us = REF_UNMEASURED,
                           .seat = (uint8_t)seat, .log_end = REF_LOG_UNMARKED };
        ref_record_add(&rec, &d);
        g->apply(state, d.action);
    }
    g->result(state, rec.score, rec.reason, sizeof rec.reason, rec.detail, sizeof rec.detail);
    rec.culprit = -1;
    rec.hash = g->hash(state);
    FILE *f = open_memstream(&text, &len);
    if (f) {
        ref_record_write(&rec, g, f);
        fclose(f);
    }
    ref_record_free(&rec);
    game_options_free(o);
    free(state);
    return text;
}

static void send_result(void *sock, msgpack_sbuffer *sb, int64_t id, const char *record)
{
    msgpack_packer pk;
    sb->size = 0;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 7);
    mpw_str(&pk, "type");        mpw_str(&pk, "result");
    mpw_str(&pk, "id");          msgpack_pack_int64(&pk, id);
    mpw_str(&pk, "error");       if (record) msgpack_pack_nil(&pk); else mpw_str(&pk, "no record");
    mpw_str(&pk, "record");      if (record) mpw_str(&pk, record); else msgpack_pack_nil(&pk);
    mpw_str(&pk, "started_ms");  msgpack_pack_int64(&pk, clk_wall_ms());
    mpw_str(&pk, "finished_ms"); msgpack_pack_int64(&pk, clk_wall_ms());
    mpw_str(&pk, "logs");        msgpack_pack_array(&pk, 0);
    zmq_send(sock, sb->data, sb->size, 0);
}

/* A simulated worker: ready, then a record for each job until stop. */
static void *sim_main(void *arg)
{
    sim *s = arg;
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 0;
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_ready hello;
    char err[160];
    s->failed = zmq_connect(sock, s->endpoint) < 0 || ref_ready_local(&hello, NULL, err,
                                                                       sizeof err) < 0;
    if (!s->failed) {
        hello.capacity = s->capacity;
        ref_ready_pack(&sb, &hello);
        zmq_send(sock, sb.data, sb.size, 0);
    }
    double t0 = thread_cpu_s();
    while (!s->failed) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0) {
            zmq_msg_close(&m);
            break;
        }
        msgpack_unpacked msg;
        char type[16] = "", game[32] = "", options[GAME_OPTIONS_TEXT_MAX + 1] = "";
        int64_t id = -1;
        uint64_t seed = 0;
        int ok = mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &msg) == 0;
        zmq_msg_close(&m);
        if (!ok)
            continue;
        mps_get_str(&msg.data, "type", type, sizeof type);
        mps_get_str(&msg.data, "game", game, sizeof game);
        mps_get_str(&msg.data, "options", options, sizeof options);
        mps_get_int(&msg.data, "id", &id);
        mps_get_u64(&msg.data, "seed", &seed);
        msgpack_unpacked_destroy(&msg);
        if (!strcmp(type, "stop"))
            break;
        if (strcmp(type, "job"))
            continue;
        atomic_fetch_add(s->handed, 1);
        char *record = play_record(game, options, seed);
        send_result(sock, &sb, id, record);
        free(record);
    }
    s->cpu_s = thread_cpu_s() - t0;
    msgpack_sbuffer_destroy(&sb);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return NULL;
}

/* Milliseconds of CPU one record's parse and replay take, over `n`
 * records of the default game from seeds 1..n (made first, not timed). */
static double replay_ms(int n)
{
    const game_api *g = game_default();
    char **texts = calloc((size_t)n, sizeof *texts);
    if (!texts)
        return -1;
    for (int i = 0; i < n; i++)
        texts[i] = play_record(g->name, "", (uint64_t)i + 1);
    double t0 = thread_cpu_s();
    int bad = 0;
    for (int i = 0; i < n; i++) {
        ref_record rec;
        const game_api *rg;
        char err[256];
        ref_record_init(&rec);
        bad += !texts[i] || ref_record_parse(&rec, &rg, texts[i], err, sizeof err) < 0 ||
               ref_record_verify(&rec, rg, err, sizeof err) < 0;
        ref_record_free(&rec);
    }
    double ms = (thread_cpu_s() - t0) * 1000 / n;
    for (int i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    return bad ? -1 : ms;
}

static double load_1min(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "re");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

/* The tournament the simulated workers answer, timed. 0, or -1. */
static int run_bench(const char *dir, int nsims, int capacity, int matches,
                     const char *referee, const char *bot)
{
    char path[256], endpoint[300], err[512];
    snprintf(path, sizeof path, "%s/coordinator.db", dir);
    snprintf(endpoint, sizeof endpoint, "ipc://%s/coordinator", dir);
    arena_db *db;
    arena_spec spec;
    if (arena_bench_db(path, bot, matches, &db, &spec) < 0)
        return -1;
    arena_run run = { .concurrency = 0, .referee = referee, .quiet = 1, .log_bytes = 0,
                      .keep_logs = -1 };
    run.remote.listen = endpoint;
    atomic_int handed = 0;
    sim sims[MAX_SIMS];
    for (int i = 0; i < nsims; i++) {
        sims[i] = (sim){ .endpoint = endpoint, .capacity = capacity, .handed = &handed };
        pthread_create(&sims[i].thread, NULL, sim_main, &sims[i]);
    }
    double load0 = load_1min(), t0 = clk_mono_s(), cpu0 = thread_cpu_s();
    int64_t tid;
    int rc = arena_tourney_run(db, &spec, &run, &tid, err, sizeof err);
    double t = clk_mono_s() - t0, cpu = thread_cpu_s() - cpu0, load1 = load_1min();
    double sim_cpu = 0;
    for (int i = 0; i < nsims; i++) {
        pthread_join(sims[i].thread, NULL);
        sim_cpu += sims[i].cpu_s;
    }
    arena_tournament tt;
    int stored = rc == 0 && arena_db_tournament_get(db, tid, &tt) == 0 ? tt.done : -1;
    arena_db_close(db);
    arena_db_unlink(path);
    if (rc < 0 || stored != matches) {
        fprintf(stderr, "arena: bench: %s\n", rc < 0 ? err : "not every match was stored");
        return -1;
    }
    double replay = replay_ms(200), per_min = 60.0 / t;
    printf("coordinator bench: %d %s matches, %d simulated workers (threads) of capacity %d,"
           " replay check on; load %.1f at start, %.1f at end (1-minute average; %ld cores)\n",
           matches, game_default()->name, nsims, capacity, load0, load1,
           sysconf(_SC_NPROCESSORS_ONLN));
    printf("handed out   %8.0f matches/min\n", atomic_load(&handed) * per_min);
    printf("verified     %8.0f matches/min (every record replayed; none refused)\n",
           stored * per_min);
    printf("stored       %8.0f matches/min\n", stored * per_min);
    printf("arena        %.3f ms of CPU a match (its thread: link, replay, store), %.1f s "
           "wall for all\n", cpu * 1000 / matches, t);
    printf("replay alone %.3f ms of CPU a match (parse + re-simulate, measured apart): %.0f%% "
           "of the arena's\n", replay, 100 * replay / (cpu * 1000 / matches));
    printf("workers      %.3f ms of CPU a match (the engine playing it at random)\n",
           sim_cpu * 1000 / matches);
    printf("coordinator: %.0f matches/min\n", stored * per_min);
    return 0;
}

int arena_bench_coord_main(int argc, char **argv, const char *referee, const char *bot)
{
    int nsims = 2, capacity = 8, matches = 20000;
    char err[256];
    const cli_flag flags[] = {
        CLI_NUM("--workers", CLI_INT, "N", "simulated workers (default 2)", &nsims, 1,
                MAX_SIMS),
        CLI_NUM("--capacity", CLI_INT, "C", "jobs each holds at once, as C workers would "
                "(default 8)", &capacity, 1, 64),
        CLI_NUM("--matches", CLI_INT, "M", "matches to store, even (default 20000)", &matches,
                2, 10000000),
        CLI_END,
    };
    int got = cli_parse(flags, argc, argv, NULL, NULL, 0, err, sizeof err);
    if (got == 1) {
        printf("usage: arena bench --coordinator [--workers N] [--capacity C] [--matches M]"
               "   matches a "
               "minute one arena takes from workers that answer at once\n");
        cli_help(stdout, flags);
        return 0;
    }
    if (got < 0 || matches % 2) {
        fprintf(stderr, "arena: bench --coordinator: %s\n",
                got < 0 ? err : "--matches must be even (seed pairs)");
        return 2;
    }
    char dir[] = "/tmp/arena-coord-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("arena: bench");
        return 1;
    }
    int rc = run_bench(dir, nsims, capacity, matches, referee, bot);
    char sock[64];
    snprintf(sock, sizeof sock, "%s/coordinator", dir);
    unlink(sock);
    rmdir(dir);
    return rc < 0 ? 1 : 0;
}

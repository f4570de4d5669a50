/*
 * bench_fetch.c - a stored bot's way to a remote worker, timed (part of
 * bench_store): over a real ZeroMQ link on tcp://127.0.0.1 with CURVE, as
 * remote workers join, a worker's `fetch` answered by the arena's own code
 * (arena_fetch_answer: the stored folder read, re-hashed and packed) and
 * taken into the worker's cache by its own (ref_cache_get: the archive
 * checked and hashed, then written read-only); the same for a second
 * worker (the arena keeps the archive); a cached start (the copy read and
 * hashed again before each use); and, against them, a bot already on
 * disk, which starts as it is (its process started: fork, exec, exit).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "arena_fetch.h"
#include "bench_fetch.h"
#include "mps.h"
#include "ref_cache.h"
#include "store.h"

typedef struct bench_link {
    void *ctx, *router, *dealer;
    arena_fetch *arena;
    ref_link_job job;             /* the match the worker holds: the bot */
    msgpack_sbuffer sb;
    double arena_ms;              /* the last fetch's time in arena_fetch_answer */
} bench_link;

static int open_link(bench_link *l, char *err, size_t size)
{
    char pub[41], sec[41], wpub[41], wsec[41], where[64];
    l->ctx = zmq_ctx_new();
    l->router = zmq_socket(l->ctx, ZMQ_ROUTER);
    l->dealer = zmq_socket(l->ctx, ZMQ_DEALER);
    int yes = 1;
    size_t len = sizeof where;
    if (zmq_curve_keypair(pub, sec) < 0 || zmq_curve_keypair(wpub, wsec) < 0 ||
        zmq_setsockopt(l->router, ZMQ_CURVE_SERVER, &yes, sizeof yes) < 0 ||
        zmq_setsockopt(l->router, ZMQ_CURVE_SECRETKEY, sec, 40) < 0 ||
        zmq_bind(l->router, "tcp://127.0.0.1:*") < 0 ||
        zmq_getsockopt(l->router, ZMQ_LAST_ENDPOINT, where, &len) < 0 ||
        zmq_setsockopt(l->dealer, ZMQ_CURVE_SERVERKEY, pub, 40) < 0 ||
        zmq_setsockopt(l->dealer, ZMQ_CURVE_PUBLICKEY, wpub, 40) < 0 ||
        zmq_setsockopt(l->dealer, ZMQ_CURVE_SECRETKEY, wsec, 40) < 0 ||
        zmq_connect(l->dealer, where) < 0) {
        snprintf(err, size, "the link: %s", zmq_strerror(zmq_errno()));
        return -1;
    }
    msgpack_sbuffer_init(&l->sb);
    return (l->arena = arena_fetch_new()) ? 0 : -1;
}

static void close_link(bench_link *l)
{
    zmq_close(l->router);
    zmq_close(l->dealer);
    zmq_ctx_term(l->ctx);
    msgpack_sbuffer_destroy(&l->sb);
    arena_fetch_free(l->arena);
}

/* ref_cache_fetch_fn: the worker asks, the arena answers, the worker
 * takes the archive (one thread plays both ends; ZeroMQ's own threads
 * carry the bytes). */
static int fetch(void *ctx, const char *hash, void **buf, size_t *len, char *err, size_t size)
{
    bench_link *l = ctx;
    l->sb.size = 0;
    ref_link_fetch_pack(&l->sb, l->job.id, hash);
    zmq_send(l->dealer, l->sb.data, l->sb.size, 0);
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    zmq_msg_recv(&id, l->router, 0);
    zmq_msg_recv(&body, l->router, 0);
    msgpack_unpacked m;
    int rc = -1;
    if (mps_decode(zmq_msg_data(&body), zmq_msg_size(&body), &m) == 0) {
        double t0 = bench_now_ms();
        int served = 0;
        rc = arena_fetch_answer(l->arena, &l->job, &m.data, "the bench's worker", &served,
                                &l->sb);
        l->arena_ms = bench_now_ms() - t0;
        msgpack_unpacked_destroy(&m);
    }
    zmq_msg_send(&id, l->router, ZMQ_SNDMORE);
    zmq_send(l->router, l->sb.data, l->sb.size, 0);
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    zmq_msg_t answer;
    zmq_msg_init(&answer);
    zmq_msg_recv(&answer, l->dealer, 0);
    ref_link_bot b;
    *buf = NULL;
    if (rc == 0 && mps_decode(zmq_msg_data(&answer), zmq_msg_size(&answer), &m) == 0) {
        if (ref_link_bot_read(&m.data, &b) == 0 && b.archive && (*buf = malloc(b.len))) {
            memcpy(*buf, b.archive, b.len);
            *len = b.len;
        }
        msgpack_unpacked_destroy(&m);
    }
    zmq_msg_close(&answer);
    if (!*buf)
        snprintf(err, size, "the fetch failed");
    return *buf ? 0 : -1;
}

/* A bot already on disk: its process started and ended (fork, exec). */
static double start_on_disk(const char *dir)
{
    double t0 = bench_now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) == 0)
            execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    return bench_now_ms() - t0;
}

int bench_fetch(const char *base, const char *stored, const char *hash, int runs,
                bench_fetch_times *out)
{
    char err[512], cache_dir[400], path[512];
    bench_link l;
    memset(&l, 0, sizeof l);
    if (open_link(&l, err, sizeof err) < 0)
        return fprintf(stderr, "bench_fetch: %s\n", err), -1;
    l.job.id = 1;
    l.job.nbots = 1;
    snprintf(l.job.hash[0], sizeof l.job.hash[0], "%s", hash);
    snprintf(l.job.cwd[0], sizeof l.job.cwd[0], "%s", stored);
    int rc = 0;
    for (int r = 0; r < runs && rc == 0; r++) {
        for (int w = 0; w < 2 && rc == 0; w++) {      /* a first worker, then a second */
            ref_cache c;
            snprintf(cache_dir, sizeof cache_dir, "%s/cache%d-%d", base, r, w);
            if (ref_cache_open(&c, cache_dir, 1024, err, sizeof err) < 0)
                return fprintf(stderr, "bench_fetch: %s\n", err), -1;
            double t0 = bench_now_ms(), c0 = bench_cpu_ms();
            rc = ref_cache_get(&c, hash, fetch, &l, path, sizeof path, err, sizeof err);
            out->first[w][r] = bench_now_ms() - t0;
            out->cpu[w == 0 ? 0 : 2][r] = bench_cpu_ms() - c0;
            out->arena[w][r] = l.arena_ms;
            t0 = bench_now_ms(), c0 = bench_cpu_ms();
            rc = rc ? rc : ref_cache_get(&c, hash, fetch, &l, path, sizeof path, err, sizeof err);
            out->cached[r] = bench_now_ms() - t0;
            out->cpu[3][r] = bench_cpu_ms() - c0;
            store_remove(path);
            rmdir(cache_dir);
        }
        arena_fetch_free(l.arena);        /* each run's first worker: packed afresh */
        l.arena = arena_fetch_new();
        out->on_disk[r] = start_on_disk(stored);
    }
    if (rc)
        fprintf(stderr, "bench_fetch: %s\n", err);
    close_link(&l);
    return rc;
}

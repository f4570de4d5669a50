/*
 * arena_pool_admit.c - which workers the pool admits (arena_pool_internal.h):
 * CURVE on the tcp endpoint with a key check that lets in the keys
 * --curve-workers lists and those the database admits (arena_pool_admit),
 * each message of an admitted worker carrying its key, so that a key
 * revoked later is refused at its next message; and a worker of another
 * link protocol told to stop before it is given a job it would misread.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "arena_pool_internal.h"
#include "mps.h"
#include "mpw.h"
#include "ref_worker.h"

/* CURVE on the tcp endpoint: the key check first (libzmq asks it during
 * each handshake), then the server key, set after the ipc endpoint was
 * bound so that local workers need none. */
int apool_curve_start(arena_pool *p, const arena_remote *r, char *err, size_t size)
{
    if (!r->curve_key)
        return 0;
    zauth_key secret;
    p->allowed = calloc(ZAUTH_MAX_KEYS, sizeof *p->allowed);
    if (!p->allowed) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (zauth_load(r->curve_key, secret, err, size) < 0 ||
        (r->curve_workers &&
         (p->nallowed = zauth_load_list(r->curve_workers, p->allowed, ZAUTH_MAX_KEYS, err,
                                        size)) < 0) ||
        !(p->zap = zauth_handler_open(p->ctx, err, size)))
        return -1;
    return zauth_server(p->sock, secret, err, size);
}

/* A `stop` that refuses a worker, with why (a word) and the arena's link
 * protocol, which the worker logs. */
static void pack_stop(arena_pool *p, const char *why)
{
    msgpack_packer pk;
    mpw_begin(&p->sb, &pk);
    mpw_message(&pk, "stop", 2);
    mpw_str(&pk, "reason");
    mpw_str(&pk, why);
    mpw_str(&pk, "protocol");
    msgpack_pack_int(&pk, REF_WORKER_PROTOCOL);
}

/* The key check's answer: a key --curve-workers lists, or the database
 * admits (arena_pool_admit). */
int apool_admitted(const arena_pool *p, const char *key)
{
    return zauth_listed(p->allowed, p->nallowed, key) ||
           zauth_listed(p->admitted, p->nadmitted, key);
}

/* zauth's callback: an admitted worker's messages carry its key, so a key
 * revoked later is refused at its next message. */
int apool_key_check(const char *key, void *ctx, char *user_id, size_t size)
{
    int yes = apool_admitted(ctx, key);
    snprintf(user_id, size, "%s", yes ? key : "unknown worker key");
    return yes;
}

/* A worker whose key is no longer admitted: told why, never given a job
 * again on that connection, its match handed to another worker (its late
 * result, from a worker lost, is ignored). */
void apool_refuse_revoked(arena_pool *p, worker *w)
{
    char name[128];
    apool_worker_name(w, (int)(w - p->workers), name, sizeof name);
    fprintf(stderr, "arena: refused %s: its key %.8s... was revoked\n", name, w->key);
    pack_stop(p, "key_revoked");
    apool_send(p, w);
    apool_lose(p, w, "a revoked worker");
    w->dropped = 1;
}

/* A worker that speaks another link protocol is told to stop and never
 * given a job: it would misread them. 1 when refused. */
int apool_refuse_version(arena_pool *p, const void *id, size_t idlen, const msgpack_object *m)
{
    int64_t version = -1, pid = 0;
    if (mps_get_int(m, "protocol", &version) == 0 && version == REF_WORKER_PROTOCOL)
        return 0;
    mps_get_int(m, "pid", &pid);
    fprintf(stderr, "arena: refused a worker (pid %" PRId64 ") that speaks link protocol %" PRId64
                    "; this arena speaks %d: run a referee of the same version\n",
            pid, version, REF_WORKER_PROTOCOL);
    pack_stop(p, "protocol_version");
    if (zmq_send(p->sock, id, idlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0)
        zmq_send(p->sock, p->sb.data, p->sb.size, ZMQ_DONTWAIT);
    for (int k = 0; k < p->nlocal; k++)
        if (p->local[k] == (pid_t)pid)     /* our own referee: restarting it cannot help */
            snprintf(p->fatal, sizeof p->fatal, "this arena's referee speaks worker link "
                     "protocol %" PRId64 ", the arena %d", version, REF_WORKER_PROTOCOL);
    return 1;
}

int arena_pool_admit(arena_pool *p, const zauth_key *keys, int n)
{
    zauth_key *copy = n ? malloc((size_t)n * sizeof *copy) : NULL;
    if (n && !copy)
        return -1;
    if (n)
        memcpy(copy, keys, (size_t)n * sizeof *copy);
    free(p->admitted);
    p->admitted = copy;
    p->nadmitted = n;
    for (int i = 0; i < p->nworkers; i++) {
        worker *w = &p->workers[i];
        if (!w->gone && w->ready && w->key[0] && !apool_admitted(p, w->key))
            apool_refuse_revoked(p, w);
    }
    return 0;
}

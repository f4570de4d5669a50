/*
 * arena_pool_internal.h - what the arena_pool*.c files share and nobody
 * else sees: the pool's layout (its workers and job slots), and the few
 * calls one file makes of the other.
 *
 * arena_pool.c        the ROUTER socket, local workers, the job queue,
 *                     results, lost workers and judged matches
 * arena_pool_admit.c  which workers may join: CURVE keys (--curve-workers
 *                     and the database's), revoked keys, the link protocol
 */
#ifndef ARENA_POOL_INTERNAL_H
#define ARENA_POOL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <msgpack.h>
#include "arena_fetch.h"
#include "arena_pool.h"
#include "ref_dir.h"
#include "ref_ready.h"
#include "zauth.h"

#define MAX_WORKERS 256

typedef struct worker {
    uint8_t identity[256];
    size_t  identity_len;
    pid_t   pid;              /* local workers; 0 for remote ones */
    int     ready;            /* has said hello */
    int     busy[ARENA_POOL_CAPACITY];   /* the jobs it plays: indexes into jobs */
    int     nbusy;
    int     capacity;         /* jobs it may hold at once: what it said at ready */
    int     gone;             /* lost; a local one's job is held until it is reaped */
    int     dropped;          /* sent records that do not replay: never again */
    int     refused;          /* its results refused so far */
    int64_t said_pid;         /* the pid its ready message gave (on its machine) */
    char    peer[64];         /* its address, for remote workers */
    ref_ready hello;          /* what it said at ready: the games it plays */
    zauth_key key;            /* its CURVE key, "" without: refused once not admitted */
    int64_t heard_ms;         /* its last message, wall clock (arena_pool_activity) */
    int     played;           /* results taken since arena_pool_activity last asked */
    int64_t told_ms;          /* heard_ms as arena_pool_activity last told it */
    int     fetched[ARENA_POOL_CAPACITY];  /* bots' files sent for each busy[] match
                                             * (arena_fetch.h) */
} worker;

#define REFUSALS_TO_DROP 2        /* a worker's refused results before it is dropped */
#define REFUSALS_PER_JOB 3        /* a job's refused results before the caller gives up */

/* A submitted job's slot. */
typedef struct job_slot {
    int  state;                   /* QUEUED, RUNNING, RETURNED or JUDGED */
    int  deaths;                  /* local workers that died holding it */
    int  status;                  /* how the last one died (waitpid status) */
    int  suspect;                 /* the seat a dead worker blamed (ref_blame.h), or -1 */
    char suspect_why[160];        /* ... and why */
    int  avoid;                   /* the worker slot whose result was refused, or -1 */
    int  refusals;                /* its results refused so far */
    int64_t handed_ms;            /* when a worker took it last, wall clock */
    char *progress;               /* its record so far, as that worker last sent it
                                   * (ref_link.h `progress`), or NULL */
} job_slot;

enum { QUEUED, RUNNING, RETURNED, JUDGED };   /* JUDGED: died twice, its verdict not yet read */

struct arena_pool {
    void    *ctx, *sock;
    ref_dir  dir;                 /* the ipc socket's folder: locked, swept if we are killed */
    char     endpoint[128], referee[1024];
    char     sandbox[16];         /* the local workers' --sandbox MODE, "" for theirs */
    char     listening[256];      /* the tcp endpoint bound, port resolved */
    worker   workers[MAX_WORKERS];
    int      nworkers;
    pid_t    local[MAX_WORKERS];  /* local worker pids, by start order */
    int      nlocal;
    arena_job *jobs;              /* submitted jobs; a returned one's slot is reused */
    job_slot *slot;               /* per job */
    int      njobs, capacity, pending;
    int64_t  probed_ms;           /* when busy workers were last probed */
    void    *zap;                 /* the key check, with CURVE; else NULL */
    zauth_key *allowed;           /* the workers' public keys it admits: --curve-workers' */
    int      nallowed;
    zauth_key *admitted;          /* ... and the database's (arena_pool_admit) */
    int      nadmitted;
    msgpack_sbuffer sb;
    char     fatal[256];          /* why the pool cannot go on: a local worker refused */
    int      affinity;            /* local worker k runs on the k-th allowed CPU */
    int      limit;               /* jobs handed out at once; 0: one per worker */
    arena_fetch *fetch;           /* bots' files sent to workers by hash (arena_fetch.h) */
};

/* ---- arena_pool.c ---- */

/* Sends p->sb to a worker: 0, or -1 (a peer that is gone is marked so). */
int  apool_send(arena_pool *p, worker *w);
/* A worker is lost: its matches go back in the queue, or are held until a
 * local one's process is reaped. */
void apool_lose(arena_pool *p, worker *w, const char *why);
/* How the log names a worker: its slot, pid and address. */
void apool_worker_name(const worker *w, int slot, char *buf, size_t size);

/* ---- arena_pool_admit.c ---- */

/* CURVE on the tcp endpoint (remote->curve_key), with its key check: 0, or
 * -1 with err. Nothing without a key. */
int  apool_curve_start(arena_pool *p, const arena_remote *r, char *err, size_t size);
/* 1 when a worker's key is admitted: --curve-workers lists it, or the
 * database does (arena_pool_admit). */
int  apool_admitted(const arena_pool *p, const char *key);
/* zauth's key check (ctx: the pool). */
int  apool_key_check(const char *key, void *ctx, char *user_id, size_t size);
/* A worker whose key is no longer admitted: told, dropped, its match
 * handed to another. */
void apool_refuse_revoked(arena_pool *p, worker *w);
/* A worker saying ready in another link protocol: told to stop (a local
 * one is fatal: p->fatal). 1 when refused, 0 when its protocol is ours. */
int  apool_refuse_version(arena_pool *p, const void *id, size_t idlen, const msgpack_object *m);

#endif

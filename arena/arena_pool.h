/*
 * arena_pool.h - referee workers and the matches handed to them.
 *
 * The pool binds a ROUTER socket (ipc:// in a private directory, plus an
 * optional tcp:// address for workers on other machines) and starts its
 * own local workers: `referee worker --connect ...` processes that die
 * with the arena. Jobs wait in a queue and go to whichever worker says it
 * is ready; a local worker that dies mid-match is replaced and its job
 * handed out again, so a match is either finished and reported, or played
 * again from scratch, at most ARENA_POOL_DEATHS times: a match that killed
 * that many local workers is judged instead (a forfeit of the seat a
 * worker blamed, else void: arena_match_from_verdict). A remote worker
 * whose connection is lost (its machine or container killed, the network
 * cut) is no death of its match, which is played again elsewhere.
 */
#ifndef ARENA_POOL_H
#define ARENA_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "arena_db.h"
#include "zauth.h"
#include "game.h"
#include "ref_link.h"

struct msgpack_object;

typedef struct arena_pool arena_pool;

/* A job: a match with its bots and terms, as the worker link carries it
 * (ref_link.h); its id is the caller's, a game_index. */
typedef ref_link_job arena_job;

/* 1 when a seat of job is a remote bot's, played through the arena's
 * relay: such a match is for this machine's workers only (the relay speaks
 * for the arena, with its key and its database's path, outside the sandbox:
 * nothing to hand to a remote worker). */
int  arena_job_relays(const arena_job *job);

/* A match whose local workers died this many times while playing it is not
 * played again: arena_pool_next returns its verdict instead (`deaths`). */
#define ARENA_POOL_DEATHS 2

/* The most jobs one worker holds at once, whatever capacity it states. */
#define ARENA_POOL_CAPACITY 64

typedef struct arena_job_result {
    int64_t id;
    int     deaths;               /* > 0: a verdict, not a result (arena_match_from_verdict) */
    int     culprit;              /* a verdict's seat a worker blamed before dying, or -1 */
    char   *error;                /* the referee could not run it, or the verdict's reason
                                   * (malloc'ed) */
    char   *record;               /* the match record text (malloc'ed) */
    int64_t started_ms, finished_ms;
    arena_log logs[ARENA_MAX_SEATS];   /* each seat's log excerpt, seat order */
    int     nlogs;
    int     worker, slot;         /* the pool's: who sent it, and its job (-1: none) */
} arena_job_result;

/* Where remote workers connect, and how they prove who they are (CURVE,
 * common/zauth.h): with a key, only the listed workers are admitted, and
 * the link is encrypted. The arena's own local workers use ipc:// in a
 * private directory and need no key. */
typedef struct arena_remote {
    const char *listen;           /* tcp://HOST:PORT, or NULL: local workers only */
    const char *curve_key;        /* the arena's secret key file, or NULL */
    const char *curve_workers;    /* the admitted workers' public keys, one a line, or NULL:
                                   * only the database's (arena_pool_admit) */
} arena_remote;

/* Starts `workers` local workers running `referee` (`referee worker
 * --sandbox MODE` when sandbox names one; NULL: the workers' default),
 * with `affinity` each on its own CPU (the k-th of those the arena may use,
 * cyclically: bots inherit it; a bot may still change its own);
 * remote->listen (remote may be NULL) also accepts remote workers there
 * (and then `workers` may be 0). NULL with err on failure. */
arena_pool *arena_pool_start(int workers, int affinity, const char *referee, const char *sandbox,
                             const arena_remote *remote, char *err, size_t size);
/* Hands out at most `jobs` at once from now on (at least 1), however many
 * workers are ready: the arena lowers its concurrency this way when the
 * machine is overloaded. */
void arena_pool_limit(arena_pool *p, int jobs);
int  arena_pool_submit(arena_pool *p, const arena_job *job);       /* 0 or -1 */
/* Waits up to timeout_ms for a result: 1 with *out filled (free it with
 * arena_job_result_free), 0 on time out, -1 if the pool broke (err). */
int  arena_pool_next(arena_pool *p, arena_job_result *out, int timeout_ms,
                     char *err, size_t size);
/* A result already received, without waiting and without handing out any
 * job: 1 with *out, 0 when none is waiting, -1 if the pool broke (err).
 * The arena stores a batch of results in one commit (arena_db_batch_begin)
 * taking them this way, so that no worker is given its next job before
 * its result is durable (arena_pool_next hands jobs out). */
int  arena_pool_take(arena_pool *p, arena_job_result *out, char *err, size_t size);
/* The result arena_pool_next just gave is refused: its record does not
 * answer its job or does not replay (why). Logged naming the worker; the
 * job goes back in the queue for another worker, and a worker with two
 * refused results is dropped (told to stop, never given a job again on
 * that connection). Call it before the next arena_pool_next. 0 when the
 * job is queued again, -1 when it was refused too often (3 times) or the
 * result is not the pool's: the caller gives up on it as on an error. */
int  arena_pool_refuse(arena_pool *p, const arena_job_result *res, const char *why);
int  arena_pool_pending(const arena_pool *p);    /* submitted, not yet returned */
/* With --curve-key: admits these keys too from now on, beside those of
 * --curve-workers (the database's workers: arena_workers.h). A connected
 * worker whose key is admitted no longer is refused at once and from its
 * next message on: told why (`stop`, reason key_revoked), never given a
 * job again, its match handed to another worker, its late result ignored.
 * 0, or -1 (out of memory: the list is unchanged). */
int  arena_pool_admit(arena_pool *p, const zauth_key *keys, int n);
/* Calls fn for each remote worker with a key heard from or with results
 * taken since the last call: its key, when it was last heard (wall clock)
 * and how many of its results were taken (less those refused). */
typedef void arena_pool_activity_fn(void *ctx, const char *key, int64_t heard_ms, int played);
void arena_pool_activity(arena_pool *p, arena_pool_activity_fn *fn, void *ctx);
/* The remote workers' endpoint as bound (tcp://0.0.0.0:7000, its port
 * resolved when `listen` asked for any: tcp://127.0.0.1:*), or "". */
const char *arena_pool_listening(const arena_pool *p);
int  arena_pool_workers(const arena_pool *p);    /* workers that said ready */
/* The matches in play: fn for each job a worker is playing, with when it
 * was handed out (wall clock) and its record so far (NULL until the
 * worker's first `progress`: ref_link.h), untrusted text. */
typedef void arena_pool_playing_fn(void *ctx, const arena_job *job, int64_t handed_ms,
                                   const char *record);
void arena_pool_playing(const arena_pool *p, arena_pool_playing_fn *fn, void *ctx);
void arena_pool_stop(arena_pool *p);              /* stops and reaps every worker */
void arena_job_result_free(arena_job_result *r);
/* A worker's `result` message into *out (free it with arena_job_result_free):
 * its id, its error or record text, its times and logs (ref_link_result_read).
 * Untrusted bytes (tests/fuzz/fuzz_worker_result.c). */
void arena_job_result_read(const struct msgpack_object *m, arena_job_result *out);

#endif

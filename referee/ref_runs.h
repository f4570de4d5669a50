/*
 * ref_runs.h - a worker's matches in flight: each job is played in a
 * process of its own (forked), which writes its packed `result` message
 * down a pipe and exits; the worker's loop polls the pipes beside its
 * socket, so that it keeps hearing the arena while matches run (a `stop`
 * that revokes it is obeyed at once) and plays up to its capacity at once.
 *
 * A match process that dies of a signal (its referee aborted: ref_blame.h)
 * is what a worker playing in-process died of: the worker takes the other
 * matches down and dies the same way (ref_runs_reap), so the arena counts
 * the death against that match as before.
 */
#ifndef REF_RUNS_H
#define REF_RUNS_H

#include <msgpack.h>
#include <stdint.h>
#include <sys/types.h>
#include <zmq.h>

#define REF_RUNS_MAX 64           /* matches a worker plays at once, at most */

/* Plays job `m` and packs its `result` message into sb (in the match's
 * own process); messages for the arena meanwhile (`progress`) go whole to
 * live_fd (ref_runs_tell), which the worker relays (ref_runs_relay). */
typedef void ref_runs_play_fn(const msgpack_object *m, msgpack_sbuffer *sb, int live_fd,
                              void *ctx);

typedef struct ref_run {
    pid_t   pid;
    int     fd;                   /* the read end of its pipe */
    int     live_fd;              /* its messages meanwhile: one packet each */
    int64_t id;                   /* the job's id, for an answer when it fails */
    char   *buf;                  /* its result message so far */
    size_t  len, cap;
} ref_run;

typedef struct ref_runs {
    ref_run run[REF_RUNS_MAX];
    int     n;
} ref_runs;

/* Starts job `m` (id `id`) in a process of its own that calls play. 0, or
 * -1 with err (no process or pipe). */
int  ref_runs_start(ref_runs *r, int64_t id, const msgpack_object *m, ref_runs_play_fn *play,
                    void *ctx, char *err, size_t size);
/* Fills items[0..r->n) with each run's pipe and items[r->n..2 r->n) with
 * its messages meanwhile, polled for input. */
void ref_runs_items(const ref_runs *r, zmq_pollitem_t *items);
/* In a match process: one message for the arena, sent whole or not at all,
 * never waiting (a match's clocks run; a full queue drops it). */
void ref_runs_tell(int live_fd, const void *msg, size_t len);
/* Sends on to sock every message run k has told meanwhile. */
void ref_runs_relay(ref_runs *r, int k, void *sock);
/* Reads what run k has written. 1 when it has ended: its message is in
 * *msg (malloc'ed, *len bytes; an `error` result when it ended without
 * one), run k is removed (the runs after it move down one); 0 while it
 * still runs. A run that died of a signal: the others are ended and the
 * caller dies of the same signal (see above). */
int  ref_runs_reap(ref_runs *r, int k, char **msg, size_t *len);
/* Ends every run (SIGTERM: a match process kills its bots first), reaps
 * them and returns how many there were. */
int  ref_runs_stop(ref_runs *r);

#endif

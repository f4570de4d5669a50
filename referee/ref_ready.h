/*
 * ref_ready.h - the worker link's `ready` message, both ends: a worker
 * states its link protocol, its pid, the games it can play and how many
 * matches it plays at once; the arena reads it (untrusted bytes), refuses
 * another protocol, and hands the worker only jobs of its games.
 * ARCHITECTURE.md ("The worker link") shows the message.
 */
#ifndef REF_READY_H
#define REF_READY_H

#include <msgpack.h>
#include <stdint.h>

#define REF_READY_GAMES 16        /* games a worker may name; more are ignored */

typedef struct ref_ready {
    int64_t protocol;             /* the link protocol it speaks; -1: not said */
    int64_t pid;                  /* on its machine */
    int     ngames;               /* 0: not said (any game) */
    char    games[REF_READY_GAMES][32];
    int     capacity;             /* matches at once; 1 when not said */
} ref_ready;

/* This referee's hello: protocol REF_WORKER_PROTOCOL, getpid(), every game
 * it has, or only those `only` names (comma-separated; NULL: all).
 * 0, or -1 with err naming a game it does not have. */
int  ref_ready_local(ref_ready *h, const char *only, char *err, size_t size);
/* Appends the `ready` message for h to sb. */
void ref_ready_pack(msgpack_sbuffer *sb, const ref_ready *h);
/* A `ready` message into *h; fields missing or malformed keep their
 * defaults (protocol -1, any game, capacity 1). */
void ref_ready_read(const msgpack_object *m, ref_ready *h);
/* 1 when the worker says it can play `game`. */
int  ref_ready_plays(const ref_ready *h, const char *game);

#endif

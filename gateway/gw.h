/*
 * gw.h - the gateway: participants submit bots over the network.
 *
 * `arena gateway --listen ENDPOINT` is the arena's one public entrance:
 * a ZeroMQ ROUTER socket with CURVE, every connection admitted by its
 * public key (a participant of the users table; ZAP, common/zauth.h),
 * each request read as untrusted msgpack (common/mps.h) and checked
 * field by field. A submission is a bot's files as a .tar.gz with its
 * name, version, games and command; the gateway stores them by content
 * hash (store/store.h), checks the bot from the stored copy in the
 * sandbox (the check `arena bot add` runs), registers the version under
 * its participant, and answers accepted or refused with the check's
 * verdict and the tail of its log. Bounded: a message's size, a rate per
 * participant, the checks running at once; every refusal is said to the
 * participant and logged.
 *
 * gw_cred.c    credentials files and the arena's own key pair
 * gw_proto.c   requests and replies on the wire, checked (pure)
 * gw_server.c  the gateway's loop: keys, limits, children, replies
 * gw_submit.c  one submission: store, check, register (in a child)
 * gw_client.c  `arena submit`: a request and its reply
 */
#ifndef GW_H
#define GW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena_db.h"
#include "zauth.h"

#define GW_PROTOCOL 1
#define GW_MAX_GAMES 8
#define GW_DEFAULT_RATE 20            /* submissions per participant per hour */
#define GW_DEFAULT_CONCURRENT 2       /* submissions checked at once */

/* ---- credentials (gw_cred.c) ------------------------------------------------ */

/* What a participant needs to submit: one file the organizer hands over. */
typedef struct gw_cred {
    char name[64];
    char endpoint[256];
    zauth_key server_public;  /* the arena's */
    zauth_key secret;         /* the participant's own */
} gw_cred;

/* Writes c to a new file (0600; an existing one is never overwritten). */
int gw_cred_write(const char *path, const gw_cred *c, char *err, size_t size);
/* Reads and checks a credentials file: 0, or -1 with err. */
int gw_cred_read(const char *path, gw_cred *c, char *err, size_t size);
/* The arena's key pair, kept beside the database: DB.key (secret, 0600)
 * and DB.key.pub, made the first time when `create`. 0, or -1 with err. */
int gw_arena_keys(const char *db_path, int create, zauth_key pub, zauth_key secret, char *err,
                  size_t size);

/* ---- the wire (gw_proto.c) -------------------------------------------------- */

typedef enum gw_op { GW_SUBMIT, GW_LIST, GW_DISABLE, GW_RETIRE } gw_op;

/* A request, as read from a participant: every text checked (names and
 * versions of [A-Za-z0-9_.-], games known to the registry, the command
 * printable UTF-8). On the wire it is two frames: this header (msgpack)
 * and the archive's bytes, as they are (a submission's second frame),
 * which the request points at. */
typedef struct gw_request {
    gw_op op;
    char name[64], version[64];
    char games[GW_MAX_GAMES][32];
    int ngames;
    char cmd[1024];
    char bot[128];            /* disable, retire: NAME or NAME@VERSION */
    char reason[200];         /* disable, retire: why, shown with the bot */
    const void *archive;
    size_t archive_len;
} gw_request;

/* A reply: accepted (1) or refused (0), a line, the check's log tail (or
 * the participant's bots for a list), the content hash when stored. */
typedef struct gw_reply {
    int accepted;
    char message[1024];
    char *text;               /* malloc'ed, may be NULL */
    char hash[65];
} gw_reply;

/* Into *buf (malloc'ed; a request's header, not its archive). 0, or -1. */
int gw_request_write(const gw_request *r, void **buf, size_t *len);
int gw_reply_write(const gw_reply *r, void **buf, size_t *len);
/* From a peer's bytes: 0, or -1 with why (said to the participant). */
int gw_request_read(const void *data, size_t len, gw_request *r, char *why, size_t size);
int gw_reply_read(const void *data, size_t len, gw_reply *r, char *why, size_t size);
void gw_reply_free(gw_reply *r);
/* Whether text is a valid name or version: 1-63 of [A-Za-z0-9_.-]. */
int gw_name_ok(const char *text);

/* ---- the gateway (gw_server.c, gw_submit.c) --------------------------------- */

/* The check `bot add` runs (cmd/: ac_bot_check), in the games the bot
 * declares (ngames 0: none declared: every game, keeping those it passes):
 * 0 it plays, with the games it is registered for in plays (registry
 * names, space-separated); 1 it does not (why), 2 it cannot be tried; its
 * report written to out. */
typedef int gw_check_fn(const char *label, const char *cmd, const char *cwd,
                        const char (*games)[32], int ngames, FILE *out, char *plays,
                        size_t plays_size, char *why, size_t size);

typedef struct gw_config {
    const char *db_path;
    const char *listen;
    uint64_t max_bytes;       /* a submission as sent, and its files unpacked */
    int max_files;
    int rate;                 /* submissions per participant per hour */
    int concurrent;           /* checks at once */
    gw_check_fn *check;
    const volatile int *stop; /* set by a signal: finish and return */
    FILE *log;                /* a line per request and refusal */
} gw_config;

/* Runs the gateway until *stop: 0, or -1 with err (it could not start). */
int gw_serve(const gw_config *c, char *err, size_t size);

/* One submission from user_id, run in a child of the gateway: stores the
 * archive, checks the bot from the stored copy, registers it. */
void gw_submit(const gw_config *c, int64_t user_id, const gw_request *r, size_t sent,
               gw_reply *out);
/* The participant's own bots, as a table, into out->text. */
void gw_list(const char *db_path, int64_t user_id, gw_reply *out);
/* Disables or retires one of the participant's own bots (r->op). */
void gw_change(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out);

/* ---- submitting (gw_client.c) ----------------------------------------------- */

/* Sends r with the credentials and waits up to timeout_ms for the reply.
 * 0 answered (*out), -1 with err (no answer, key refused). */
int gw_call(const gw_cred *c, const gw_request *r, int timeout_ms, gw_reply *out, char *err,
            size_t size);

#endif

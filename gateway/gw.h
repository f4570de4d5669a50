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
#define GW_REMOTE_CMD "(remote: arena connect)"   /* a remote bot's registered command */

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

typedef enum gw_op { GW_SUBMIT, GW_LIST, GW_DISABLE, GW_RETIRE, GW_REMOTE } gw_op;

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
/* Registers a remote bot of user_id's (no files, no check: it plays from
 * their machine through `arena connect`), in the games it names. */
void gw_register_remote(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out);
/* The participant's own bots, as a table, into out->text. */
void gw_list(const char *db_path, int64_t user_id, gw_reply *out);
/* Disables or retires one of the participant's own bots (r->op). */
void gw_change(arena_db *db, int64_t user_id, const gw_request *r, gw_reply *out);

/* ---- submitting (gw_client.c) ----------------------------------------------- */

/* Sends r with the credentials and waits up to timeout_ms for the reply.
 * 0 answered (*out), -1 with err (no answer, key refused). */
int gw_call(const gw_cred *c, const gw_request *r, int timeout_ms, gw_reply *out, char *err,
            size_t size);

/* ---- remote bots (gw_rwire.c, gw_remote.c, gw_link.c) ------------------------ */

/*
 * A remote bot plays from its participant's machine: `arena connect` keeps
 * one CURVE connection to the gateway, bound to that participant's bot;
 * for a match the referee starts, in the seat's place, the arena's relay
 * (`arena relay`), which connects to the gateway with the arena's own key
 * and opens a session to that bot. The gateway passes each frame of a
 * session between the two and checks every one: a participant may send
 * only for the sessions of its own connection's bot. On the wire each
 * message is a header (msgpack map) and, for `data`, one frame of the
 * bot's or the referee's message as it is:
 *
 *   connect -> gateway: attach {bot}, ping {t}, data {session}+frame,
 *                       close {session, message, ended, status},
 *                       pong {session, t} (to a session's ping)
 *   gateway -> connect: attached {message}, refused {message}, pong {t},
 *                       ping {session, t} (a relay's, passed on),
 *                       start {session, token, seat, seed, message},
 *                       data {session}+frame, close {session, message},
 *                       error {message} (a frame refused; the connection stays)
 *   relay -> gateway:   open {bot_id, session, token, seat, seed}, ping {t},
 *                       ping {session, t} (the link's round trip, measured
 *                       through to the participant's connect and back),
 *                       data {session}+frame, close {session, message}
 *   gateway -> relay:   opened {session}, absent {session, message},
 *                       pong {t}, pong {session, t} (connect's, passed on),
 *                       data {session}+frame,
 *                       close {session, message, ended, status}
 * A close from connect with `ended` says the bot's process ended there
 * while the connection stayed (1 exited with `status`, 2 killed by signal
 * `status`): the seat loses as a local bot that exits does, not by
 * `disconnected`.
 */
#define GW_PING_MS 1000               /* each side's ping */
#define GW_SILENT_MS 6000             /* a side not heard this long is gone */
#define GW_FRAME_MAX (1 << 20)        /* a remote bot's message, at most */

typedef struct gw_rmsg {
    char type[16];
    uint64_t session;
    char bot[128];            /* attach: NAME or NAME@VERSION */
    int64_t bot_id;           /* open */
    int64_t t;                /* ping, pong: the sender's clock, echoed */
    int64_t seat;
    uint64_t seed;
    char token[80];
    char message[512];
    int64_t ended;            /* close: 1 the bot exited, 2 killed by a signal */
    int64_t status;           /* close: its exit status, or the signal */
} gw_rmsg;

/* Into *buf (malloc'ed). 0, or -1. */
int gw_rmsg_write(const gw_rmsg *m, void **buf, size_t *len);
/* A remote message from a peer's bytes, every field checked: 0, or -1
 * with why (not a remote message, or a bad field). */
int gw_rmsg_read(const void *data, size_t len, gw_rmsg *m, char *why, size_t size);
/* Sends m (and the frame when not NULL) on a DEALER socket: 0, or -1. */
int gw_rmsg_send(void *sock, const gw_rmsg *m, const void *frame, size_t frame_len);
/* Receives one message: header into m, the next frame (if any) into
 * *frame (zmq_msg_t, initialised here; close it). 1 got, 0 nothing, -1
 * a bad message (why). Frames past the second are dropped. */
int gw_rmsg_recv(void *sock, gw_rmsg *m, void *frame, char *why, size_t size);

typedef struct gw_remote gw_remote;
/* The gateway's remote side, sending on its ROUTER socket; relays are
 * told to reach it at relay_endpoint (kept in remote_bots). */
gw_remote *gw_remote_new(arena_db *db, void *sock, const gw_config *c,
                         const char *relay_endpoint);
void gw_remote_free(gw_remote *g);
/* A message from a participant (u, admitted and not revoked) or from the
 * arena's relay; payload is the data frame, or NULL. */
void gw_remote_participant(gw_remote *g, const arena_user *u, const void *routing, size_t rlen,
                           const gw_rmsg *m, const void *payload, size_t plen);
void gw_remote_relay(gw_remote *g, const void *routing, size_t rlen, const gw_rmsg *m,
                     const void *payload, size_t plen);
/* A participant's message refused (revoked): said, its connection let go. */
void gw_remote_refuse(gw_remote *g, const void *routing, size_t rlen, const char *line);
/* Ends what went silent; keeps the database's heard times. */
void gw_remote_tick(gw_remote *g, int64_t now_ms);
/* The gateway's log line (gw_server.c). */
void gw_say(const gw_config *c, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A DEALER socket to the gateway with CURVE (our secret key, its public
 * one), its monitor on *mon (for refused keys): the socket, or NULL. */
void *gw_link_open(void *ctx, const char *endpoint, const zauth_key server_public,
                   const zauth_key secret, void **mon, char *err, size_t size);
/* A monitor event: 1 the key was refused, 2 the connection closed, 3 the
 * handshake passed, 0 none (gw_client.c). */
int gw_monitor_event(void *mon);
void gw_link_close(void *sock, void *mon);

#endif

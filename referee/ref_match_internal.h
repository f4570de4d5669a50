/*
 * ref_match_internal.h - what the three files of the match loop share:
 * a match and its seats, and the calls between them. ref_match.c plays a
 * match from start to finish, asking for each decision; ref_match_io.c
 * holds the seats' sockets, the poll loop and the handshake. The clocks
 * (ref_turn.h) see only their own part of it. Nothing outside those files
 * includes it.
 */
#ifndef REF_MATCH_INTERNAL_H
#define REF_MATCH_INTERNAL_H

#include <stdint.h>
#include <msgpack.h>
#include "ref_match.h"
#include "ref_dir.h"
#include "ref_turn.h"

/* A dropped connection that comes back this fast, from a live bot, was
 * dropped by ZeroMQ for an oversized message: DEALER sockets reconnect on
 * their own. One that stays down was closed by the bot. */
#define DROP_GRACE_US 400000
/* A bot whose connection stays down is usually on its way out (a Python
 * traceback, then the interpreter's shutdown): its exit status says more
 * than "closed its connection", and it must read the same whichever seat
 * the bug sits in, however loaded the machine. */
#define EXIT_WAIT_US 3000000
#define END_GRACE_MS 500
#define KILL_GRACE_MS 200
/* How often the bots' control groups are checked for a limit hit while
 * the referee waits. */
#define LIMITS_EVERY_US 100000

typedef struct seat {
    void    *sock, *monitor;
    int      monitor_fd;        /* the monitor's ZMQ_FD: readable once an event waits */
    char     endpoint[300];
    char     token[33];
    uint8_t  identity[256], last_identity[256];
    size_t   identity_len, last_identity_len;
    int      last_fd;           /* the connection of the last message */
    int      greeted;
    int      fd;                /* the seat's own connection (ZMQ_SRCFD), once greeted */
    char     rejected[32];      /* before the hello: the reason of the last message */
    char     rejected_why[160]; /* dropped, and why (for a handshake timeout) */
    int      dropped_msgs;      /* messages from other connections, dropped */
    int      connections;       /* accepted on its endpoint (REF_SEAT_CONNECTIONS) */
    int      closed;            /* its endpoint closed for a flood */
    ref_proc proc;
    int      spawned;
    int      strikes;
    int64_t  dropped_at;        /* a disconnect seen, not yet judged */
    int      came_back;
    uint32_t stale_below;       /* late replies to ids below this are dropped */
    size_t   told;              /* decisions this seat has had updates for */
    int      may_have_exited;   /* its pidfd fired (or there is none) */
} seat;

typedef struct match {
    const ref_config *cfg;
    const game_api *g;
    void    *ctx;
    seat     seats[GAME_MAX_SEATS];
    int      n;
    void    *state;
    game_action *legal;
    ref_record *rec;
    ref_dir  folder;
    const char *dir;            /* folder.path */
    const ref_sandbox *sandbox;
    ref_limits limits;          /* the config's, with the terms' memory */
    int64_t  limits_checked;    /* when the cgroups were last looked at */
    ref_clocks clocks;          /* each seat's bank and meter (ref_turn.h) */
    int      over;              /* a forfeit ended it */
    msgpack_sbuffer sb;
    uint32_t next_id;
    uint64_t substitute_rng;
    const char **decision_names;    /* per recorded decision, for updates */
    int64_t  spawned;           /* control clock when the bots were started */
} match;

/* The time control's clock (the config's); grace periods and polling
 * read the machine's monotonic clock. */
static inline int64_t match_now(const match *m)
{
    return clk_now_us(m->cfg->clock);
}

/* ref_match.c */
/* Ends the match: the culprit's team loses, or nobody scores (contended). */
void match_forfeit(match *m, int culprit, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ref_match_io.c */
int  match_open_seat(match *m, int i, char *err, size_t size);
void match_start_bot(match *m, int i);
void match_handshake(match *m);
/* Every seat's connections counted, and its losses noted (its monitor
 * read); a seat over REF_SEAT_CONNECTIONS loses (if the match is not
 * over) and its endpoint is closed. */
void match_watch_endpoints(match *m);
/* Sends m->sb to seat i. 0, or -1 when the seat cannot be reached. */
int  match_send(match *m, int i);
/* The bots' cgroups looked at for limit hits (and pondering), every
 * LIMITS_EVERY_US, or at once when `now` is set. */
void match_check_limits(match *m, int now);
/* The next well-formed message before `until`: its seat, -1 when time ran
 * out, -2 after a forfeit. */
int  match_next_message(match *m, int64_t until, msgpack_unpacked *msg);

#endif

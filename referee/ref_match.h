/*
 * ref_match.h - one match between bot processes.
 *
 * ref_match_play starts every bot, greets it, asks whoever is to move for
 * a decision, tells every seat what happened as far as it may know, and
 * ends the match: by the game's own end, or by a seat's forfeit with a
 * reason code. It never trusts a bot and never waits longer than the time
 * control allows; when it returns, no bot process or descendant is left.
 */
#ifndef REF_MATCH_H
#define REF_MATCH_H

#include "clk.h"
#include "game.h"
#include "ref_proc.h"
#include "ref_record.h"
#include "ref_sandbox.h"
#include "ref_terms.h"
#include "ref_turn.h"

typedef struct ref_config {
    const game_api *game;
    const game_options *options;  /* the game's, already parsed */
    uint64_t seed;
    int      nbots;
    const char *bot_cmd[GAME_MAX_SEATS];
    const char *bot_cwd[GAME_MAX_SEATS];   /* NULL: the referee's */
    int      bot_relay[GAME_MAX_SEATS];    /* 1: the arena's relay to a remote bot, a
                                              trusted program run outside the sandbox;
                                              its exit REF_RELAY_GONE: `disconnected`;
                                              its notes: ref_relay.h */
    ref_terms terms;              /* time control and limits (ref_terms.h); its
                                     memory_mb, when not -1, overrides limits' */
    int      unmetered;           /* 1: no CPU or CPU-wait figures, the wall clock, no
                                     freezing: the bare match loop, against which
                                     `referee bench` prices the accounting */
    int64_t  max_message;         /* bytes, ZMQ_MAXMSGSIZE */
    ref_limits limits;
    const char *log_dir;          /* seatN.log files; NULL: a temporary dir */
    const char *transport;        /* "ipc" (default) or "tcp" */
    ref_sandbox_mode sandbox;     /* auto (default), none, strict: ref_sandbox.h */
    char *const *bot_env[GAME_MAX_SEATS];  /* NAME=VALUE, NULL-terminated
                                     (or NULL): what the bot's registration
                                     names */
    int      verbose;             /* progress lines on stderr */
    const clk_source *clock;      /* the time control's; NULL: the monotonic clock */
    /* Called after each decision is recorded (NULL: not): a worker tells
     * its arena the match so far (ref_worker.c). */
    void   (*on_decision)(void *ctx, const ref_record *rec);
    void    *on_decision_ctx;
} ref_config;

void ref_config_default(ref_config *c);

/* Reason codes a forfeit records (sdk/PROTOCOL.md explains each). */
#define REF_TIMEOUT        "timeout"
#define REF_CRASH          "crash"
#define REF_EXIT           "exit"
#define REF_DISCONNECT     "disconnect"
#define REF_DISCONNECTED   "disconnected"   /* a remote bot's connection to the arena lost */
#define REF_RELAY_GONE     75               /* the relay's exit status when it is */
#define REF_RELAY_ENDED    76               /* ... when the bot's process ended at its
                                               participant's machine (`crash`) */
#define REF_MALFORMED      "malformed"
#define REF_OVERSIZED      "oversized"
#define REF_ILLEGAL        "illegal_action"
#define REF_BAD_TOKEN      "bad_token"
#define REF_UNKNOWN_ID     "unknown_identity"
#define REF_OUT_OF_TURN    "out_of_turn"
#define REF_PROTOCOL       "protocol_version"
#define REF_MEMORY         "memory"
#define REF_PROCESSES      "processes"
#define REF_FLOOD          "flood"
/* A seat's endpoint accepts this many connections in a match (its bot's
 * own, and a reconnection or two); one more loses the seat the match
 * (REF_FLOOD), and its endpoint stops accepting. */
#define REF_SEAT_CONNECTIONS 16
/* Not a forfeit: a seat timed out while its CPU time was well under its
 * budget and it waited for a CPU for a large share of the time (the
 * machine was overloaded). Nobody scores; an arena plays the match again. */
#define REF_CONTENDED      "contended"

/* ARENA_BOT_SEED, the seed each seat's bot is given: from 1 to 2^31 - 1
 * (a number every language reads exactly), a function of the match seed
 * and the seat only, so a match played again gives each bot the same. */
uint32_t ref_bot_seed(uint64_t match_seed, int seat);

/* Plays the match into `rec` (ref_record_init'ed). Returns 0 when a
 * result was reached, however the bots behaved; -1 with `err` when the
 * referee itself could not run (no sockets, bad options). */
int ref_match_play(const ref_config *c, ref_record *rec, char *err, size_t size);

/* The ipc socket's name in each seat's folder. */
#define REF_SEAT_SOCKET "referee"

#endif

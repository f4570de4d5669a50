/*
 * ref_record.h - the match record: everything needed to replay a match and
 * check it, as a small line-based text file a person can read and diff.
 *
 *   arena-record 1
 *   game GAME                   (a name games/registry.c lists)
 *   options KEY=VALUE ...       (the game's options, canonical text)
 *   seed 42
 *   isolation auto env cgroup(v1: memory pids cpu cpuacct freezer) uid ns(...)
 *   bot 0 random 1.0
 *   bot 1 greedy 1.0
 *   clock cpu ceiling=3 between=frozen   (link<=250 after `between` with a remote seat)
 *   decision 0 0.412 cpu=0.398 wait=0.002 - ACTION   (in the game's notation)
 *   decision 1 0.380 cpu=0.301 wait=0.050 random ACTION   (substituted after a strike)
 *   result 0 1
 *   reason REASON               (the game's own, or a forfeit's)
 *   culprit -
 *   detail A SENTENCE
 *   hash 9a242d72fa7cc135
 *
 * The isolation line says how the bots were sandboxed (ref_sandbox.h);
 * records written before it existed have none.
 * The clock line says how decisions were charged (ref_match.h: the CPU or
 * the wall clock, the wall ceiling under the CPU clock as a multiple of the
 * time left, and what a bot could do between its turns: `frozen`, `ponder`,
 * or `charged` to its next decision).
 * A decision line is: seat, milliseconds the bot took (wall), then
 * optional KEY=VALUE fields (`cpu`: milliseconds of CPU all its processes
 * and threads used; `wait`: milliseconds its threads were runnable but
 * waiting for a CPU, summed over threads; `link`: a remote seat's, the
 * milliseconds of its wall time not charged for its link's round trip
 * (its allowance, at most its wall time), ref_turn.h; `log`:
 * where its seat's log ended), how the action came ("-" the
 * bot's own, "random" substituted by the referee), the action in the
 * game's notation. Records written before the clock line have neither it
 * nor the fields. Replaying (seed, options, actions) reproduces every
 * line but the measured times.
 */
#ifndef REF_RECORD_H
#define REF_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game.h"

#define REF_UNMEASURED UINT32_MAX   /* a cpu_us or wait_us not known */
#define REF_LOG_UNMARKED UINT64_MAX /* a log_end not known */

typedef struct ref_decision {
    game_action action;
    uint32_t    micros;        /* wall time the bot took */
    uint32_t    cpu_us;        /* CPU time it used, or REF_UNMEASURED */
    uint32_t    wait_us;       /* time it waited for a CPU, or REF_UNMEASURED */
    uint8_t     seat;
    uint8_t     substituted;   /* the referee chose it after a strike */
    uint8_t     remote;        /* a remote seat's: link_us is said */
    uint32_t    link_us;       /* remote: its wall time not charged for its link
                                * (its allowance, at most the wall time) */
    uint64_t    log_end;       /* the size of the seat's log file when the
                                * answer came (what it printed while deciding
                                * ends there), or REF_LOG_UNMARKED */
} ref_decision;

typedef struct ref_record {
    char     game[32];
    char     options[GAME_OPTIONS_TEXT_MAX + 1];
    uint64_t seed;
    int      seats;
    char     isolation[256];   /* the bots' sandbox; "" when not recorded */
    char     clock[64];        /* how decisions were charged; "" when not recorded */
    char     name[GAME_MAX_SEATS][64];
    char     version[GAME_MAX_SEATS][32];
    ref_decision *decisions;
    size_t   ndecisions, capacity;
    double   score[GAME_MAX_SEATS];
    char     reason[32];       /* the game's own, or a forfeit (timeout, crash, ...) */
    int      culprit;          /* the seat that forfeited, or -1 */
    char     detail[256];
    uint64_t hash;             /* of the final state */
    uint64_t play_micros;      /* wall time of the decisions (not written) */
    uint32_t hello_micros[GAME_MAX_SEATS];  /* from the bots' start to each seat's
                                               hello; 0: none came (not written) */
} ref_record;

void ref_record_init(ref_record *r);
void ref_record_free(ref_record *r);
int  ref_record_add(ref_record *r, const ref_decision *d);

int  ref_record_write(const ref_record *r, const game_api *g, FILE *f);
/* Returns 0, or -1 with a one-line reason naming the line at fault. */
int  ref_record_read(ref_record *r, const game_api **g, FILE *f, char *err, size_t size);
/* The same from a record's text (as the database and the worker link hold it). */
int  ref_record_parse(ref_record *r, const game_api **g, const char *text, char *err,
                      size_t size);

/* Re-simulates the record: every action legal in turn, the end as
 * recorded, the final hash equal. 0, or -1 with the first mismatch. */
int  ref_record_verify(const ref_record *r, const game_api *g, char *err, size_t size);
/* The same for a match in play (a worker's `progress`, ref_link.h): its
 * decisions so far, each legal in turn; its result lines say nothing. */
int  ref_record_verify_so_far(const ref_record *r, const game_api *g, char *err, size_t size);

#endif

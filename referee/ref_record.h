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
 *   decision 0 0.412 - ACTION   (in the game's notation)
 *   decision 1 0.380 random ACTION          (substituted after a strike)
 *   result 0 1
 *   reason REASON               (the game's own, or a forfeit's)
 *   culprit -
 *   detail A SENTENCE
 *   hash 9a242d72fa7cc135
 *
 * The isolation line says how the bots were sandboxed (ref_sandbox.h);
 * records written before it existed have none.
 * A decision line is: seat, milliseconds the bot took, how the action came
 * ("-" the bot's own, "random" substituted by the referee), the action in
 * the game's notation. Replaying (seed, options, actions) reproduces every
 * line but the measured times.
 */
#ifndef REF_RECORD_H
#define REF_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game.h"

typedef struct ref_decision {
    game_action action;
    uint32_t    micros;        /* time the bot took */
    uint8_t     seat;
    uint8_t     substituted;   /* the referee chose it after a strike */
} ref_decision;

typedef struct ref_record {
    char     game[32];
    char     options[GAME_OPTIONS_TEXT_MAX + 1];
    uint64_t seed;
    int      seats;
    char     isolation[256];   /* the bots' sandbox; "" when not recorded */
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
} ref_record;

void ref_record_init(ref_record *r);
void ref_record_free(ref_record *r);
int  ref_record_add(ref_record *r, int seat, game_action a, uint32_t micros, int substituted);

int  ref_record_write(const ref_record *r, const game_api *g, FILE *f);
/* Returns 0, or -1 with a one-line reason naming the line at fault. */
int  ref_record_read(ref_record *r, const game_api **g, FILE *f, char *err, size_t size);

/* Re-simulates the record: every action legal in turn, the end as
 * recorded, the final hash equal. 0, or -1 with the first mismatch. */
int  ref_record_verify(const ref_record *r, const game_api *g, char *err, size_t size);

#endif

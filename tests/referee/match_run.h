/*
 * match_run.h - the referee tests' harness: one match between the random
 * agent and badbot (badbot.c) in a chosen misbehaviour, played through
 * ref_match_play with real processes, and assertions on its record.
 *
 * Each test program's main sets badbot_path and random_path from its
 * arguments before running its tests.
 */
#ifndef MATCH_RUN_H
#define MATCH_RUN_H

#include <stddef.h>
#include "ref_match.h"
#include "ref_record.h"
#include "wc_game.h"

extern const char *badbot_path, *random_path;
/* Sets both from a test program's arguments, BADBOT RANDOM: 0, or -1
 * after a usage line. */
int run_paths(int argc, char **argv);

typedef struct run {
    ref_config cfg;
    game_options *options;
    ref_record rec;
    char cmd[GAME_MAX_SEATS][1024];
    char marker[64];
    char logdir[64];
    double seconds;
    clk_source clock;
} run;

/* A two-seat match between random agents, short time controls, no
 * address-space limit (sanitizer builds reserve terabytes), its own log
 * directory. Tests change what they need before run_play. */
run *run_new(void);
void run_option(run *r, const char *key, const char *value);
/* Seat `seat` runs badbot with `args` ("crash 3"). */
void run_badbot(run *r, int seat, const char *args);
/* The time control reads a clock the bots drive: it stands still but for
 * the "clock +MICROS" lines they write (badbot's `think`), so a decision
 * costs exactly what its bot says it took. */
void run_use_log_clock(run *r);
/* Plays, then checks that nothing was left behind. */
void run_play(run *r);
/* The bot output kept in seat's log, NUL-terminated; free it. */
char *run_log(const run *r, int seat, size_t *size);
void run_free(run *r);

void assert_verifies(const ref_record *rec);
/* The game ended by itself: markers or the round limit, no culprit. */
void assert_game_result(const ref_record *rec);
/* Seat `culprit` of two forfeited with `reason`: 0 for it, 1 for the other. */
void assert_forfeit(const ref_record *rec, const char *reason, int culprit);
/* Decisions seat made itself (own) and the referee substituted (subs). */
void count_decisions(const ref_record *rec, int seat, int *own, int *subs);
/* Plays badbot `args` in `seat` against random and expects `reason`. */
run *forfeit_match(int seat, const char *args, const char *reason);

#endif

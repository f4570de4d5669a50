/*
 * bot_driver.h - the edge the search bots of agents/ share: the command
 * line, the SDK loop, the clock, the time control and the bench. A bot
 * brings its search (a pure function over an observation, search/) and
 * its own flags; the driver gives it a budget of playouts or a deadline
 * that keeps within the time control (search/ws_budget.c), plays greedy's
 * choice if no search could run, and answers at once when only one
 * action is legal.
 */
#ifndef BOT_DRIVER_H
#define BOT_DRIVER_H

#include <stdint.h>
#include "wc.h"
#include "ws_ismcts.h"

typedef struct bot_spec {
    const char *name, *version;
    const char *usage;          /* the whole --help text */
    uint64_t default_playouts;  /* when neither --playouts nor --ms is given */
    /* One of the bot's own flags with its value: 1 if taken, 0 if the
     * flag is not the bot's, -1 if the value is bad. */
    int (*flag)(void *user, const char *flag, const char *value);
    /* The search: an index into acts, or -1 if no iteration ran. */
    int (*search)(void *user, const wc_observation *o, const wc_action *acts, int n,
                  const ws_limits *lim, uint64_t seed, ws_report *rep);
} bot_spec;

/* Parses the shared flags (--playouts N, --ms N, --seed S, --verbose,
 * --bench, --help) and the bot's, then plays one match, or benches with
 * --bench. Returns the exit status: 0, 1 on a failure, 2 on bad flags. */
int bot_main(const bot_spec *spec, void *user, int argc, char **argv);

/* The bench of bot_main: searches fixed 2- and 4-player positions, prints
 * playouts per second and, for a playout budget, a signature. */
int bot_bench(const bot_spec *spec, void *user, uint64_t playouts, int64_t ms,
              int64_t (*clock_us)(void));

#endif

/*
 * ws_pimc.h - perfect-information Monte Carlo with alpha-beta: the
 * classic alternative to ISMCTS for hidden-information games (as in
 * Ginsberg's GIB for bridge). Each round deals one determinization of the
 * seat's observation (wc_determinize: hidden coins and future draws fixed
 * at random), searches every root action in it to a fixed depth with
 * alpha-beta over ws_eval, and adds the values up; the action with the
 * best total over all determinizations is played.
 *
 * It was built to be measured against ISMCTS at equal time
 * (agents/README.md). Pure: no I/O. The clock, if any, is the caller's.
 */
#ifndef WS_PIMC_H
#define WS_PIMC_H

#include "wc.h"
#include "ws_ismcts.h"

#define WS_PIMC_MAX_DEPTH 8

typedef struct ws_pimc_config {
    int depth;                  /* decisions searched, 1..WS_PIMC_MAX_DEPTH */
} ws_pimc_config;

/* Like ws_ismcts_search, with lim->playouts counting determinizations; a
 * determinization the deadline interrupts does not count. The report's
 * value is the chosen action's mean evaluation in points. */
int ws_pimc_search(const wc_observation *o, const wc_action *acts, int n,
                   const ws_pimc_config *cfg, const ws_limits *lim, uint64_t seed,
                   ws_report *rep);

#endif

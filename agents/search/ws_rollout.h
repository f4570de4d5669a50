/*
 * ws_rollout.h - how a search finishes a simulated game it has no tree
 * for: a cheap policy plays on from the position, for a number of
 * decisions or to the end, and the position reached is judged.
 *
 * Policies (chosen by measurement, see agents/README.md):
 *   uniform  every legal action alike;
 *   kind     actions weighted by what they do (take a location before an
 *            attack before a deployment ... before a pass), no lookahead;
 *   greedy   one ply of ws_eval, or a uniform choice with chance epsilon.
 * Pure: no I/O.
 */
#ifndef WS_ROLLOUT_H
#define WS_ROLLOUT_H

#include "wc.h"

enum { WS_ROLLOUT_UNIFORM, WS_ROLLOUT_KIND, WS_ROLLOUT_GREEDY, WS_NROLLOUTS };

typedef struct ws_rollout {
    int    policy;      /* WS_ROLLOUT_* */
    int    plies;       /* decisions played before judging; 0: to the end */
    double scale;       /* ws_eval_win's scale for a game left unfinished */
    double epsilon;     /* greedy: chance of a uniform choice instead */
} ws_rollout;

/* The defaults the bots use. */
void ws_rollout_default(ws_rollout *r);
/* "uniform", "kind", "greedy" -> WS_ROLLOUT_*, or -1. */
int  ws_rollout_by_name(const char *name);
const char *ws_rollout_name(int policy);

/* One choice among the n >= 1 legal actions of s. */
int  ws_rollout_choose(const wc_state *s, const wc_action *acts, int n,
                       const ws_rollout *r, wc_rng *rng);
/* Plays on from s (changed in place) and returns side 0's value in [0, 1]:
 * 1, 0 or 0.5 if the game ended, else ws_eval_win. */
double ws_rollout_run(wc_state *s, const ws_rollout *r, wc_rng *rng);

#endif

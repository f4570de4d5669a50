/*
 * ws_eval.h - a static judgement of a War Chest position, for bots.
 *
 * The one heuristic the C bots share: greedy plays the action whose result
 * scores best; the searches score positions where they stop looking ahead
 * with it, and their rollout policy leans on it. Pure: no I/O.
 */
#ifndef WS_EVAL_H
#define WS_EVAL_H

#include "wc.h"

/* The position's worth to `side` (0 or 1) in points: a control marker is
 * 100. A finished game is +-1e6, or 0 for a draw. */
double ws_eval(const wc_state *s, int side);

/* Side 0's chance to win, in (0, 1): a logistic curve, `scale` points per
 * factor e, over the mean of side 0's score and minus side 1's (each
 * side's score counts only its own reserves and reach); 1, 0 or 0.5 once
 * the game is over. */
double ws_eval_win(const wc_state *s, double scale);

/* Greedy's choice: the action among n >= 1 after which ws_eval scores
 * best for the side to move in s, ties broken by a fair coin from rng. */
int ws_greedy_choose(const wc_state *s, const wc_action *acts, int n, wc_rng *rng);

#endif

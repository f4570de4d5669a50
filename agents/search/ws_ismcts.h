/*
 * ws_ismcts.h - information-set Monte Carlo tree search for War Chest.
 *
 * Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information
 * Set Monte Carlo Tree Search", IEEE TCIAIG 2012): one tree over the
 * searching seat's information sets. Each iteration deals a fresh
 * determinization of the seat's observation (wc_determinize: the other
 * seats' hidden coins and every future draw at random), walks the tree by
 * UCB among the actions that determinization allows (a child's
 * availability counts the iterations it could have been chosen), adds one
 * node, plays a rollout (ws_rollout.h) and backs up the result for each
 * side. Every decision frame of the engine (a turn, the Royal Guard's
 * choice, the Berserker's, Swordsman's, Mercenary's, Footman's and Warrior
 * Priest's follow-ups) is a node, and each seat decides for its own side,
 * so the same code plays 2-player and 4-player (team) games. Edges of the
 * searching seat are its actions; edges of other seats are their actions
 * as the searching seat sees them (a face-down coin hidden), so their
 * hidden choices share a node.
 *
 * Pure: no I/O. The clock, when there is a deadline, is the caller's.
 */
#ifndef WS_ISMCTS_H
#define WS_ISMCTS_H

#include <stdint.h>
#include "wc.h"
#include "ws_rollout.h"

typedef struct ws_tree ws_tree;

typedef struct ws_ismcts_config {
    double     exploration;     /* UCB1's c, for values in [0, 1] */
    ws_rollout rollout;
} ws_ismcts_config;

/* When to stop: after `playouts` iterations (0: no such limit) or once
 * clock_us() reaches deadline_us (< 0: no deadline), whichever is first.
 * At least one limit must be set. */
typedef struct ws_limits {
    uint64_t playouts;
    int64_t  deadline_us;
    int64_t (*clock_us)(void);
} ws_limits;

typedef struct ws_report {
    int      choice;            /* index into the actions searched; -1: none */
    uint64_t playouts;          /* iterations done */
    uint32_t nodes;             /* tree nodes used */
    uint32_t visits;            /* of the chosen action */
    double   value;             /* its mean value for the searching side */
    int      tree_full;         /* the tree ran out of nodes (search went on) */
} ws_report;

void ws_ismcts_default(ws_ismcts_config *c);

/* A tree of at most max_nodes nodes (>= 2), reused by every search.
 * NULL if out of memory. */
ws_tree *ws_tree_new(uint32_t max_nodes);
void     ws_tree_free(ws_tree *t);

/* Searches the decision `o` shows (o->seat must be to move), among its n
 * >= 1 legal actions `acts`, and returns the index of the one visited
 * most (-1 only if no iteration ran). The same inputs and seed give the
 * same answer when the budget is counted in playouts. */
int ws_ismcts_search(ws_tree *t, const wc_observation *o, const wc_action *acts, int n,
                     const ws_ismcts_config *cfg, const ws_limits *lim, uint64_t seed,
                     ws_report *rep);

/* After a search: how often the root's action `a` was tried and its mean
 * value for the searching side (0, 0 if never). */
void ws_ismcts_root_stats(const ws_tree *t, const wc_action *a, uint32_t *visits,
                          double *mean);

#endif

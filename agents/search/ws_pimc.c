/*
 * ws_pimc.c - the search of ws_pimc.h: fail-hard alpha-beta (minimax for
 * the searching side, whichever seat decides), captures and locations
 * tried first so that cut-offs come early, and a clock read every 512
 * nodes.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "ws_eval.h"
#include "ws_pimc.h"
#include "wc_rng.h"

typedef struct ctx {
    int side;                   /* the searching side */
    const ws_limits *lim;
    uint64_t nodes;
    int out_of_time;
    wc_action moves[WS_PIMC_MAX_DEPTH][WC_MAX_ACTIONS];
} ctx;

/* Order of trial: what most often changes the score first. */
static const uint8_t kind_order[WC_NACT] = {
    [WC_ACT_CONTROL] = 0, [WC_ACT_ATTACK] = 1, [WC_ACT_TACTIC] = 2, [WC_ACT_DEPLOY] = 3,
    [WC_ACT_MOVE] = 4, [WC_ACT_BOLSTER] = 5, [WC_ACT_RECRUIT] = 6, [WC_ACT_CLAIM] = 7,
    [WC_ACT_GUARD_UNIT] = 8, [WC_ACT_GUARD_SUPPLY] = 8, [WC_ACT_STOP] = 8,
    [WC_ACT_PASS] = 9, [WC_ACT_PICK] = 9,
};

static void order_moves(wc_action *a, int n)
{
    for (int i = 1; i < n; i++) {              /* insertion sort: stable, small n */
        wc_action x = a[i];
        int j = i;
        for (; j > 0 && kind_order[a[j - 1].kind] > kind_order[x.kind]; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Each side's ws_eval counts only its own reserves and reach: take both. */
static double leaf(const wc_state *s, int side)
{
    return 0.5 * (ws_eval(s, side) - ws_eval(s, side ^ 1));
}

static double alphabeta(ctx *c, const wc_state *s, int depth, double alpha, double beta)
{
    if ((++c->nodes & 511) == 0 && c->lim->deadline_us >= 0 &&
        c->lim->clock_us() >= c->lim->deadline_us)
        c->out_of_time = 1;
    if (c->out_of_time || depth == 0 || wc_is_over(s))
        return leaf(s, c->side);
    wc_action *moves = c->moves[depth - 1];
    int n = wc_legal_actions(s, moves);
    order_moves(moves, n);
    int maximizing = wc_side_of(s, wc_to_move(s)) == c->side;
    for (int i = 0; i < n; i++) {
        wc_state next = *s;
        wc_apply(&next, &moves[i]);
        double v = alphabeta(c, &next, depth - 1, alpha, beta);
        if (maximizing && v > alpha)
            alpha = v;
        if (!maximizing && v < beta)
            beta = v;
        if (alpha >= beta)
            break;
    }
    return maximizing ? alpha : beta;
}

int ws_pimc_search(const wc_observation *o, const wc_action *acts, int n,
                   const ws_pimc_config *cfg, const ws_limits *lim, uint64_t seed,
                   ws_report *rep)
{
    assert(n >= 1 && o->to_move == o->seat);
    assert(cfg->depth >= 1 && cfg->depth <= WS_PIMC_MAX_DEPTH);
    assert(lim->playouts > 0 || (lim->deadline_us >= 0 && lim->clock_us));
    ctx *c = malloc(sizeof *c);
    double *total = calloc((size_t)n, sizeof *total), *one = calloc((size_t)n, sizeof *one);
    if (!c || !total || !one) {
        free(c), free(total), free(one);
        if (rep)
            *rep = (ws_report){ .choice = -1 };
        return -1;
    }
    c->side = o->nseats == 4 ? o->seat & 1 : o->seat;
    c->lim = lim;
    c->nodes = 0;
    c->out_of_time = 0;
    wc_rng rng;
    wc_rng_seed(&rng, seed, 0x50494d43ULL);
    uint64_t done = 0;
    while (!(lim->playouts && done >= lim->playouts) && !c->out_of_time) {
        wc_state s;
        wc_determinize(o, (uint64_t)wc_rng_next(&rng) << 32 | wc_rng_next(&rng), &s);
        for (int i = 0; i < n && !c->out_of_time; i++) {
            wc_state next = s;
            wc_apply(&next, &acts[i]);
            one[i] = alphabeta(c, &next, cfg->depth - 1, -1e300, 1e300);
        }
        if (c->out_of_time)
            break;
        for (int i = 0; i < n; i++)
            total[i] += one[i];
        done++;
    }
    int choice = -1;
    for (int i = 0; done && i < n; i++)
        if (choice < 0 || total[i] > total[choice])
            choice = i;
    if (rep)
        *rep = (ws_report){ choice, done, (uint32_t)(c->nodes > UINT32_MAX ? UINT32_MAX : c->nodes),
                            (uint32_t)done, choice >= 0 ? total[choice] / (double)done : 0.0, 0 };
    free(c), free(total), free(one);
    return choice;
}

/*
 * ws_rollout.c - the rollout policies of ws_rollout.h.
 */
#include <assert.h>
#include <string.h>
#include "ws_eval.h"
#include "ws_rollout.h"
#include "wc_rng.h"

static const char *const names[WS_NROLLOUTS] = { "uniform", "kind", "greedy" };

/* What an action kind is worth to a rollout, in relative odds. */
static const uint16_t kind_weight[WC_NACT] = {
    [WC_ACT_DEPLOY] = 6, [WC_ACT_BOLSTER] = 3, [WC_ACT_MOVE] = 4,
    [WC_ACT_CONTROL] = 60, [WC_ACT_ATTACK] = 30, [WC_ACT_TACTIC] = 12,
    [WC_ACT_CLAIM] = 1, [WC_ACT_RECRUIT] = 3, [WC_ACT_PASS] = 1,
    [WC_ACT_GUARD_SUPPLY] = 1, [WC_ACT_GUARD_UNIT] = 1, [WC_ACT_STOP] = 1,
    [WC_ACT_PICK] = 1,
};

void ws_rollout_default(ws_rollout *r)
{
    r->policy = WS_ROLLOUT_GREEDY;
    r->plies = 20;
    r->scale = 150.0;
    r->epsilon = 0.1;
}

int ws_rollout_by_name(const char *name)
{
    for (int i = 0; i < WS_NROLLOUTS; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

const char *ws_rollout_name(int policy)
{
    return policy >= 0 && policy < WS_NROLLOUTS ? names[policy] : "?";
}

static int choose_kind(const wc_action *acts, int n, wc_rng *rng)
{
    uint32_t total = 0;
    for (int i = 0; i < n; i++)
        total += kind_weight[acts[i].kind];
    assert(total > 0);                  /* every kind weighs at least 1 */
    uint32_t r = wc_rng_below(rng, total);
    for (int i = 0; i < n; i++) {
        if (r < kind_weight[acts[i].kind])
            return i;
        r -= kind_weight[acts[i].kind];
    }
    return n - 1;
}

int ws_rollout_choose(const wc_state *s, const wc_action *acts, int n,
                      const ws_rollout *r, wc_rng *rng)
{
    if (n == 1)
        return 0;
    switch (r->policy) {
    case WS_ROLLOUT_KIND:
        return choose_kind(acts, n, rng);
    case WS_ROLLOUT_GREEDY:
        if (wc_rng_next(rng) * (1.0 / 4294967296.0) >= r->epsilon)
            return ws_greedy_choose(s, acts, n, rng);
        /* fall through */
    default:
        return (int)wc_rng_below(rng, (uint32_t)n);
    }
}

double ws_rollout_run(wc_state *s, const ws_rollout *r, wc_rng *rng)
{
    wc_action acts[WC_MAX_ACTIONS];
    for (int ply = 0; !wc_is_over(s) && (r->plies == 0 || ply < r->plies); ply++) {
        int n = wc_legal_actions(s, acts);
        wc_apply(s, &acts[ws_rollout_choose(s, acts, n, r, rng)]);
    }
    return ws_eval_win(s, r->scale);
}

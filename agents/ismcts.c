/*
 * ismcts.c - the ISMCTS bot: information-set Monte Carlo tree search
 * (search/ws_ismcts.c) over the observation each request brings, within a
 * budget of playouts or milliseconds per decision and always within the
 * time control the referee sends (bot_driver.c).
 *
 *   ismcts --playouts 5000 --seed 7     reproducible: arena rerun replays it
 *   ismcts --ms 1000                    about a second per decision
 *   ismcts --bench                      playouts per second and a signature
 */
#include <stdio.h>
#include <string.h>
#include "bot_driver.h"
#include "kv.h"

static const char usage[] =
    "usage: ismcts [--playouts N | --ms N] [--seed S] [options]   (run by the referee)\n"
    "       ismcts --bench [--playouts N | --ms N] [options]\n"
    "  --playouts N   iterations per decision (default 5000 when --ms is not given)\n"
    "  --ms N         milliseconds per decision instead (always within the time control)\n"
    "  --clock C      what --ms and the time control count, as the referee's --clock:\n"
    "                 cpu (default: the bot's CPU time, and never over twice that in\n"
    "                 wall time) or wall\n"
    "  --seed S       seed of the bot's choices (default: ARENA_BOT_SEED, which the\n"
    "                 referee derives from the match seed and seat; 1 when unset); with\n"
    "                 --playouts a match replays exactly\n"
    "  --c X          UCB exploration constant (default 0.7)\n"
    "  --rollout P    rollout policy: uniform, kind, greedy (default greedy)\n"
    "  --plies N      rollout decisions before the position is judged (default 20;\n"
    "                 0: to the end)\n"
    "  --epsilon X    greedy rollouts: chance of a uniform choice (default 0.1)\n"
    "  --scale X      points of the evaluation per factor e of winning odds (default 150)\n"
    "  --nodes N      tree size limit (default 1048576)\n"
    "  --verbose      one line per decision on stderr\n"
    "  --bench        search fixed positions; print playouts/s and a signature\n";

typedef struct bot {
    ws_ismcts_config cfg;
    uint32_t nodes;
    ws_tree *tree;
} bot;

static int flag(void *user, const char *f, const char *v)
{
    bot *b = user;
    ws_rollout *r = &b->cfg.rollout;
    int64_t n;
    if (!strcmp(f, "--c"))
        return kv_f64(v, 0.0, 100.0, &b->cfg.exploration) < 0 ? -1 : 1;
    if (!strcmp(f, "--rollout"))
        return (r->policy = ws_rollout_by_name(v)) < 0 ? -1 : 1;
    if (!strcmp(f, "--epsilon"))
        return kv_f64(v, 0.0, 1.0, &r->epsilon) < 0 ? -1 : 1;
    if (!strcmp(f, "--scale"))
        return kv_f64(v, 1.0, 1e6, &r->scale) < 0 ? -1 : 1;
    if (!strcmp(f, "--plies")) {
        if (kv_i64(v, 0, 100000, &n) < 0)
            return -1;
        r->plies = (int)n;
        return 1;
    }
    if (!strcmp(f, "--nodes")) {
        if (kv_i64(v, 2, 1 << 30, &n) < 0)
            return -1;
        b->nodes = (uint32_t)n;
        return 1;
    }
    return 0;
}

static int search(void *user, const wc_observation *o, const wc_action *acts, int n,
                  const ws_limits *lim, uint64_t seed, ws_report *rep)
{
    bot *b = user;
    if (!b->tree && !(b->tree = ws_tree_new(b->nodes))) {
        fprintf(stderr, "ismcts: no memory for a tree of %u nodes\n", b->nodes);
        return -1;
    }
    return ws_ismcts_search(b->tree, o, acts, n, &b->cfg, lim, seed, rep);
}

int main(int argc, char **argv)
{
    static const bot_spec spec = { "ismcts", "1.0", usage, 5000, flag, search };
    bot b = { .nodes = 1u << 20 };
    ws_ismcts_default(&b.cfg);
    int rc = bot_main(&spec, &b, argc, argv);
    ws_tree_free(b.tree);
    return rc;
}

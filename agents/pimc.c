/*
 * pimc.c - the alpha-beta bot: perfect-information Monte Carlo
 * (search/ws_pimc.c), each determinization of the observation searched to
 * a fixed depth with alpha-beta over the evaluation, the root actions'
 * values summed over determinizations. Built to measure against ismcts at
 * equal time (agents/README.md). The budget counts determinizations.
 *
 *   pimc --playouts 40 --depth 3        reproducible
 *   pimc --ms 1000
 */
#include <string.h>
#include "bot_driver.h"
#include "kv.h"
#include "ws_pimc.h"

static const char usage[] =
    "usage: pimc [--playouts N | --ms N] [--seed S] [--depth D]   (run by the referee)\n"
    "       pimc --bench [--playouts N | --ms N] [--depth D]\n"
    "  --playouts N   determinizations per decision (default 20 when --ms is not given)\n"
    "  --ms N         milliseconds per decision instead (always within the time control)\n"
    "  --clock C      what --ms and the time control count, as the referee's --clock:\n"
    "                 cpu (default: the bot's CPU time, and never over twice that in\n"
    "                 wall time) or wall\n"
    "  --seed S       seed of the bot's choices (default: ARENA_BOT_SEED, which the\n"
    "                 referee derives from the match seed and seat; 1 when unset)\n"
    "  --depth D      decisions searched in each determinization, 1 to 8 (default 3)\n"
    "  --verbose      one line per decision on stderr\n"
    "  --bench        search fixed positions; print determinizations/s and a signature\n";

static int flag(void *user, const char *f, const char *v)
{
    ws_pimc_config *c = user;
    int64_t n;
    if (strcmp(f, "--depth"))
        return 0;
    if (kv_i64(v, 1, WS_PIMC_MAX_DEPTH, &n) < 0)
        return -1;
    c->depth = (int)n;
    return 1;
}

static int search(void *user, const wc_observation *o, const wc_action *acts, int n,
                  const ws_limits *lim, uint64_t seed, ws_report *rep)
{
    return ws_pimc_search(o, acts, n, user, lim, seed, rep);
}

int main(int argc, char **argv)
{
    static const bot_spec spec = { "pimc", "1.0", usage, 20, flag, search };
    ws_pimc_config c = { 3 };
    return bot_main(&spec, &c, argc, argv);
}

/*
 * bot_driver.c - the shared edge of the search bots (bot_driver.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bot.h"
#include "bot_driver.h"
#include "clk.h"
#include "kv.h"
#include "wc_bot.h"
#include "wc_rng.h"
#include "ws_budget.h"
#include "ws_eval.h"

typedef struct options {
    uint64_t playouts, seed;
    int64_t  ms;
    int      bench, verbose, wall_clock;
} options;

static int64_t cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The clock a decision is charged on, as the referee counts it: from the
 * request's arrival, its CPU time (--clock cpu, the referee's default,
 * which charges the wall time a bot did not wait for a CPU when that is
 * more: for this single-threaded search, about its CPU time) or wall
 * time. CPU time alone could run a decision long in wall time on a
 * crowded machine, so wall time counts at half. */
static struct {
    int64_t wall0, cpu0;
    int     wall;
} charge;

static void charge_start(int wall)
{
    charge.wall = wall;
    charge.wall0 = clk_mono_us();
    charge.cpu0 = cpu_us();
}

static int64_t charged_us(void)
{
    int64_t wall = clk_mono_us() - charge.wall0;
    if (charge.wall)
        return charge.wall0 + wall;
    int64_t cpu = cpu_us() - charge.cpu0;
    return charge.wall0 + (cpu > wall / 2 ? cpu : wall / 2);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int shared_flag(options *op, const char *f, const char *v)
{
    int64_t n;
    if (!strcmp(f, "--playouts")) {
        if (kv_i64(v, 1, 1000000000, &n) < 0)
            return -1;
        op->playouts = (uint64_t)n;
        return 1;
    }
    if (!strcmp(f, "--ms"))
        return kv_i64(v, 1, 3600000, &op->ms) < 0 ? -1 : 1;
    if (!strcmp(f, "--seed"))
        return kv_u64(v, &op->seed) < 0 ? -1 : 1;
    if (!strcmp(f, "--clock")) {
        if (strcmp(v, "cpu") != 0 && strcmp(v, "wall") != 0)
            return -1;
        op->wall_clock = !strcmp(v, "wall");
        return 1;
    }
    return 0;
}

static int parse(const bot_spec *spec, void *user, int argc, char **argv, options *op)
{
    memset(op, 0, sizeof *op);
    int seeded = 0;
    for (int i = 1; i < argc; i++) {
        const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
            fputs(spec->usage, stdout);
            exit(0);
        }
        if (!strcmp(f, "--bench") || !strcmp(f, "--verbose")) {
            *(f[2] == 'b' ? &op->bench : &op->verbose) = 1;
            continue;
        }
        int took = v ? shared_flag(op, f, v) : 0;
        if (v && took == 0)
            took = spec->flag(user, f, v);
        if (took < 0) {
            fprintf(stderr, "%s: bad value for %s: '%s' (see --help)\n", spec->name, f, v);
            return -1;
        }
        if (took == 0) {
            fprintf(stderr, "%s: unknown flag or missing value: '%s' (see --help)\n",
                    spec->name, f);
            return -1;
        }
        seeded |= !strcmp(f, "--seed");
        i++;
    }
    /* No --seed: the referee's ARENA_BOT_SEED (1 when unset), so that a
     * rerun of the match replays the bot's choices too. */
    uint32_t env_seed;
    if (!seeded && bot_seed(&env_seed) < 0)
        return -1;                  /* malformed: bot_seed said why */
    if (!seeded)
        op->seed = env_seed;
    if (op->playouts && op->ms) {
        fprintf(stderr, "%s: give --playouts or --ms, not both\n", spec->name);
        return -1;
    }
    if (!op->playouts && !op->ms)
        op->playouts = spec->default_playouts;
    return 0;
}

/* One decision: search within the budget, or fall back on one ply of the
 * evaluation when there was no time for a single playout. */
static int decide(const bot_spec *spec, void *user, const options *op,
                  const wc_request *req, int64_t start_us, ws_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->choice = -1;
    if (req->nactions == 1)
        return 0;
    int64_t ms = ws_budget_ms(op->ms, req->base.move_ms, req->base.bank_ms);
    ws_limits lim = { op->playouts, start_us + ms * 1000, charged_us };
    uint64_t seed = mix(op->seed ^ mix((uint64_t)req->base.id << 8 | req->obs.seat));
    int choice = spec->search(user, &req->obs, req->actions, req->nactions, &lim, seed, rep);
    if (choice >= 0)
        return choice;
    wc_state base;
    wc_rng rng;
    wc_rng_seed(&rng, seed, 17);
    wc_determinize(&req->obs, seed, &base);
    return ws_greedy_choose(&base, req->actions, req->nactions, &rng);
}

static int play(const bot_spec *spec, void *user, const options *op)
{
    bot_conn *bot = bot_connect(spec->name, spec->version);
    if (!bot)
        return 1;
    static wc_request req;
    while (wc_bot_next(bot, &req) > 0) {
        charge_start(op->wall_clock);
        int64_t start = charge.wall0, cpu_start = charge.cpu0;
        ws_report rep;
        int choice = decide(spec, user, op, &req, start, &rep);
        if (op->verbose) {
            char text[64];
            wc_action_format(&req.actions[choice], text, sizeof text);
            fprintf(stderr, "%s: decision %u: %s (%llu playouts, %u nodes, %u visits, "
                            "value %.3f, %.1f ms, %.1f ms of CPU)\n", spec->name, req.base.id, text,
                    (unsigned long long)rep.playouts, rep.nodes, rep.visits, rep.value,
                    (clk_mono_us() - start) / 1000.0, (cpu_us() - cpu_start) / 1000.0);
        }
        wc_bot_answer(bot, &req, choice);
    }
    return bot_close(bot);
}

int bot_main(const bot_spec *spec, void *user, int argc, char **argv)
{
    options op;
    if (parse(spec, user, argc, argv, &op) < 0)
        return 2;
    if (op.bench)
        return bot_bench(spec, user, op.ms ? 0 : op.playouts, op.ms, clk_mono_us);
    return play(spec, user, &op);
}

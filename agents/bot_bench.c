/*
 * bot_bench.c - `BOT --bench`: a search bot's speed, inside the bot, at
 * fixed positions: the first decision of a 2-player and a 4-player game
 * and a middle-game decision of each (reached by greedy play from a fixed
 * seed). It prints playouts per second on one core for each, by the wall
 * clock and by the process's CPU time (which other load on the machine
 * does not inflate), and, when the
 * budget is counted in playouts, a signature over each search's outcome
 * (choice, visits, tree size, value) that changes only when the search's
 * behaviour does, as Stockfish's bench signature does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include "bot_driver.h"
#include "wc_rng.h"
#include "ws_eval.h"

typedef struct position { const char *name; int players, plies; } position;

static const position positions[] = {
    { "2p opening", 2, 0 }, { "2p middle", 2, 40 },
    { "4p opening", 4, 0 }, { "4p middle", 4, 60 },
};

/* The game from a fixed seed after `plies` greedy decisions. */
static void reach(const position *p, wc_state *s)
{
    wc_options o;
    wc_options_default(&o);
    o.players = (uint8_t)p->players;
    wc_init(s, &o, 2024);
    wc_rng rng;
    wc_rng_seed(&rng, 2024, 1);
    static wc_action acts[WC_MAX_ACTIONS];
    for (int i = 0; i < p->plies && !wc_is_over(s); i++) {
        int n = wc_legal_actions(s, acts);
        wc_apply(s, &acts[ws_greedy_choose(s, acts, n, &rng)]);
    }
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double rate(uint64_t n, double seconds)
{
    return (double)n / (seconds > 0 ? seconds : 1e-9);
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
    return h;
}

int bot_bench(const bot_spec *spec, void *user, uint64_t playouts, int64_t ms,
              int64_t (*clock_us)(void))
{
    static wc_action acts[WC_MAX_ACTIONS];
    uint64_t signature = 0xcbf29ce484222325ULL, total = 0;
    double wall = 0, cpu = 0;
    printf("%-11s %5s %7s %9s %10s %10s %9s  %s\n", "position", "round", "actions",
           "playouts", "per wall s", "per cpu s", "nodes", "choice (visits, value)");
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        wc_state s;
        reach(&positions[i], &s);
        wc_observation o;
        wc_observe(&s, wc_to_move(&s), &o);
        int n = wc_legal_actions(&s, acts);
        int64_t start = clock_us();
        double cpu_start = cpu_seconds();
        ws_limits lim = { playouts, ms ? start + ms * 1000 : -1, clock_us };
        ws_report rep;
        int choice = spec->search(user, &o, acts, n, &lim, 2024 + i, &rep);
        double w = (clock_us() - start) / 1e6, c = cpu_seconds() - cpu_start;
        wall += w;
        cpu += c;
        total += rep.playouts;
        signature = fnv(fnv(fnv(fnv(signature, (uint64_t)choice), rep.visits), rep.nodes),
                        (uint64_t)(int64_t)(rep.value * 1e6));
        char text[64] = "(none)";
        if (choice >= 0)
            wc_action_format(&acts[choice], text, sizeof text);
        printf("%-11s %5u %7d %9" PRIu64 " %10.0f %10.0f %9u  %s (%u, %.3f)\n",
               positions[i].name, s.round, n, rep.playouts, rate(rep.playouts, w),
               rate(rep.playouts, c), rep.nodes, text, rep.visits, rep.value);
    }
    printf("total       %" PRIu64 " playouts in %.3f s (%.3f s of CPU): %.0f playouts/s, "
           "%.0f per CPU second, on one core\n", total, wall, cpu, rate(total, wall),
           rate(total, cpu));
    if (!ms)
        printf("signature   %016" PRIx64 "\n", signature);
    return 0;
}

/*
 * ref_bench.c - `referee bench`: what the referee costs over the wire.
 *
 * In one run it measures (1) decisions per second in real matches of two
 * C random bots over ipc://, counting the decision phase only, and (2) a
 * raw ZeroMQ + msgpack ping-pong between two processes that sends the very
 * request payloads of such a game, which the other process decodes and
 * answers with an action. (2) is the floor for the same bytes; the ratio
 * is the referee's overhead. Both run back to back so machine noise hits
 * both alike. (3) The sandbox's cost: the lean bots' games again, each bot
 * in its sandbox (--sandbox auto) against none, and the time to start a
 * bot (until its program is exec'd) both ways, interleaved the same way.
 * (4) The fair clocks' accounting (ref_meter: the bot's CPU time and CPU
 * wait sampled at every decision; the freezer for a bot seen pondering): the lean
 * bots' sandboxed games metered as by default, metered but pondering
 * (no freezer), and unmetered, interleaved in the same rounds.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>
#include "cli.h"
#include "kv.h"
#include "game_cli.h"
#include "ref_bench.h"
#include "ref_match.h"
#include "ref_sandbox_probe.h"
#include "mpw.h"
#include "ref_msg.h"
#include "pcg.h"

static int64_t now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* The request payloads of one random game, as the referee would send. */
static int game_requests(const game_options *options, uint64_t seed, msgpack_sbuffer **out)
{
    const game_api *g = game_options_game(options);
    void *state = malloc(g->state_size);
    game_action *legal = malloc(GAME_MAX_ACTIONS * sizeof *legal);
    if (!state || !legal || g->init(state, options, seed)) {
        free(state);
        free(legal);
        *out = NULL;
        return 0;
    }
    pcg32 rng;
    pcg32_seed(&rng, seed, 5);
    int n = 0, cap = 1024;
    *out = calloc((size_t)cap, sizeof **out);
    if (!*out)
        cap = 0;
    while (g->to_move(state) >= 0 && n < cap) {
        int k = g->legal(state, legal);
        msgpack_sbuffer_init(&(*out)[n]);
        ref_msg_request(&(*out)[n], g, state, g->to_move(state), (uint32_t)n + 1, legal, k,
                        (ref_clock){ 1000, 10000 });
        n++;
        g->apply(state, legal[pcg32_below(&rng, (uint32_t)k)]);
    }
    free(state);
    free(legal);
    return n;
}

/* The peer: announce itself, then decode each request and answer it with
 * a small action map, as a bot would. A 1-byte message ends it. */
static void pong(const char *endpoint)
{
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_DEALER);
    zmq_connect(sock, endpoint);
    zmq_send(sock, "r", 1, 0);
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    for (;;) {
        zmq_msg_t m;
        msgpack_unpacked u;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0 || zmq_msg_size(&m) <= 1 ||
            mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &u) < 0)
            break;
        int64_t id = 0;
        mps_get_int(&u.data, "id", &id);
        msgpack_unpacked_destroy(&u);
        zmq_msg_close(&m);
        msgpack_packer pk;
        sb.size = 0;
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_map(&pk, 3);
        mpw_str(&pk, "type");
        mpw_str(&pk, "action");
        mpw_str(&pk, "id");
        msgpack_pack_int64(&pk, id);
        mpw_str(&pk, "index");
        msgpack_pack_int(&pk, 0);
        zmq_send(sock, sb.data, sb.size, 0);
    }
    _exit(0);
}

/* Round trips per second over `rounds` sends of the given payloads. */
static double ping_pong(const msgpack_sbuffer *payloads, int npayloads, int rounds)
{
    char dir[] = "/tmp/arena-bench-XXXXXX", endpoint[128], id[256];
    if (!mkdtemp(dir))
        return 0;
    snprintf(endpoint, sizeof endpoint, "ipc://%s/pp", dir);
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_ROUTER);
    zmq_bind(sock, endpoint);
    pid_t child = fork();
    if (child == 0)
        pong(endpoint);
    int idlen = zmq_recv(sock, id, sizeof id, 0);
    char ready;
    zmq_recv(sock, &ready, 1, 0);
    int64_t t0 = now_us();
    for (int i = 0; i < rounds; i++) {
        const msgpack_sbuffer *p = &payloads[i % npayloads];
        zmq_send(sock, id, (size_t)idlen, ZMQ_SNDMORE);
        zmq_send(sock, p->data, p->size, 0);
        zmq_msg_t who, reply;
        msgpack_unpacked u;
        zmq_msg_init(&who);
        zmq_msg_init(&reply);
        zmq_msg_recv(&who, sock, 0);
        zmq_msg_recv(&reply, sock, 0);
        if (mps_decode(zmq_msg_data(&reply), zmq_msg_size(&reply), &u) == 0)
            msgpack_unpacked_destroy(&u);
        zmq_msg_close(&who);
        zmq_msg_close(&reply);
    }
    double rate = rounds / ((now_us() - t0) / 1e6);
    zmq_send(sock, id, (size_t)idlen, ZMQ_SNDMORE);
    zmq_send(sock, "x", 1, 0);
    waitpid(child, NULL, 0);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    char path[160];
    snprintf(path, sizeof path, "%s/pp", dir);
    unlink(path);
    rmdir(dir);
    return rate;
}

/* Plays games [from, to) between two `bot`s: decisions and their time. */
static int play_games(ref_config *c, const char *bot, int from, int to, uint64_t *decisions,
                      uint64_t *micros, uint64_t *bot_micros)
{
    c->bot_cmd[0] = c->bot_cmd[1] = bot;
    for (int game = from; game < to; game++) {
        ref_record rec;
        char err[256] = "";
        ref_record_init(&rec);
        c->seed = (uint64_t)game + 1;
        if (ref_match_play(c, &rec, err, sizeof err) < 0 || rec.culprit >= 0) {
            fprintf(stderr, "referee: bench match %d failed: %s%s\n", game + 1, err, rec.detail);
            ref_record_free(&rec);
            return -1;
        }
        *decisions += rec.ndecisions;
        *micros += rec.play_micros;
        for (size_t k = 0; bot_micros && k < rec.ndecisions; k++)
            *bot_micros += rec.decisions[k].micros;
        ref_record_free(&rec);
    }
    return 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define ROUNDS 5
#define STARTS 8    /* bot starts per round and sandbox mode */

/* Median milliseconds to start `bot` (until its program is exec'd) in
 * sandbox sb (NULL: none), over STARTS starts; -1 on a failure. */
static double start_ms(const ref_sandbox *sb, const char *bot, const ref_limits *lim)
{
    double ms[STARTS];
    for (int i = 0; i < STARTS; i++) {
        ref_proc p;
        ref_spawn s = { .cmd = bot, .lim = lim, .sandbox = sb };
        char err[512];
        int64_t t0 = now_us();
        if (ref_proc_start(&p, &s, err, sizeof err) < 0) {
            fprintf(stderr, "referee: bench: cannot start %s: %s\n", bot, err);
            return -1;
        }
        ms[i] = (now_us() - t0) / 1000.0;
        ref_proc_kill(&p, 0);
    }
    ref_proc_reap_orphans(0);
    return median(ms, STARTS);
}

/* Microseconds per decision of the lean bots' games [from, to), sandboxed,
 * under the fair clocks' three settings: [0] metered, frozen between
 * turns once seen pondering (the default), [1] metered, pondering, [2] unmetered. */
static int accounting_round(const ref_config *boxed, const char *lean, int from, int to,
                            double us[3])
{
    ref_config v[3] = { *boxed, *boxed, *boxed };
    v[0].terms.ponder = 0;
    v[1].terms.ponder = 1;
    v[2].unmetered = 1;
    for (int k = 0; k < 3; k++) {
        uint64_t d = 0, micros = 0;
        if (play_games(&v[k], lean, from, to, &d, &micros, NULL) < 0)
            return -1;
        us[k] = d ? (double)micros / (double)d : 0;
    }
    return 0;
}

/* Whether one of issue 31's targets is met, in the bench's words. */
static const char *met(int ok)
{
    return ok ? "met" : "not met";
}

/* The accounting's cost per decision, from the rounds' figures. */
static void accounting_print(double us[][3], int rounds, double sdk_us)
{
    double frozen[ROUNDS], metered[ROUNDS], bare[ROUNDS], cost[ROUNDS], meter[ROUNDS];
    assert(rounds >= 1 && rounds <= ROUNDS);
    for (int r = 0; r < rounds; r++) {
        frozen[r] = us[r][0];
        metered[r] = us[r][1];
        bare[r] = us[r][2];
        cost[r] = (us[r][0] - us[r][2]) / us[r][2] * 100;
        meter[r] = (us[r][1] - us[r][2]) / us[r][2] * 100;
    }
    double lo = cost[0], hi = cost[0];
    for (int r = 1; r < rounds; r++) {
        lo = cost[r] < lo ? cost[r] : lo;
        hi = cost[r] > hi ? cost[r] : hi;
    }
    double f = median(frozen, rounds), b = median(bare, rounds);
    printf("fair clocks' accounting lean bots sandboxed, us per decision (medians): %.1f metered "
           "and frozen once seen pondering (default), %.1f metered and pondering, %.1f "
           "unmetered\n",
           f, median(metered, rounds), b);
    printf("  cost per decision     %+.1f us: %+.1f%% of a lean decision (median of per-round "
           "ratios, range %+.1f..%+.1f%%; the meter alone %+.1f%%; target <= 2%%: %s); %+.2f%% "
           "of an SDK bot's %.0f us; %+.3f%% of a 100 ms budget\n", f - b, median(cost, rounds),
           lo, hi, median(meter, rounds), met(median(cost, rounds) <= 2), (f - b) / sdk_us * 100,
           sdk_us, (f - b) / 1000);
}

static int bench_with(game_options *options, int games, const char *bot, const char *lean);

int ref_bench_main(int argc, char **argv)
{
    int games = 25;
    char bot_path[PATH_MAX + 32], lean[PATH_MAX + 32], err[512];
    const char *bot = bot_path;
    cli_sibling("../agents/random", bot_path, sizeof bot_path);
    cli_sibling("bench-bot", lean, sizeof lean);
    const game_api *g = game_cli_game(argc, argv, err, sizeof err);
    game_options *options = g ? game_options_new(g) : NULL;
    cli_flag *game_flags = options ? game_cli_flags(options) : NULL;
    const cli_flag flags[] = {
        CLI_NUM("--games", CLI_INT, "N", "matches per bot (default 25)", &games, ROUNDS, 1000000),
        CLI_ARG("--bot", CLI_STR, "CMD", "the SDK bot to measure (default agents/random)", &bot),
        CLI_END,
    };
    cli_flag *all = game_flags ? cli_join(flags, game_flags) : NULL;
    int got = all ? cli_parse(all, argc - 2, argv + 2, NULL, NULL, 0, err, sizeof err) : -1;
    int rc = 2;
    if (got == 1) {
        printf("usage: referee bench [options]   decisions per second, referee against raw\n");
        cli_help(stdout, all);
        rc = 0;
    } else if (got < 0) {
        fprintf(stderr, "referee: bench: %s\n", g && all ? err : g ? "out of memory" : err);
    } else if (access(bot, X_OK) != 0 || access(lean, X_OK) != 0) {
        fprintf(stderr, "referee: bench needs runnable bots (%s, %s)\n", bot, lean);
    } else {
        rc = bench_with(options, games, bot, lean);
    }
    free(all);
    free(game_flags);
    game_options_free(options);
    return rc;
}

static int bench_with(game_options *options, int games, const char *bot, const char *lean)
{
    const game_api *g = game_options_game(options);
    ref_config c;
    ref_config_default(&c);
    c.game = g;
    c.options = options;
    c.nbots = 2;
    c.sandbox = REF_SANDBOX_NONE;   /* the referee's own cost, as the raw ping-pong's */
    char err[512];
    const ref_sandbox *sb = ref_sandbox_get(REF_SANDBOX_AUTO, err, sizeof err);
    ref_config boxed = c;
    boxed.sandbox = REF_SANDBOX_AUTO;
    ref_proc_init_supervisor();

    msgpack_sbuffer *payloads;
    int npayloads = game_requests(options, 1, &payloads);
    if (npayloads == 0) {
        free(payloads);
        fprintf(stderr, "referee: bench: these options make no game\n");
        return 2;
    }
    size_t bytes = 0;
    for (int i = 0; i < npayloads; i++)
        bytes += payloads[i].size;

    /* Rounds alternate the three measurements so that noise hits all. */
    double sdk_rate[ROUNDS], lean_rate[ROUNDS], raw_rate[ROUNDS], ratio[ROUNDS];
    double boxed_rate[ROUNDS], boxed_ratio[ROUNDS], start_none[ROUNDS], start_boxed[ROUNDS];
    double accounting[ROUNDS][3];
    uint64_t decisions = 0, bot_micros = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int from = games * round / ROUNDS, to = games * (round + 1) / ROUNDS;
        uint64_t d = 0, micros = 0, ld = 0, lmicros = 0, bd = 0, bmicros = 0;
        if (play_games(&c, bot, from, to, &d, &micros, &bot_micros) < 0 ||
            play_games(&c, lean, from, to, &ld, &lmicros, NULL) < 0 ||
            play_games(&boxed, lean, from, to, &bd, &bmicros, NULL) < 0 ||
            accounting_round(&boxed, lean, from, to, accounting[round]) < 0)
            return 1;
        boxed_rate[round] = bd / (bmicros / 1e6);
        start_none[round] = start_ms(NULL, lean, &c.limits);
        start_boxed[round] = start_ms(sb, lean, &c.limits);
        if (start_none[round] < 0 || start_boxed[round] < 0)
            return 1;
        decisions += d;
        sdk_rate[round] = d / (micros / 1e6);
        lean_rate[round] = ld / (lmicros / 1e6);
        raw_rate[round] = ping_pong(payloads, npayloads, (int)ld);
        ratio[round] = lean_rate[round] / raw_rate[round];
        boxed_ratio[round] = boxed_rate[round] / lean_rate[round];
    }
    for (int i = 0; i < npayloads; i++)
        msgpack_sbuffer_destroy(&payloads[i]);
    free(payloads);

    double r_lo = ratio[0], r_hi = ratio[0];
    for (int i = 1; i < ROUNDS; i++) {
        r_lo = ratio[i] < r_lo ? ratio[i] : r_lo;
        r_hi = ratio[i] > r_hi ? ratio[i] : r_hi;
    }
    double r_med = median(ratio, ROUNDS);
    printf("matches                 %d per bot, over ipc, in %d interleaved rounds\n", games,
           ROUNDS);
    printf("referee + C SDK bots    %.0f decisions/s   (median; agents/random, the SDK transport)\n",
           median(sdk_rate, ROUNDS));
    printf("  round trip in bot     %.1f us per decision, as the referee measures it\n",
           (double)bot_micros / (double)decisions);
    printf("referee + lean bots     %.0f decisions/s   (median; bench-bot: decode, answer)\n",
           median(lean_rate, ROUNDS));
    printf("raw ping-pong           %.0f round trips/s (median; same request bytes, %.0f "
           "on average; peer decodes)\n", median(raw_rate, ROUNDS), (double)bytes / npayloads);
    printf("referee / raw           %.3f   median of per-round ratios (range %.3f..%.3f)\n",
           r_med, r_lo, r_hi);
    printf("referee overhead        %+.0f%%  time per decision over the raw round trip "
           "(target <= +5%%: %s)\n", (1 / r_med - 1) * 100, met((1 / r_med - 1) * 100 <= 5));
    printf("sandbox                 %s\n", sb ? sb->isolation : err);
    printf("  lean bots sandboxed   %.0f decisions/s   (median); sandboxed / none %.3f "
           "(median of per-round ratios; target >= 0.95: %s)\n", median(boxed_rate, ROUNDS),
           median(boxed_ratio, ROUNDS), met(median(boxed_ratio, ROUNDS) >= 0.95));
    double sn = median(start_none, ROUNDS), sbx = median(start_boxed, ROUNDS);
    printf("  bot start             %.2f ms sandboxed, %.2f ms none: %+.2f ms per bot "
           "(medians of %d starts x %d rounds; target < +5 ms: %s)\n", sbx, sn, sbx - sn,
           STARTS, ROUNDS, met(sbx - sn < 5));
    accounting_print(accounting, ROUNDS, 1e6 / median(sdk_rate, ROUNDS));
    return 0;
}

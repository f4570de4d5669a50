/*
 * warchest.c - the engine's own command-line tool.
 *
 *   warchest bench [--games N] [--players 2|4] [--setup dealt|draft]
 *       Plays N random games from fixed seeds in-process and prints rates
 *       and a signature over every final state, for 2 and then 4 players
 *       unless --players picks one. The signatures must not change unless
 *       the rules do: compare them before and after a change.
 *   warchest play [--seed N] [--players 2|4] [--setup S] [--quiet]
 *       Plays one random game, printing every action and the final board.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "kv.h"
#include "wc.h"
#include "wc_rng.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int usage(const char *why)
{
    fprintf(stderr, "warchest: %s\n"
            "usage: warchest bench [--games N] [--players 2|4] [--setup dealt|draft]\n"
            "       warchest play [--seed N] [--players 2|4] [--setup dealt|draft|PRESET] [--quiet]\n",
            why);
    return 2;
}

struct args {
    uint64_t games, seed;
    wc_options opt;
    int quiet;
    int players_given;      /* bench: without --players, both 2 and 4 */
};

static int parse_args(int argc, char **argv, struct args *a)
{
    a->games = 1000;
    a->seed = 1;
    a->quiet = 0;
    a->players_given = 0;
    wc_options_default(&a->opt);
    for (int i = 2; i < argc; i++) {
        const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (strcmp(f, "--quiet") == 0) {
            a->quiet = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "warchest: %s needs a value\n", f);
            return -1;
        }
        i++;
        if (strcmp(f, "--games") == 0 || strcmp(f, "--seed") == 0) {
            if (kv_u64(v, &n) < 0 || (f[2] == 'g' && n == 0)) {
                fprintf(stderr, "warchest: %s wants a positive whole number, not '%s'\n", f, v);
                return -1;
            }
            *(f[2] == 'g' ? &a->games : &a->seed) = n;
        } else if (strcmp(f, "--players") == 0) {
            if (strcmp(v, "2") && strcmp(v, "4")) {
                fprintf(stderr, "warchest: --players must be 2 or 4, not '%s'\n", v);
                return -1;
            }
            a->opt.players = (uint8_t)(v[0] - '0');
            a->players_given = 1;
        } else if (strcmp(f, "--setup") == 0) {
            if (strcmp(v, "dealt") == 0)
                a->opt.setup = WC_SETUP_DEALT;
            else if (strcmp(v, "draft") == 0)
                a->opt.setup = WC_SETUP_DRAFT;
            else if (wc_options_preset(&a->opt, v) < 0) {
                fprintf(stderr, "warchest: unknown set-up '%s'\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "warchest: unknown option '%s'\n", f);
            return -1;
        }
    }
    const char *why = wc_options_invalid(&a->opt);
    if (why) {
        fprintf(stderr, "warchest: %s\n", why);
        return -1;
    }
    return 0;
}

/* One random game: the chooser has its own generator so the game's own
 * stream is untouched by how choices are made. Records into `log`. */
static size_t play_random(const wc_options *o, uint64_t seed, wc_state *s,
                          wc_action *log, size_t cap, size_t *gens)
{
    static wc_action legal[WC_MAX_ACTIONS];
    wc_rng chooser;
    wc_rng_seed(&chooser, seed, 7);
    wc_init(s, o, seed);
    size_t n = 0;
    while (!wc_is_over(s)) {
        int k = wc_legal_actions(s, legal);
        ++*gens;
        wc_action a = legal[wc_rng_below(&chooser, (uint32_t)k)];
        if (n < cap)
            log[n] = a;
        n++;
        wc_apply(s, &a);
    }
    return n;
}

static int bench(const struct args *a)
{
    size_t cap = 4u << 20, total = 0, gens = 0;
    wc_action *log = malloc(cap * sizeof *log);
    size_t *lens = malloc(a->games * sizeof *lens);
    if (!log || !lens) {
        free(log);
        free(lens);
        return fprintf(stderr, "warchest: out of memory\n"), 1;
    }
    static wc_action legal[WC_MAX_ACTIONS];
    wc_state s;
    uint64_t signature = 0;
    int decided[3] = { 0, 0, 0 };

    /* 1: random playouts, generation and application together. */
    double t0 = now();
    for (uint64_t g = 0; g < a->games; g++) {
        size_t room = total < cap ? cap - total : 0;
        lens[g] = play_random(&a->opt, g + 1, &s, log + total, room, &gens);
        total += lens[g];
        signature = signature * 0x100000001b3ULL ^ wc_hash(&s);
        decided[s.winner == WC_NONE ? 2 : s.winner]++;
    }
    double t_play = now() - t0;
    if (total > cap) {
        free(log);
        free(lens);
        return fprintf(stderr, "warchest: action log too small\n"), 1;
    }

    /* 2: the same games again, applying the recorded actions only. */
    t0 = now();
    uint64_t check = 0;
    for (uint64_t g = 0, i = 0; g < a->games; g++) {
        wc_init(&s, &a->opt, g + 1);
        for (size_t k = 0; k < lens[g]; k++)
            wc_apply(&s, &log[i++]);
        check = check * 0x100000001b3ULL ^ wc_hash(&s);
    }
    double t_apply = now() - t0;

    /* 3: again, generating the legal actions at every decision too. */
    t0 = now();
    size_t sink = 0;
    for (uint64_t g = 0, i = 0; g < a->games; g++) {
        wc_init(&s, &a->opt, g + 1);
        for (size_t k = 0; k < lens[g]; k++) {
            sink += (size_t)wc_legal_actions(&s, legal);
            wc_apply(&s, &log[i++]);
        }
    }
    double t_gen = now() - t0 - t_apply;
    if (check != signature) {
        free(log);
        free(lens);
        return fprintf(stderr, "warchest: replay diverged from play\n"), 1;
    }

    printf("games                 %llu (%d-player, %s set-up)\n",
           (unsigned long long)a->games, a->opt.players,
           a->opt.setup == WC_SETUP_DRAFT ? "draft" : "dealt");
    printf("results               A %d, B %d, draws %d\n", decided[0], decided[1], decided[2]);
    printf("actions               %zu (%.1f per game)\n", total, (double)total / (double)a->games);
    printf("games/s               %.0f\n", (double)a->games / t_play);
    printf("playout actions/s     %.0f   (generate, choose and apply)\n", (double)total / t_play);
    printf("applied actions/s     %.0f   (apply only)\n", (double)total / t_apply);
    printf("generations/s         %.0f   (legal-action lists, %.1f actions each)\n",
           (double)total / (t_gen > 0 ? t_gen : 1e-9), (double)sink / (double)total);
    printf("signature             %016llx\n", (unsigned long long)signature);
    free(log);
    free(lens);
    return 0;
}

static int play(const struct args *a)
{
    wc_state s;
    static wc_action log[1 << 16];
    size_t gens = 0;
    size_t n = play_random(&a->opt, a->seed, &s, log, sizeof log / sizeof log[0], &gens);
    char text[64], board[8192];
    if (!a->quiet) {
        wc_state r;
        wc_init(&r, &a->opt, a->seed);
        for (size_t i = 0; i < n; i++) {
            wc_action_format(&log[i], text, sizeof text);
            printf("%4zu  round %-3d seat %d  %s\n", i + 1, r.round, wc_to_move(&r), text);
            wc_apply(&r, &log[i]);
        }
    }
    wc_render(&s, board, sizeof board);
    printf("%s", board);
    printf("hash %016llx after %zu actions\n", (unsigned long long)wc_hash(&s), n);
    return 0;
}

int main(int argc, char **argv)
{
    if (cli_version(argc, argv, "warchest", NULL))
        return 0;
    if (argc < 2)
        return usage("missing command");
    struct args a;
    if (strcmp(argv[1], "bench") == 0 || strcmp(argv[1], "play") == 0) {
        if (parse_args(argc, argv, &a) < 0)
            return 2;
        if (argv[1][0] == 'p')
            return play(&a);
        if (a.players_given)
            return bench(&a);
        int rc = bench(&a);
        a.opt.players = 4;
        printf("\n");
        return rc ? rc : bench(&a);
    }
    return usage("unknown command");
}

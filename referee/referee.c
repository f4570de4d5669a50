/*
 * referee.c - the `referee` program: one match, its replay, its display.
 *
 *   referee play --bot CMD --bot CMD [--seed N] [--setup S] [--record F] ...
 *   referee replay FILE       re-simulate a record; exit 1 on any mismatch
 *   referee show FILE         the match move by move, with the board
 *
 * `play` exits 0 whenever a result was reached, even by a forfeit: a bot's
 * misbehaviour is a result, not an error. Bad arguments exit 2 with one
 * line naming the problem.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "kv.h"
#include "game.h"
#include "ref_match.h"
#include "ref_record.h"

#include "ref_bench.h"
#include "ref_worker.h"

static const char usage_text[] =
    "usage: referee play --bot CMD --bot CMD [options]\n"
    "       referee replay FILE\n"
    "       referee show FILE\n"
    "       referee bench [--games N] [--bot CMD]\n"
    "       referee worker --connect ENDPOINT [--stay] [--verbose]   play matches an arena hands out\n"
    "\n"
    "play options:\n"
    "  --seed N            match seed (default 1)\n"
    "  --setup S           dealt, draft, first-game, gaugamela, bannockburn, crecy (default dealt)\n"
    "  --players 2|4       seats; give one --bot each (default 2)\n"
    "  --royal-guard R     2018 or revised (default 2018)\n"
    "  --round-limit N     rounds before a draw (default 100)\n"
    "  --option KEY=VALUE  any other game option\n"
    "  --record FILE       write the match record\n"
    "  --move-ms N         time per decision (default 1000)\n"
    "  --bank-ms N         time bank for overruns (default 10000)\n"
    "  --handshake-ms N    time from start to hello (default 10000)\n"
    "  --strikes N         0: forfeit at the first illegal action or timeout; N: play a\n"
    "                      random legal action instead and forfeit at the N-th (default 0)\n"
    "  --max-message N     largest message a bot may send, bytes (default 1048576)\n"
    "  --log-dir DIR       keep each bot's output in DIR/seatN.log\n"
    "  --transport T       ipc or tcp (default ipc)\n"
    "  --sandbox MODE      auto: isolate each bot as far as this machine allows, and say\n"
    "                      once what is missing; strict: refuse to run without every\n"
    "                      layer; none: the referee's environment (default auto;\n"
    "                      docs/SECURITY.md)\n"
    "  --memory-mb N       real memory of each bot (its cgroup; without one, its address\n"
    "                      space) (default 2048; 0: no limit)\n"
    "  --max-processes N   processes and threads of each bot (default 512)\n"
    "  --cpus X            CPU quota of each bot, in cores, e.g. 1.5 (default: none)\n"
    "  --cpu-seconds N, --max-files N   per-process limits (default 600, 256)\n"
    "  --quiet             print only the result line\n";

static int die(const char *fmt, const char *arg)
{
    fprintf(stderr, "referee: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

/* A flag the usage text lists ("  --seed N", "--memory-mb N,"). */
static int known_flag(const char *f)
{
    size_t n = strlen(f);
    for (const char *p = usage_text; n > 2 && !strncmp(f, "--", 2) && (p = strstr(p, f)); p += n)
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

static int print_result(const ref_record *r, const char *record_path)
{
    printf("result: ");
    for (int i = 0; i < r->seats; i++)
        printf("%s%g", i ? "-" : "", r->score[i]);
    printf("  reason: %s  (%s)\n", r->reason, r->detail);
    for (int i = 0; i < r->seats; i++)
        printf("  seat %d  %-20s %-10s %g\n", i, r->name[i][0] ? r->name[i] : "?",
               r->version[i][0] ? r->version[i] : "-", r->score[i]);
    double secs = r->play_micros / 1e6;
    printf("decisions: %zu in %.3f s (%.0f/s)  hash: %016" PRIx64 "%s%s\n", r->ndecisions,
           secs, secs > 0 ? r->ndecisions / secs : 0.0, r->hash,
           record_path ? "  record: " : "", record_path ? record_path : "");
    return 0;
}

/* `play` with the game's options allocated by cmd_play, which frees them
 * on every return. */
static int play_with(int argc, char **argv, void *options)
{
    const game_api *g = &game_warchest;
    ref_config c;
    ref_config_default(&c);
    g->options_default(options);
    const char *record_path = NULL;
    int quiet = 0;
    int64_t v;
    char err[512];

    for (int i = 2; i < argc; i++) {
        const char *f = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(f, "--quiet")) {
            quiet = 1;
            continue;
        }
        if (!strcmp(f, "--help") || !strcmp(f, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!val)
            return die(known_flag(f) ? "%s needs a value"
                                     : "unknown option '%s' (see referee play --help)", f);
        i++;
        const char *key = NULL;
        if (!strcmp(f, "--bot")) {
            if (c.nbots == GAME_MAX_SEATS)
                return die("at most %s bots", "4");
            if (!*val)
                return die("%s", "--bot needs a command");
            c.bot_cmd[c.nbots++] = val;
        } else if (!strcmp(f, "--seed")) {
            if (kv_u64(val, &c.seed) < 0)
                return die("--seed wants a whole number, not '%s'", val);
        } else if (!strcmp(f, "--setup")) {
            key = "setup";
        } else if (!strcmp(f, "--players")) {
            key = "players";
        } else if (!strcmp(f, "--royal-guard")) {
            key = "royal_guard";
        } else if (!strcmp(f, "--round-limit")) {
            key = "round_limit";
        } else if (!strcmp(f, "--option")) {
            if (game_options_parse(g, options, val, err, sizeof err) < 0)
                return die("%s", err);
        } else if (!strcmp(f, "--record")) {
            record_path = val;
        } else if (!strcmp(f, "--log-dir")) {
            c.log_dir = val;
        } else if (!strcmp(f, "--sandbox")) {
            if (ref_sandbox_mode_parse(val, &c.sandbox) < 0)
                return die("--sandbox must be auto, none or strict, not '%s'", val);
        } else if (!strcmp(f, "--cpus")) {
            char *end;
            double cpus = strtod(val, &end);
            if (end == val || *end || !(cpus >= 0 && cpus <= 4096))
                return die("--cpus wants a number of cores such as 1 or 0.5, not '%s'", val);
            c.limits.cpu_millis = (unsigned)(cpus * 1000 + 0.5);
        } else if (!strcmp(f, "--transport")) {
            if (strcmp(val, "ipc") && strcmp(val, "tcp"))
                return die("--transport must be ipc or tcp, not '%s'", val);
            c.transport = val;
        } else {
            struct { const char *flag; int64_t lo, hi, *dst; } nums[] = {
                { "--move-ms", 1, 3600000, &c.move_ms },
                { "--bank-ms", 0, 36000000, &c.bank_ms },
                { "--handshake-ms", 1, 3600000, &c.handshake_ms },
                { "--max-message", 64, (int64_t)1 << 30, &c.max_message },
            };
            int done = 0;
            for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
                if (!strcmp(f, nums[k].flag)) {
                    if (kv_i64(val, nums[k].lo, nums[k].hi, nums[k].dst) < 0)
                        return die("bad value for %s", f);
                    done = 1;
                }
            struct { const char *flag; int64_t hi; } lims[] = {
                { "--strikes", 1000 }, { "--cpu-seconds", 86400 }, { "--memory-mb", 1 << 20 },
                { "--max-processes", 100000 }, { "--max-files", 100000 },
            };
            for (size_t k = 0; !done && k < sizeof lims / sizeof lims[0]; k++)
                if (!strcmp(f, lims[k].flag)) {
                    if (kv_i64(val, 0, lims[k].hi, &v) < 0)
                        return die("bad value for %s", f);
                    switch (k) {
                    case 0: c.strikes = (int)v; break;
                    case 1: c.limits.cpu_seconds = (unsigned)v; break;
                    case 2: c.limits.memory_bytes = (uint64_t)v << 20; break;
                    case 3: c.limits.max_processes = (unsigned)v; break;
                    case 4: c.limits.max_open_files = (unsigned)v; break;
                    }
                    done = 1;
                }
            if (!done)
                return die("unknown option '%s' (see referee play --help)", f);
        }
        if (key) {
            const char *why = g->options_set(options, key, val);
            if (why)
                return die("%s", why);
        }
    }
    c.game = g;
    c.options = options;
    if (c.nbots == 0)
        return die("%s", "no bots: give --bot CMD once per seat");
    struct stat st;
    if (c.log_dir && (stat(c.log_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
                      access(c.log_dir, W_OK | X_OK) != 0))
        return die("cannot write bot logs into the directory %s", c.log_dir);
    if (record_path) {
        FILE *probe = fopen(record_path, "w");
        if (!probe)
            return die("cannot write the record file: %s", record_path);
        fclose(probe);
    }
    ref_record rec;
    ref_record_init(&rec);
    if (ref_match_play(&c, &rec, err, sizeof err) < 0) {
        ref_record_free(&rec);
        return die("%s", err);
    }
    int rc = 0;
    if (record_path) {
        FILE *f = fopen(record_path, "w");
        if (!f || ref_record_write(&rec, g, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "referee: cannot write the record to %s\n", record_path);
            rc = 1;
        }
    }
    if (quiet)
        printf("%s %s\n", rec.reason, rec.detail);
    else
        print_result(&rec, record_path);
    ref_record_free(&rec);
    return rc;
}

static int cmd_play(int argc, char **argv)
{
    void *options = calloc(1, game_warchest.options_size);
    if (!options)
        return die("%s", "out of memory");
    int rc = play_with(argc, argv, options);
    free(options);
    return rc;
}

static int load(const char *path, ref_record *r, const game_api **g)
{
    char err[256];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "referee: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = ref_record_read(r, g, f, err, sizeof err);
    fclose(f);
    if (rc < 0)
        fprintf(stderr, "referee: %s: %s\n", path, err);
    return rc;
}

static int cmd_replay(const char *path)
{
    ref_record r;
    const game_api *g;
    char err[256];
    if (load(path, &r, &g) < 0)
        return 1;
    int rc = ref_record_verify(&r, g, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "referee: %s: mismatch: %s\n", path, err);
    else
        printf("%s: verified: %zu decisions, %s, hash %016" PRIx64 "\n", path, r.ndecisions,
               r.reason, r.hash);
    ref_record_free(&r);
    return rc < 0 ? 1 : 0;
}

static int cmd_show(const char *path)
{
    ref_record r;
    const game_api *g;
    char err[256];
    if (load(path, &r, &g) < 0)
        return 1;
    if (ref_record_verify(&r, g, err, sizeof err) < 0) {
        fprintf(stderr, "referee: %s: mismatch: %s\n", path, err);
        ref_record_free(&r);
        return 1;
    }
    void *options = calloc(1, g->options_size), *state = calloc(1, g->state_size);
    char *board = malloc(1 << 16), text[128];
    g->options_default(options);
    game_options_parse(g, options, r.options, err, sizeof err);
    g->init(state, options, r.seed);
    printf("%s, seed %" PRIu64 ", %s\n", r.game, r.seed, r.options);
    for (int i = 0; i < r.seats; i++)
        printf("seat %d: %s %s\n", i, r.name[i], r.version[i]);
    g->render(state, board, 1 << 16);
    printf("\n%s", board);
    for (size_t i = 0; i < r.ndecisions; i++) {
        const ref_decision *d = &r.decisions[i];
        g->format(d->action, text, sizeof text);
        printf("\n#%zu  seat %d (%s)  %s  [%s %.1f ms]\n", i + 1, d->seat, r.name[d->seat], text,
               d->substituted ? "substituted," : "", d->micros / 1000.0);
        g->apply(state, d->action);
        g->render(state, board, 1 << 16);
        printf("%s", board);
    }
    printf("\nresult: ");
    for (int i = 0; i < r.seats; i++)
        printf("%s%g", i ? "-" : "", r.score[i]);
    printf("  %s (%s)\n", r.reason, r.detail);
    free(options);
    free(state);
    free(board);
    ref_record_free(&r);
    return 0;
}

/* A referee told to stop takes its bots with it, then stops as asked. */
static void on_stop(int sig)
{
    ref_proc_kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    signal(SIGTERM, on_stop);
    signal(SIGINT, on_stop);
    signal(SIGHUP, on_stop);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "play"))
        return cmd_play(argc, argv);
    if (!strcmp(argv[1], "replay") || !strcmp(argv[1], "show")) {
        if (argc != 3)
            return die("%s takes one record file", argv[1]);
        return argv[1][0] == 'r' ? cmd_replay(argv[2]) : cmd_show(argv[2]);
    }
    if (!strcmp(argv[1], "bench"))
        return ref_bench_main(argc, argv);
    if (!strcmp(argv[1], "worker"))
        return ref_worker_main(argc, argv);
    return die("unknown command '%s' (play, replay, show, bench, worker)", argv[1]);
}

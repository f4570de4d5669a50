/*
 * referee.c - the `referee` program: one match, its replay, its display.
 *
 *   referee play --bot CMD --bot CMD [--game NAME] [--seed N] [--record F] ...
 *   referee replay FILE       re-simulate a record; exit 1 on any mismatch
 *   referee show FILE         the match move by move, with the board
 *   referee games             the games, one line each
 *
 * The game's flags (--round-limit N ...) and their help come from the
 * game's declaration (games/game_cli.c); no game is named here.
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
#include "game_cli.h"
#include "ref_match.h"
#include "ref_record.h"

#include "ref_bench.h"
#include "ref_worker.h"

static const char usage_text[] =
    "usage: referee play --bot CMD --bot CMD [--game NAME] [options]\n"
    "       referee replay FILE       re-simulate a record; exit 1 on any mismatch\n"
    "       referee show FILE         the match move by move\n"
    "       referee games             the games this referee plays\n"
    "       referee bench [--game NAME] [--games N] [--bot CMD]\n"
    "       referee worker --connect ENDPOINT [--stay] [--verbose]   play matches an arena\n"
    "                                 hands out\n"
    "`referee play --help` (with --game NAME) lists every option.\n";

static int die(const char *fmt, const char *arg)
{
    fprintf(stderr, "referee: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
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

/* What `play` reads from its flags besides the game's options. */
typedef struct play_args {
    ref_config c;
    const char *record_path, *transport;
    int quiet, help;
    int64_t cpu_seconds, max_processes, max_files;
    double cpus;
    const char *sandbox;
} play_args;

static int add_bot(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    ref_config *c = ctx;
    if (c->nbots == GAME_MAX_SEATS) {
        snprintf(err, size, "at most %d bots", GAME_MAX_SEATS);
        return -1;
    }
    if (!*value) {
        snprintf(err, size, "--bot needs a command");
        return -1;
    }
    c->bot_cmd[c->nbots++] = value;
    return 0;
}

static const char play_head[] =
    "usage: referee play --bot CMD --bot CMD [options]    (one --bot per seat)\n";

static void play_help(const cli_flag *flags, const game_api *g)
{
    fputs(play_head, stdout);
    cli_help(stdout, flags);
    printf("The game's options (%s) are the flags from --option on; each is also\n"
           "--option KEY=VALUE. `referee games` lists the games.\n", g->name);
}

/* Runs the match the flags describe, with `options` made for its game. */
static int play_with(play_args *a, game_options *options)
{
    ref_config *c = &a->c;
    char err[512];
    const game_api *g = game_options_game(options);
    c->game = g;
    c->options = options;
    if (strcmp(a->transport, "ipc") && strcmp(a->transport, "tcp"))
        return die("--transport must be ipc or tcp, not '%s'", a->transport);
    c->transport = a->transport;
    if (ref_sandbox_mode_choose(a->sandbox, &c->sandbox, err, sizeof err) < 0)
        return die("%s", err);
    c->limits.cpu_seconds = (unsigned)a->cpu_seconds;
    c->limits.cpu_millis = (unsigned)(a->cpus * 1000 + 0.5);
    c->limits.max_processes = (unsigned)a->max_processes;
    c->limits.max_open_files = (unsigned)a->max_files;
    if (c->nbots == 0)
        return die("%s", "no bots: give --bot CMD once per seat");
    struct stat st;
    if (c->log_dir && (stat(c->log_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
                       access(c->log_dir, W_OK | X_OK) != 0))
        return die("cannot write bot logs into the directory %s", c->log_dir);
    if (a->record_path) {
        FILE *probe = fopen(a->record_path, "w");
        if (!probe)
            return die("cannot write the record file: %s", a->record_path);
        fclose(probe);
    }
    ref_record rec;
    ref_record_init(&rec);
    if (ref_match_play(c, &rec, err, sizeof err) < 0) {
        ref_record_free(&rec);
        return die("%s", err);
    }
    int rc = 0;
    if (a->record_path) {
        FILE *f = fopen(a->record_path, "w");
        if (!f || ref_record_write(&rec, g, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "referee: cannot write the record to %s\n", a->record_path);
            rc = 1;
        }
    }
    if (a->quiet)
        printf("%s %s\n", rec.reason, rec.detail);
    else
        print_result(&rec, a->record_path);
    ref_record_free(&rec);
    return rc;
}

static int cmd_play(int argc, char **argv)
{
    play_args a;
    memset(&a, 0, sizeof a);
    ref_config_default(&a.c);
    a.c.seed = 1;
    a.transport = "ipc";
    a.cpu_seconds = a.c.limits.cpu_seconds;
    a.cpus = a.c.limits.cpu_millis / 1000.0;
    a.max_processes = a.c.limits.max_processes;
    a.max_files = a.c.limits.max_open_files;
    char err[512];
    const game_api *g = game_cli_game(argc, argv, err, sizeof err);
    if (!g)
        return die("%s", err);
    game_options *options = game_options_new(g);
    const cli_flag flags[] = {
        CLI_CALL("--bot", "CMD", "a bot's command; one per seat, in seat order", add_bot, &a.c),
        CLI_ARG("--seed", CLI_U64, "N", "match seed (default 1)", &a.c.seed),
        CLI_ARG("--record", CLI_STR, "FILE", "write the match record", &a.record_path),
        CLI_END,
    };
    const cli_flag limits[] = {
        CLI_NUM("--max-message", CLI_I64, "N", "largest message a bot may send, bytes (default 1048576)",
          &a.c.max_message, 64, 1 << 30),
        CLI_ARG("--log-dir", CLI_STR, "DIR", "keep each bot's output in DIR/seatN.log", &a.c.log_dir),
        CLI_ARG("--transport", CLI_STR, "T", "ipc or tcp (default ipc)", &a.transport),
        CLI_ARG("--sandbox", CLI_STR, "MODE", "auto: isolate each bot as far as this machine "
                "allows, and say once what is missing; strict: refuse to run without every "
                "layer; none: the referee's environment (default $ARENA_SANDBOX, else auto; "
                "docs/SECURITY.md)",
                &a.sandbox),
        CLI_NUM("--max-processes", CLI_I64, "N", "processes and threads of each bot (default 512)",
                &a.max_processes, 0, 100000),
        CLI_NUM("--cpus", CLI_F64, "X", "CPU quota of each bot, in cores, e.g. 1.5 (default: none)",
                &a.cpus, 0, 4096),
        CLI_NUM("--cpu-seconds", CLI_I64, "N", "CPU seconds per process (default 600)",
                &a.cpu_seconds, 0, 86400),
        CLI_NUM("--max-files", CLI_I64, "N", "open files per process (default 256)", &a.max_files,
                0, 100000),
        CLI_ARG("--quiet", CLI_SWITCH, NULL, "print only the result line", &a.quiet),
        CLI_END,
    };
    cli_flag terms[REF_TERMS_FLAGS + 1];
    ref_terms_flags(&a.c.terms, terms);
    cli_flag *game_flags = options ? game_cli_flags(options) : NULL;
    cli_flag *match = cli_join(flags, terms), *own = match ? cli_join(match, limits) : NULL;
    cli_flag *all = game_flags && own ? cli_join(own, game_flags) : NULL;
    free(match);
    free(own);
    int rc;
    if (!all) {
        rc = die("%s", "out of memory");
    } else {
        int got = cli_parse(all, argc - 2, argv + 2, NULL, NULL, 0, err, sizeof err);
        if (got == 1)
            play_help(all, g);
        if (got < 0)
            rc = die(strncmp(err, "unknown option", 14) ? "%s" : "%s (see referee play --help)",
                     err);
        else
            rc = got == 1 ? 0 : play_with(&a, options);
    }
    free(all);
    free(game_flags);
    game_options_free(options);
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
    game_options *options = game_options_new(g);
    void *state = calloc(1, g->state_size);
    char *board = malloc(1 << 16), text[128];
    if (!options || !state || !board || game_options_parse(options, r.options, err, sizeof err) < 0 ||
        g->init(state, options, r.seed)) {
        fprintf(stderr, "referee: %s: cannot set up the game\n", path);
        game_options_free(options);
        free(state);
        free(board);
        ref_record_free(&r);
        return 1;
    }
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
    game_options_free(options);
    free(state);
    free(board);
    ref_record_free(&r);
    return 0;
}

/* A referee told to stop takes its bots with it, then stops as asked. */
static void on_stop(int sig)
{
    /* ref_proc_kill_all only calls kill(2) over a static array. */
    ref_proc_kill_all(); // NOLINT(bugprone-signal-handler)
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    signal(SIGTERM, on_stop);
    signal(SIGINT, on_stop);
    signal(SIGHUP, on_stop);
    char extra[64];
    snprintf(extra, sizeof extra, "(bot protocol 1, worker protocol %d)", REF_WORKER_PROTOCOL);
    if (cli_version(argc, argv, "referee", extra))
        return 0;
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
    if (!strcmp(argv[1], "games")) {
        if (argc != 2)
            return die("%s", "games takes no arguments");
        game_cli_list(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "bench"))
        return ref_bench_main(argc, argv);
    if (!strcmp(argv[1], "worker"))
        return ref_worker_main(argc, argv);
    return die("unknown command '%s' (play, replay, show, games, bench, worker)", argv[1]);
}

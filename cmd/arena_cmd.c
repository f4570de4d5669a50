/*
 * arena_cmd.c - the helpers every `arena` command shares (arena_cmd.h), and
 * the flags every run of matches shares (game, time control, workers, logs).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arena_cmd.h"
#include "arena_plan.h"
#include "arena_report.h"
#include "game_cli.h"
#include "kv.h"
#include "ref_cmd.h"
#include "ref_log.h"
#include "ref_match.h"

const char *ac_db_path = "arena.db";

int ac_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "arena: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

int ac_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

int ac_parse(const char *what, const cli_flag *flags, int argc, char **argv,
             const char **positional, int *n, int max, const char *head, const char *tail)
{
    char err[512];
    int got = cli_parse(flags, argc, argv, positional, n, max, err, sizeof err);
    if (got == 1) {
        fputs(head, stdout);
        cli_help(stdout, flags);
        fputs(tail ? tail : "", stdout);
        return 1;
    }
    if (got < 0)
        return ac_fail("%s%s%s%s", what ? what : "", what ? ": " : "", err,
                       strncmp(err, "unknown option", 14) ? "" : " (see --help)");
    return 0;
}

int ac_set_format(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    int format = arena_report_format(value);
    if (format < 0) {
        snprintf(err, size, "%s must be table, csv or json, not '%s'", flag, value);
        return -1;
    }
    *(int *)ctx = format;
    return 0;
}

arena_db *ac_open(int create)
{
    arena_db *db;
    char err[512];
    if (arena_db_open(&db, ac_db_path, create, err, sizeof err) < 0) {
        ac_fail("%s", err);
        return NULL;
    }
    return db;
}

void ac_put_text(FILE *out, int format, const char *s)
{
    if (format == ARENA_JSON)
        fputc('"', out);
    else if (format == ARENA_CSV && s[strcspn(s, ",\"\r\n")])
        format = -1;                       /* a CSV field that needs quotes */
    if (format == -1)
        fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (format == ARENA_JSON && (*p == '"' || *p == '\\'))
            fprintf(out, "\\%c", *p);
        else if (format == ARENA_JSON && *p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else if (format == -1 && *p == '"')
            fputs("\"\"", out);
        else if (format != -1 && (*p < 0x20 || *p == 0x7f))
            fputc('?', out);
        else
            fputc(*p, out);
    }
    if (format == ARENA_JSON || format == -1)
        fputc('"', out);
}

int ac_add_game(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    ac_games *games = ctx;
    const game_api *g = game_find(value);
    if (!g) {
        ac_games every;
        char names[256];
        ac_every_game(&every);
        ac_games_text(&every, names, sizeof names);
        snprintf(err, size, "%s: unknown game '%s' (the games: %s)", flag, value, names);
        return -1;
    }
    for (int i = 0; i < games->n; i++)
        if (games->game[i] == g)
            return 0;
    if (games->n == AC_MAX_GAMES) {
        snprintf(err, size, "%s: at most %d games", flag, AC_MAX_GAMES);
        return -1;
    }
    games->game[games->n++] = g;
    return 0;
}

void ac_every_game(ac_games *games)
{
    games->n = 0;
    for (int i = 0; i < game_count() && games->n < AC_MAX_GAMES; i++)
        games->game[games->n++] = game_at(i);
}

void ac_games_text(const ac_games *games, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = 0;
    for (int i = 0; i < games->n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "",
                                games->game[i]->name);
}

/* Set by SIGINT/SIGTERM: a run of matches stores what is finished and stops. */
static volatile int stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

const volatile int *ac_catch_stops(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &stop_requested;
}

/* ---- the flags every run of matches shares ------------------------------ */

/* The default concurrency: as many matches as the cores have room for
 * their thinking bots (one per match while the others are frozen; every
 * seat when they ponder). More is fair under the CPU clock (matches take
 * longer, nobody is charged for waiting), said with a warning; under the
 * wall clock it needs --force-concurrency. 0, or -1 after a message. */
int ac_fit_concurrency(const arena_spec *spec, int seats, arena_run *run)
{
    cpu_set_t set;
    int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    int thinking = spec->terms.ponder ? seats : 1, fits = cores / thinking;
    fits = fits < 1 ? 1 : fits;
    if (run->concurrency < 0) {
        run->concurrency = fits;
        return 0;
    }
    if (run->concurrency <= fits)
        return 0;
    int wall = spec->terms.clock == REF_CLOCK_WALL;
    if (wall && !run->force) {
        ac_fail("--concurrency %d runs %d thinking bots on %d cores: under --clock wall they "
                "would be charged for waiting for a CPU (at most %d here; --clock cpu, or "
                "--force-concurrency)", run->concurrency, run->concurrency * thinking, cores,
                fits);
        return -1;
    }
    fprintf(stderr, "arena: warning: --concurrency %d runs %d thinking bots on %d cores%s\n",
            run->concurrency, run->concurrency * thinking, cores,
            wall ? ": contended timeouts will be played again, and concurrency lowered"
                 : ": the CPU clock charges only CPU used, so matches take longer");
    return 0;
}

int ac_set_tournament_format(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    if ((*(int *)ctx = arena_format_parse(value)) >= 0)
        return 0;
    snprintf(err, size, "--format must be round-robin, gauntlet, teams, free-for-all, swiss or "
             "knockout, not '%s'", value);
    return -1;
}

/* The game and its options into the spec, checked against the format:
 * team games are games of two teams of two, and such a game is played as
 * teams. A game with a "players" option (OpenSpiel's name for it) is set
 * to 4 for --format teams unless the user chose. 0, or -1 with err. */
static int fit_format(arena_spec *spec, game_options *o, char *err, size_t size)
{
    int seats, teams;
    if (spec->format == ARENA_TEAMS && !game_options_given(o, "players"))
        game_options_set(o, "players", "4", err, size);
    if (game_shape(o, &seats, &teams, err, size) < 0)
        return -1;
    if (spec->format == ARENA_TEAMS && (seats != 4 || teams != 2)) {
        snprintf(err, size, "--format teams needs 4 seats in 2 teams; these options give %d "
                 "seats", seats);
        return -1;
    }
    if (spec->format == ARENA_FREE_FOR_ALL && teams != seats) {
        snprintf(err, size, "--format free-for-all needs games where each seat plays for "
                 "itself; these options give %d seats in %d teams", seats, teams);
        return -1;
    }
    if (spec->format != ARENA_TEAMS && spec->format != ARENA_FREE_FOR_ALL && seats != 2) {
        if (teams == 2)
            snprintf(err, size, "%d-player tournaments pair bots into teams: use --format teams",
                     seats);
        else
            snprintf(err, size, "%d-seat games, each seat for itself: use --format free-for-all",
                     seats);
        return -1;
    }
    snprintf(spec->game, sizeof spec->game, "%s", game_options_game(o)->name);
    if (game_options_format(o, spec->options, sizeof spec->options) >= sizeof spec->options) {
        snprintf(err, size, "the game's options are too long");
        return -1;
    }
    return 0;
}

/* A spec whose format follows its game (the ladder's: format -1): 2 v 2
 * when the options give two teams of two, else one against one. */
static int follow_game(arena_spec *spec, game_options *o)
{
    int seats, teams;
    char err[256];
    if (spec->format < 0)
        spec->format = game_shape(o, &seats, &teams, err, sizeof err) == 0 && seats == 4 &&
                               teams == 2 ? ARENA_TEAMS : ARENA_ROUND_ROBIN;
    return spec->format;
}

int ac_spec_flags(int argc, char **argv, const cli_flag *own, const char *head,
                  const char *tail, arena_spec *spec, arena_run *run, char *referee,
                  size_t referee_size, const char **names, int *nnames, int max_names)
{
    char err[512];
    const char *referee_flag = NULL;
    ref_sandbox_mode mode;
    const game_api *g = game_cli_game(argc, argv, err, sizeof err);
    if (!g)
        return ac_fail("%s", err);
    game_options *o = game_options_new(g);
    const cli_flag flags[] = {
        CLI_NUM("--concurrency", CLI_INT, "K", "local workers: matches at once here (default: "
                "as many as there are cores for their thinking bots: one per match, every seat "
                "with --ponder); 0 with --listen: remote workers play every match",
                &run->concurrency, 0, 128),
        CLI_ARG("--force-concurrency", CLI_SWITCH, NULL, "--clock wall: allow more thinking "
                "bots than cores (with a warning)", &run->force),
        CLI_ARG("--affinity", CLI_SWITCH, NULL, "pin each local worker (its referee and bots) "
                "to a CPU of its own", &run->affinity),
        CLI_ARG("--seed", CLI_U64, "N", "tournament seed; every match seed derives from it "
                "(default 1)", &spec->seed),
        CLI_NUM("--elo-k", CLI_F64, "K", "live Elo K factor (default 16)", &spec->elo_k, 1e-9,
                400),
        CLI_ARG("--sandbox", CLI_STR, "MODE", "the local workers' bots: auto, strict or none, "
                "as for referee play (default $ARENA_SANDBOX, else auto; docs/SECURITY.md)",
                &run->sandbox),
        CLI_ARG("--listen", CLI_STR, "ENDPOINT", "also take remote workers (tcp://*:7000; port "
                "* picks one, shown): referee worker --connect tcp://HOST:PORT; a lost worker's "
                "match is handed out again", &run->remote.listen),
        CLI_ARG("--curve-key", CLI_STR, "FILE", "encrypt the workers' link (arena keygen; "
                "docker/README.md): admits the workers of arena worker list (added and revoked "
                "while it runs) and of --curve-workers", &run->remote.curve_key),
        CLI_ARG("--curve-workers", CLI_STR, "FILE", "with --curve-key, also admit the workers "
                "whose public keys FILE lists", &run->remote.curve_workers),
        CLI_NUM("--log-bytes", CLI_I64, "N", "each seat's log kept with its match, cut to N "
                "bytes: its head and tail (default 65536; 0: none kept)", &run->log_bytes, 0,
                REF_LOG_MAX_CAP),
        CLI_NUM("--keep-logs", CLI_I64, "N", "keep the logs of the newest N matches only "
                "(default: all)", &run->keep_logs, 0, 1e15),
        CLI_ARG("--referee", CLI_STR, "PATH", "the referee binary (default: next to this one)",
                &referee_flag),
        CLI_ARG("--quiet", CLI_SWITCH, NULL, "no progress, no standings", &run->quiet),
        CLI_END,
    };
    cli_flag terms[REF_TERMS_FLAGS + 1];
    ref_terms_flags(&spec->terms, terms);
    cli_flag *game_flags = o ? game_cli_flags(o) : NULL;
    cli_flag *own_run = cli_join(own, flags), *common = own_run ? cli_join(own_run, terms) : NULL;
    cli_flag *all = game_flags && common ? cli_join(common, game_flags) : NULL;
    free(own_run);
    free(common);
    int rc = all ? ac_parse(NULL, all, argc, argv, names, nnames, max_names, head, tail)
                 : ac_fail("out of memory");
    if (rc) {
        /* help shown, or the error said */
    } else if (follow_game(spec, o) < 0 || fit_format(spec, o, err, sizeof err) < 0 ||
               ref_sandbox_mode_choose(run->sandbox, &mode, err, sizeof err) < 0) {
        rc = ac_fail("%s", err);
    } else if (referee_flag) {
        snprintf(referee, referee_size, "%s", referee_flag);
    }
    free(all);
    free(game_flags);
    game_options_free(o);
    return rc;
}

int ac_run_check(const arena_run *run)
{
    if (run->concurrency == 0 && !run->remote.listen)
        return ac_fail("--concurrency 0 leaves only remote workers: give --listen ENDPOINT too"),
               -1;
    if (run->remote.curve_workers && !run->remote.curve_key)
        return ac_fail("--curve-workers needs --curve-key (the arena's secret key)"), -1;
    if (run->remote.curve_key && !run->remote.listen)
        return ac_fail("--curve-key needs --listen ENDPOINT (where remote workers connect)"), -1;
    return 0;
}

/* Every bot of spec still registered, playing the spec's game, its command
 * runnable where it runs. 0, or -1 said. */
int ac_bots_ready(arena_db *db, const arena_spec *spec)
{
    char err[512];
    for (int i = 0; i < spec->nbots; i++) {
        arena_bot b;
        if (arena_db_bot_by_id(db, spec->bot[i], &b) != 0 || b.removed)
            return ac_fail("bot %" PRId64 " is no longer registered", spec->bot[i]), -1;
        if (!arena_bot_plays(&b, spec->game))
            return ac_fail("bot %s does not play %s (it plays %s; a version that does: "
                           "bot add %s --version V --game %s)", b.label, spec->game, b.plays,
                           b.name, spec->game), -1;
        if (ref_cmd_check(b.cmd, b.cwd, err, sizeof err) < 0)
            return ac_fail("bot %s: %s", b.name, err), -1;
    }
    return 0;
}

void ac_put_time(FILE *out, int64_t ms)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    char text[32];
    if (!gmtime_r(&t, &tm) || !strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(text, sizeof text, "%" PRId64 "ms", ms);
    fputs(text, out);
}

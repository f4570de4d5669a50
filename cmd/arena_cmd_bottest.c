/*
 * arena_cmd_bottest.c - `arena bot test NAME|--cmd CMD`: does a bot play,
 * and which games?
 *
 * In each game tried (`--game`, else every game of the registry), plays a
 * short real match (a few rounds where the game counts them) against the
 * random bot in each seat, through the same referee loop as a tournament,
 * and reports per seat: started or not, the time to its hello, the time of
 * its first decision, its protocol errors (no strikes: the first is the
 * forfeit, with its reason), and the tail of its log; then one verdict line
 * per game, and the games it plays. `arena bot add` runs the same check
 * before it registers a bot, in the games it declares or, by default, in
 * every game, keeping those it plays.
 *
 * Each seat's match is played by a child process: nothing the bot does to
 * its referee (a flood that makes libzmq abort, a signal) can take the
 * arena down; the child's death is the bot's refusal, said plainly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena_cmd.h"
#include "arena_show.h"
#include "arena_tourney.h"
#include "cli.h"
#include "game.h"
#include "kv.h"
#include "ref_log.h"
#include "ref_env.h"
#include "ref_cmd.h"
#include "ref_dir.h"
#include "ref_match.h"
#include "ref_record.h"
#include "ref_sandbox.h"

/* Rounds of the check's match where the game counts rounds: enough for
 * every kind of decision, short enough for a slow bot. */
#define CHECK_ROUNDS "round_limit=4"
#define LOG_TAIL_LINES 12

static const char test_help[] =
    "usage: arena bot test BOT [--game G]...     (a registered bot: NAME, NAME@VERSION, NAME#ID)\n"
    "       arena bot test --cmd CMD [--cwd DIR] [--game G]...\n"
    "In each game (--game, else every game), plays a short match against the random bot\n"
    "in each seat and reports, per seat: started or not, the time to its hello, its first\n"
    "decision's time, its protocol errors (the first one is the verdict: no strikes here),\n"
    "and the tail of its log; then the games it plays. Exit 0 when it plays both seats of\n"
    "each game it must (the --game ones, else a registered bot's own games, else one at\n"
    "least), 1 when it does not, 2 when it cannot be tried.\n"
    "Its bots are sandboxed as $ARENA_SANDBOX says, else auto.\n";

typedef struct check_opts {
    const char *cmd, *cwd, *opponent;
    const char *env;              /* the bot's registered NAME=VALUE lines, or NULL */
    const game_api *game;         /* the game of the match */
    ref_terms terms;              /* the defaults but for a few flags; no strikes */
} check_opts;

/* The random bot built beside the arena (build/arena/arena, build/agents/random). */
static void default_opponent(char *buf, size_t size)
{
    cli_sibling("../agents/random", buf, size);
}

static void print_tail(FILE *out, const char *dir, int seat)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/seat%d.log", dir, seat);
    ref_log l;
    if (ref_log_read(&l, path, REF_LOG_MAX_CAP) < 0)
        return;
    if (l.bytes)              /* a quiet bot: nothing to show */
        arena_show_log(out, seat, l.text, l.len, l.bytes, LOG_TAIL_LINES);
    ref_log_free(&l);
}

static void remove_logs(const char *dir)
{
    for (int seat = 0; seat < 2; seat++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/seat%d.log", dir, seat);
        unlink(path);
    }
    rmdir(dir);
}

/* One seat's line: how it started, its first decision, how the match ended
 * for it. Returns 1 when the bot played its seat through, else 0. */
static int seat_report(FILE *out, const char *label, int seat, const ref_record *r)
{
    int culprit = r->culprit == seat;
    fprintf(out, "bot test %s: seat %d v random: ", label, seat);
    if (!r->hello_micros[seat])
        fprintf(out, "not started (no hello)");
    else
        fprintf(out, "started, hello after %.0f ms", r->hello_micros[seat] / 1000.0);
    int mine = 0;
    for (size_t i = 0; i < r->ndecisions; i++) {
        if (r->decisions[i].seat != seat)
            continue;
        if (!mine++)
            fprintf(out, ", first decision %.1f ms", r->decisions[i].micros / 1000.0);
    }
    fprintf(out, ", %d decisions", mine);
    if (culprit)
        fprintf(out, "; it forfeited: %s (%s)\n", r->reason, r->detail);
    else if (r->culprit >= 0)
        fprintf(out, "; the random bot forfeited: %s (%s)\n", r->reason, r->detail);
    else
        fprintf(out, "; %s (%s), no protocol errors\n",
                r->score[seat] > r->score[1 - seat] ? "won"
                : r->score[seat] < r->score[1 - seat] ? "lost" : "drew", r->reason);
    return !culprit && r->hello_micros[seat];
}

/* Plays the bot in `seat` against the opponent, its logs in `dir`: 1 it
 * played, 0 it did not (the verdict is in *why), -1 the referee could not
 * run (err). */
static int play_seat_here(const check_opts *o, const char *label, int seat, const char *dir,
                          FILE *out, char *why, size_t whysize, char *err, size_t size)
{
    ref_sandbox_mode mode;
    if (ref_sandbox_mode_choose(NULL, &mode, err, size) < 0)
        return -1;
    const game_api *g = o->game;
    game_options *options = game_options_new(g);
    if (!options) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    char ignored[128];
    if (game_options_parse(options, CHECK_ROUNDS, ignored, sizeof ignored) < 0)
        game_options_parse(options, "", ignored, sizeof ignored);
    ref_config c;
    ref_config_default(&c);
    c.game = g;
    c.options = options;
    c.seed = 0x5eed0 + (uint64_t)seat;
    c.nbots = 2;
    c.bot_cmd[seat] = o->cmd;
    ref_env env;
    if (ref_env_parse(&env, o->env ? o->env : "", err, size) < 0) {
        game_options_free(options);
        return -1;
    }
    c.bot_env[seat] = env.entry;
    c.bot_cwd[seat] = o->cwd && o->cwd[0] ? o->cwd : NULL;
    c.bot_cmd[1 - seat] = o->opponent;
    c.terms = o->terms;
    c.terms.strikes = 0;
    c.sandbox = mode;
    c.log_dir = dir;
    ref_record r;
    ref_record_init(&r);
    int rc = ref_match_play(&c, &r, err, size);
    if (rc == 0) {
        rc = seat_report(out, label, seat, &r);
        print_tail(out, dir, seat);
        if (!rc)
            snprintf(why, whysize, "%s in seat %d (%s)", r.reason, seat, r.detail);
    }
    ref_record_free(&r);
    game_options_free(options);
    return rc;
}

/* What the child that played a seat tells the arena. */
typedef struct seat_answer {
    int  rc;                      /* play_seat_here's */
    char why[512], err[512];
} seat_answer;

/* play_seat_here in a child process: its answer, or, when it died, 0 with
 * the death as the verdict. -1 with err if no child could be made. */
static int play_seat(const check_opts *o, const char *label, int seat, FILE *out, char *why,
                     size_t whysize, char *err, size_t size)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/arena-bot-test-XXXXXX", ref_dir_parent());
    if (!mkdtemp(dir)) {
        snprintf(err, size, "cannot make a folder for the logs: %s", strerror(errno));
        return -1;
    }
    int fds[2];
    fflush(out);
    pid_t pid = pipe(fds) == 0 ? fork() : -1;
    if (pid == 0) {
        close(fds[0]);
        seat_answer a = { 0 };
        a.rc = play_seat_here(o, label, seat, dir, out, a.why, sizeof a.why, a.err,
                              sizeof a.err);
        fflush(out);
        _exit(write(fds[1], &a, sizeof a) == (ssize_t)sizeof a ? 0 : 1);
    }
    if (pid < 0) {
        snprintf(err, size, "cannot start the check's referee: %s", strerror(errno));
        remove_logs(dir);
        return -1;
    }
    close(fds[1]);
    seat_answer a;
    ssize_t got;
    while ((got = read(fds[0], &a, sizeof a)) < 0 && errno == EINTR)
        ;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    remove_logs(dir);
    if (got == (ssize_t)sizeof a && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        snprintf(why, whysize, "%s", a.why);
        snprintf(err, size, "%s", a.err);
        return a.rc;
    }
    ref_dir_sweep();              /* the dead referee's match folder */
    if (WIFSIGNALED(status))
        snprintf(why, whysize, "its referee died of signal %d in seat %d (%s)",
                 WTERMSIG(status), seat, strsignal(WTERMSIG(status)));
    else
        snprintf(why, whysize, "its referee stopped (status %d) in seat %d",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, seat);
    fprintf(out, "bot test %s: seat %d v random: %s\n", label, seat, why);
    return 0;
}

/* The check in o->game: 0 the bot plays both seats, 1 it does not (why),
 * -1 the referee could not run (the error printed). */
static int check_game(const check_opts *o, const char *label, FILE *out, char *why,
                      size_t whysize)
{
    char err[512];
    for (int seat = 0; seat < 2; seat++) {
        int played = play_seat(o, label, seat, out, why, whysize, err, sizeof err);
        if (played < 0)
            return ac_fail("bot test: %s", err), -1;
        if (!played) {
            fprintf(out, "bot test %s: FAILED: %s\n", label, why);
            return 1;
        }
    }
    fprintf(out, "bot test %s: ok: plays both seats with no protocol errors\n", label);
    return 0;
}

static void add_checked(ac_games *set, const game_api *g)
{
    if (set->n < AC_MAX_GAMES)
        set->game[set->n++] = g;
}

/* The check in each game (none given: every game): 0 it ran (got), 2 it
 * cannot be tried (the error printed). */
static int check(check_opts *o, const char *label, const ac_games *games, FILE *out,
                 ac_checked *got)
{
    memset(got, 0, sizeof *got);
    ac_games every;
    if (!games || !games->n) {
        ac_every_game(&every);
        games = &every;
    }
    if (access(o->opponent, X_OK) != 0 && !strchr(o->opponent, ' '))
        return ac_fail("bot test: no random bot at %s (--opponent CMD names another)",
                       o->opponent);
    char why[512];
    if (ref_cmd_check(o->cmd, o->cwd, why, sizeof why) < 0) {
        fprintf(out, "bot test %s: FAILED: %s\n", label, why);
        for (int i = 0; i < games->n; i++) {
            snprintf(got->why[got->fails.n], sizeof got->why[0], "%s", why);
            add_checked(&got->fails, games->game[i]);
        }
        return 0;
    }
    for (int i = 0; i < games->n; i++) {
        char in[256];
        o->game = games->game[i];
        snprintf(in, sizeof in, "%s in %s", label, o->game->name);
        int rc = check_game(o, in, out, why, sizeof why);
        if (rc < 0)
            return 2;
        if (rc)
            snprintf(got->why[got->fails.n], sizeof got->why[0], "%s", why);
        add_checked(rc ? &got->fails : &got->plays, o->game);
    }
    return 0;
}

void ac_checked_why(const ac_checked *got, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = 0;
    for (int i = 0; i < got->fails.n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", i ? "; " : "",
                                got->fails.n > 1 ? got->fails.game[i]->name : "",
                                got->fails.n > 1 ? ": " : "", got->why[i]);
}

int ac_bot_check(const char *label, const char *cmd, const char *cwd, const char *env,
                 const ac_games *games, int64_t memory_mb, FILE *out, ac_checked *got)
{
    char opponent[PATH_MAX];
    default_opponent(opponent, sizeof opponent);
    check_opts o = { .cmd = cmd, .cwd = cwd, .env = env, .opponent = opponent };
    ref_terms_default(&o.terms);
    o.terms.memory_mb = memory_mb;
    return check(&o, label, games, out, got);
}

int ac_bot_check_games(const char *label, const char *cmd, const char *cwd, const char *env,
                       const ac_games *games, int64_t memory_mb, FILE *out, ac_games *plays,
                       char *failed, size_t fsize, char *why, size_t wsize)
{
    ac_checked got;
    *plays = *games;
    if (!plays->n)
        ac_every_game(plays);
    if (ac_bot_check(label, cmd, cwd, env, games, memory_mb, out, &got) != 0)
        return 2;
    ac_checked_why(&got, why, wsize);
    ac_games_text(&got.fails, failed, fsize);
    *plays = got.plays;
    return (games->n && got.fails.n) || !got.plays.n;
}

/* After the check of every game tried: which it plays, which not; and
 * whether it passed: it plays each game it must (`must`, space-separated:
 * the --game ones, or a registered bot's), or, with none, one at least.
 * 0 passed, 1 not. */
static int verdict(const char *label, const ac_checked *got, const char *must, FILE *out)
{
    char plays[256], fails[256], missed[256] = "";
    ac_games_text(&got->plays, plays, sizeof plays);
    ac_games_text(&got->fails, fails, sizeof fails);
    arena_bot need = { .id = 0 };
    snprintf(need.plays, sizeof need.plays, "%s", must ? must : "");
    size_t len = 0;
    for (int i = 0; i < got->fails.n && len < sizeof missed; i++)
        if (arena_bot_plays(&need, got->fails.game[i]->name))
            len += (size_t)snprintf(missed + len, sizeof missed - len, "%s%s", len ? " " : "",
                                    got->fails.game[i]->name);
    if (got->plays.n + got->fails.n > 1)
        fprintf(out, "bot test %s: %s%s%s%s\n", label, got->plays.n ? "plays " : "plays none of ",
                got->plays.n ? plays : fails, got->plays.n && got->fails.n ? "; cannot play " : "",
                got->plays.n && got->fails.n ? fails : "");
    if (missed[0])
        fprintf(out, "bot test %s: FAILED: it cannot play %s, which it must\n", label, missed);
    return missed[0] || (!need.plays[0] && !got->plays.n);
}

int ac_bot_test(int argc, char **argv)
{
    char opponent[PATH_MAX];
    default_opponent(opponent, sizeof opponent);
    check_opts o = { .opponent = opponent };
    ref_terms_default(&o.terms);
    const char *names[1], *name = NULL;
    int n = 0;
    ac_games games = { .n = 0 };
    const cli_flag flags[] = {
        CLI_CALL("--game", "G", "the game to try it in (repeatable; default: every game, each "
                 "reported)", ac_add_game, &games),
        CLI_ARG("--cmd", CLI_STR, "CMD", "an unregistered bot's command", &o.cmd),
        CLI_ARG("--cwd", CLI_STR, "DIR", "the folder --cmd starts in", &o.cwd),
        CLI_NUM("--move-ms", CLI_I64, "N", "time per decision (default 1000)", &o.terms.move_ms, 1,
                3600000),
        CLI_NUM("--handshake-ms", CLI_I64, "N", "time from start to hello (default 10000)",
                &o.terms.handshake_ms, 1, 3600000),
        CLI_NUM("--memory-mb", CLI_I64, "N", "each bot's memory limit in MB; 0: none (default: "
                "the referee's)", &o.terms.memory_mb, 0, 1 << 20),
        CLI_ARG("--opponent", CLI_STR, "CMD", "the opponent (default: the random bot built "
                "beside the arena)", &o.opponent),
        CLI_END,
    };
    int parsed = ac_parse("bot test", flags, argc - 1, argv + 1, names, &n, 1, test_help, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (n)
        name = names[0];
    if (!name == !o.cmd)
        return ac_fail("bot test needs a registered BOT or --cmd CMD (one of them)");
    arena_bot b;
    if (name) {
        arena_db *db = ac_open(0);
        if (!db)
            return 2;
        int found = arena_db_bot_by_name(db, name, &b);
        arena_db_close(db);
        if (found != 0)
            return ac_fail("bot test: no bot '%s'", name);
        o.cmd = b.cmd;
        o.env = b.env;
        o.cwd = b.cwd;
    }
    const char *label = name ? name : "--cmd";
    char must[256] = "";
    ac_checked got;
    if (check(&o, label, &games, stdout, &got) != 0)
        return 2;
    if (games.n)
        ac_games_text(&games, must, sizeof must);
    else if (name)
        snprintf(must, sizeof must, "%s", b.plays);
    return verdict(label, &got, must, stdout);
}

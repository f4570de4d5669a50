/*
 * arena_cmd_bot.c - `arena bot`: register bots and their versions with
 * the games they play, list them with their status, and change a status
 * (retire, disable, enable) while a ladder runs; the ladder picks the
 * change up within seconds.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena_cmd.h"
#include "clk.h"
#include "arena_report.h"
#include "arena_tourney.h"
#include "ref_cmd.h"
#include "ref_env.h"

static const char bot_help[] =
    "usage: arena bot add NAME --cmd CMD [--game G]... [options]   (a bot, or a new version)\n"
    "       arena bot test BOT|--cmd CMD [--game G]...  (short matches v the random bot)\n"
    "       arena bot list [--format table|csv|json]\n"
    "       arena bot remove BOT                (its past matches are kept)\n"
    "       arena bot retire BOT [--reason TEXT] (stops playing for good; history kept)\n"
    "       arena bot disable BOT --reason TEXT  (stops playing until enabled)\n"
    "       arena bot enable BOT\n"
    "BOT is NAME (its newest version), NAME@VERSION, or NAME#ID as tables show it.\n"
    "A bot plays the games it was added with (bot list: plays); tournaments and ladders\n"
    "schedule it only in those. Each command takes --help.\n"
    "Statuses: active, provisional (active, fewer than 20 games), disabled (with the\n"
    "reason: by hand, by a ladder after --max-forfeits forfeits in a row, or by a failed\n"
    "--gate sprt), retired, trial (a new version playing its ladder gate's SPRT).\n";

/* A flag's text into a fixed buffer, refused when it does not fit. */
typedef struct text_field {
    char  *dst;
    size_t cap;
} text_field;

static int set_text(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    const text_field *t = ctx;
    if (strlen(value) >= t->cap) {
        snprintf(err, size, "%s is too long (at most %zu bytes)", flag, t->cap - 1);
        return -1;
    }
    snprintf(t->dst, t->cap, "%s", value);
    return 0;
}

static int add_env(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    (void)flag;
    arena_bot *b = ctx;
    return ref_env_append(b->env, sizeof b->env, value, err, size);
}

static const char add_head[] =
    "usage: arena bot add NAME --cmd CMD [--game G]... [--cwd DIR] [--version V]\n"
    "                     [--env NAME=VALUE]... [--no-test]\n"
    "The bot's environment is ARENA_*, what --env names and, sandboxed, PATH, LANG, HOME\n"
    "and TMPDIR: nothing of the arena's. It is tried first as bot test does, in each game\n"
    "it declares (--game), and refused if it cannot play one of them; with no --game, in\n"
    "every game, and it plays those it passes (refused if none). Tournaments and ladders\n"
    "schedule it only in its games; each version has its own.\n";

/* A shell word after the words in dst: prefix as it is (an assignment's
 * "NAME="), then word, single-quoted unless every character is plain. */
static int put_word(char *dst, size_t cap, size_t *len, const char *prefix, const char *word)
{
    int plain = *word && !word[strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                           "0123456789_./+-@%:,=")];
    size_t at = *len;
    if (at >= cap)
        return -1;
    at += (size_t)snprintf(dst + at, cap - at, "%s%s%s", at ? " " : "", prefix,
                           plain ? word : "'");
    for (const char *p = word; !plain && *p && at < cap; p++)
        at += (size_t)snprintf(dst + at, cap - at, *p == '\'' ? "'\\''" : "%c", *p);
    if (!plain && at < cap)
        at += (size_t)snprintf(dst + at, cap - at, "'");
    *len = at;
    return at < cap ? 0 : -1;
}

/* The bot runs from wherever the arena runs, so what it was given relative
 * to the folder `bot add` ran in is made absolute there: --cwd, else the
 * command's program when it names a path (./bot, bots/x) and each later
 * word that names a file here (python3 bot.py). A command the shell must
 * run (ref_cmd.h) is kept as given. 1 changed, 0 not, -1 after the error
 * line. */
static int resolve_paths(arena_bot *b)
{
    char here[2048];
    if (!getcwd(here, sizeof here))
        return ac_fail("bot add: cannot tell the current folder: %s", strerror(errno)), -1;
    if (b->cwd[0] && b->cwd[0] != '/') {
        char abs[sizeof b->cwd + 8];
        const char *rel = strncmp(b->cwd, "./", 2) ? b->cwd : b->cwd + 2;
        if ((size_t)snprintf(abs, sizeof abs, "%s/%s", here, rel) >= sizeof b->cwd)
            return ac_fail("bot add: the folder %s/%s is too long", here, rel), -1;
        memcpy(b->cwd, abs, strlen(abs) + 1);     /* it fits: checked above */
        return 1;
    }
    if (b->cwd[0])
        return 0;
    ref_cmd c;
    char err[256], out[sizeof b->cmd], path[4200];
    if (ref_cmd_parse(&c, b->cmd, err, sizeof err) < 0)
        return ac_fail("bot add: --cmd: %s", err), -1;
    size_t len = 0;
    int changed = 0, rc = 0;
    out[0] = 0;
    for (char **a = c.assign; rc == 0 && !c.shell && *a; a++) {
        size_t name = strcspn(*a, "=");         /* NAME=VALUE: NAME stays unquoted */
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%.*s=", (int)(name < 250 ? name : 250), *a);
        rc = put_word(out, sizeof out, &len, prefix, *a + name + ((*a)[name] == '='));
    }
    for (int i = 0; rc == 0 && !c.shell && c.argv[i]; i++) {
        const char *w = c.argv[i];
        int relative = w[0] != '/' && w[0] != '-' &&
                       (i == 0 ? strchr(w, '/') != NULL : access(w, F_OK) == 0);
        if (relative) {
            snprintf(path, sizeof path, "%s/%s", here, strncmp(w, "./", 2) ? w : w + 2);
            w = path;
            changed = 1;
        }
        rc = put_word(out, sizeof out, &len, "", w);
    }
    ref_cmd_free(&c);
    if (rc < 0)
        return ac_fail("bot add: --cmd with its paths made absolute is longer than %zu bytes",
                       sizeof b->cmd - 1), -1;
    if (changed)
        snprintf(b->cmd, sizeof b->cmd, "%s", out);
    return changed;
}

/* What the database would refuse, found before the bot's check runs (it
 * takes seconds): a folder for a new database that does not exist, or a
 * name and version registered already. 0, or -1 after the error line. */
static int refused_early(const arena_bot *b)
{
    if (access(ac_db_path, F_OK) != 0) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", ac_db_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir] = 0;        /* "/x.db" is in "/" */
        if (slash && access(dir, F_OK) != 0)
            return ac_fail("bot add: no folder %s for the database %s", dir, ac_db_path), -1;
        return 0;
    }
    arena_db *db = ac_open(0);
    if (!db)
        return -1;
    char ref[sizeof b->name + sizeof b->version + 1];
    snprintf(ref, sizeof ref, "%s%s%s", b->name, b->version[0] ? "@" : "", b->version);
    arena_bot got;
    int found = arena_db_bot_by_name(db, ref, &got);
    arena_db_close(db);
    if (found == 0 && !b->version[0])
        return ac_fail("a bot named %s is already registered (a new version needs --version)",
                       b->name), -1;
    if (found == 0)
        return ac_fail("%s version %s is already registered", b->name, b->version), -1;
    return 0;
}

/* The games b plays, into b->plays, by the rule ac_bot_check_games
 * applies; untried (no test, or a check that could not run), the declared
 * games or every game. The games it failed into `failed`, why into `why`.
 * 0 checked, 1 untried, -1 refused (the error line said). */
static int choose_games(arena_bot *b, const ac_games *games, int test, int64_t memory_mb,
                        char *failed, size_t fsize, char *why, size_t wsize)
{
    ac_games plays = *games;
    if (!plays.n)
        ac_every_game(&plays);
    int rc = test ? ac_bot_check_games(b->name, b->cmd, b->cwd, b->env, games, memory_mb,
                                       stdout, &plays, failed, fsize, why, wsize)
                  : 2;
    if (rc == 1 && games->n)
        return ac_fail("bot add %s: refused: it cannot play %s (%s); fix it, or register it "
                       "anyway with --no-test", b->name, failed, why), -1;
    if (rc == 1)
        return ac_fail("bot add %s: refused: it cannot play any game (%s); fix it, or "
                       "register it anyway with --no-test and its --game", b->name, why), -1;
    if (test && rc == 2)
        fprintf(stderr, "arena: bot add %s: registered untried (the check could not run)\n",
                b->name);
    ac_games_text(&plays, b->plays, sizeof b->plays);
    return rc == 2;
}

static int bot_add(int argc, char **argv)
{
    char err[512];
    arena_bot b;
    memset(&b, 0, sizeof b);
    text_field cmd = { b.cmd, sizeof b.cmd }, cwd = { b.cwd, sizeof b.cwd },
               version = { b.version, sizeof b.version };
    int no_test = 0, n = 0;
    int64_t memory_mb = -1;
    const char *name[1];
    ac_games games = { .n = 0 };
    const cli_flag flags[] = {
        CLI_CALL("--cmd", "CMD", "the command that starts the bot (required)", set_text, &cmd),
        CLI_CALL("--game", "G", "a game it plays (repeatable): its check must pass in each; "
                 "default: the games whose check it passes (every game with --no-test)",
                 ac_add_game, &games),
        CLI_CALL("--cwd", "DIR", "the folder it starts in", set_text, &cwd),
        CLI_CALL("--version", "V", "NAME registered already: a new version, rated apart",
                 set_text, &version),
        CLI_CALL("--env", "NAME=VALUE", "a variable of the bot's environment (repeatable)",
                 add_env, &b),
        CLI_ARG("--no-test", CLI_SWITCH, NULL, "register it untried (see bot test)", &no_test),
        CLI_NUM("--memory-mb", CLI_I64, "N", "each bot's memory limit in MB in its check; 0: "
                "none (default: the referee's)", &memory_mb, 0, 1 << 20),
        CLI_END,
    };
    int parsed = ac_parse("bot add", flags, argc - 1, argv + 1, name, &n, 1, add_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("bot add needs a NAME");
    if (strlen(name[0]) >= sizeof b.name)
        return ac_fail("bot add: the name is longer than %zu characters", sizeof b.name - 1);
    snprintf(b.name, sizeof b.name, "%s", name[0]);
    int test = !no_test;
    if (!b.cmd[0])
        return ac_fail("bot add: --cmd is required");
    if (refused_early(&b) < 0)
        return 2;
    int resolved = resolve_paths(&b);
    if (resolved < 0)
        return 2;
    if (b.cwd[0] && access(b.cwd, X_OK) != 0)
        return ac_fail("bot add: no directory %s", b.cwd);
    if (ref_cmd_check(b.cmd, b.cwd, err, sizeof err) < 0)
        return ac_fail("bot add %s: %s", b.name, err);
    char failed[256] = "", why[2048] = "";
    int untried =
        choose_games(&b, &games, test, memory_mb, failed, sizeof failed, why, sizeof why);
    if (untried < 0)
        return 2;
    arena_db *db = ac_open(1);
    if (!db)
        return 2;
    int rc = arena_db_bot_add(db, &b, err, sizeof err);
    arena_bot got;
    if (rc == 0 && arena_db_bot_by_name(db, b.name, &got) == 0 && got.previous_id)
        printf("added bot %s, a new version (rated apart from the one before)\n", got.label);
    else if (rc == 0)
        printf("added bot %s\n", b.name);
    if (rc == 0 && resolved)
        printf("  it runs %s%s%s (relative paths resolved against this folder)\n", b.cmd,
               b.cwd[0] ? " in " : "", b.cwd);
    if (rc == 0)
        printf("  it plays %s%s%s%s%s\n", b.plays, untried ? " (untried)" : "",
               failed[0] ? "; not " : "", failed, failed[0] ? ", which it failed" : "");
    arena_db_close(db);
    return rc < 0 ? ac_fail("%s", err) : 0;
}

/* A bot's environment lines, each an escaped text, sep between them. */
static void put_env(FILE *out, int format, const char *env, const char *sep)
{
    char line[sizeof ((arena_bot *)0)->env];
    for (const char *p = env; *p;) {
        size_t len = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p);
        fputs(p == env ? "" : sep, out);
        ac_put_text(out, format, line);
        p += len + (p[len] == '\n');
    }
}

/* Game names (registry names: no escaping needed) as JSON strings. */
static void put_words(FILE *out, const char *words)
{
    for (const char *p = words; *p;) {
        size_t len = strcspn(p, " ");
        fprintf(out, "%s\"%.*s\"", p == words ? "" : ", ", (int)len, p);
        p += len + (p[len] == ' ');
    }
}

/* remote: a remote bot's state (arena_remote_bot_state), "" for another. */
static void list_row(const arena_bot *b, const char *remote, int format, int first, FILE *out)
{
    const char *status = arena_bot_status_shown(b);
    if (format == ARENA_JSON) {
        fprintf(out, "%s\n  {\"id\": %" PRId64 ", \"bot\": ", first ? "" : ",", b->id);
        ac_put_text(out, format, b->label);
        fprintf(out, ", \"name\": \"%s\", \"version\": ", b->name);
        ac_put_text(out, format, b->version);
        fprintf(out, ", \"status\": \"%s\", \"reason\": ", status);
        ac_put_text(out, format, b->reason);
        fprintf(out, ", \"games\": %d, \"elo\": %.1f, \"previous\": ", b->games, b->elo);
        fprintf(out, b->previous_id ? "%" PRId64 : "null", b->previous_id);
        fprintf(out, ", \"plays\": [");
        put_words(out, b->plays);
        fprintf(out, "], \"command\": ");
        ac_put_text(out, format, b->cmd);
        fprintf(out, ", \"cwd\": ");
        ac_put_text(out, format, b->cwd);
        fprintf(out, ", \"env\": [");
        put_env(out, format, b->env, ", ");
        /* a participant's name and a hash: [A-Za-z0-9_.-] and hex, no escaping */
        fprintf(out, b->owner[0] ? "], \"owner\": \"%s\"" : "], \"owner\": null%s", b->owner);
        fprintf(out, b->content_hash[0] ? ", \"content_hash\": \"%s\""
                                        : ", \"content_hash\": null%s", b->content_hash);
        fprintf(out, remote[0] ? ", \"remote\": \"%s\"}" : ", \"remote\": null%s}", remote);
    } else if (format == ARENA_CSV) {
        fprintf(out, "%" PRId64 ",%s,%s,", b->id, b->label, b->name);
        ac_put_text(out, format, b->version);
        fprintf(out, ",%s,", status);
        ac_put_text(out, format, b->reason);
        fprintf(out, ",%d,%.1f,", b->games, b->elo);
        if (b->previous_id)
            fprintf(out, "%" PRId64, b->previous_id);
        fprintf(out, ",%s,", b->plays);
        ac_put_text(out, format, b->cmd);
        fputc(',', out);
        ac_put_text(out, format, b->cwd);
        fputc(',', out);
        ac_put_text(out, format, b->env);
        fprintf(out, ",%s,%s,%s\n", b->owner, b->content_hash, remote);
    } else {
        fprintf(out, "%-24s %-10s %-11s %5d  %-19s ", b->label, b->version[0] ? b->version : "-",
                status, b->games, b->plays);
        if (remote[0])
            fprintf(out, "remote, %s", remote);
        else
            ac_put_text(out, format, b->cmd);
        if (b->cwd[0]) {
            fputs("   (in ", out);
            ac_put_text(out, format, b->cwd);
            fputc(')', out);
        }
        if (b->env[0]) {
            fputs("   env ", out);
            put_env(out, format, b->env, " ");
        }
        if (b->owner[0])
            fprintf(out, "   owner %s", b->owner);
        if (b->content_hash[0])
            fprintf(out, "   content %.12s", b->content_hash);
        if (b->reason[0]) {
            fputs("   ", out);
            ac_put_text(out, format, b->reason);
        }
        fputc('\n', out);
    }
}

static int bot_list(int argc, char **argv)
{
    int format = ARENA_TABLE;
    int64_t absent_after = 3600;
    const cli_flag flags[] = {
        CLI_CALL("--format", "table|csv|json", "the output (default table)", ac_set_format,
                 &format),
        CLI_NUM("--absent-after", CLI_I64, "S", "a remote bot not connected for S seconds is "
                "shown absent (default 3600)", &absent_after, 0, 100000000),
        CLI_END,
    };
    int parsed = ac_parse("bot list", flags, argc - 1, argv + 1, NULL, NULL, 0,
                          "usage: arena bot list [--format table|csv|json] [--absent-after S]\n",
                          NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_bot *bots;
    int n = arena_db_bot_list(db, &bots);
    const char **remote = n >= 0 ? calloc((size_t)n + 1, sizeof *remote) : NULL;
    int64_t now = clk_wall_ms();
    for (int i = 0; remote && i < n; i++) {
        arena_remote_bot r;
        remote[i] = arena_db_remote_get(db, bots[i].id, &r) == 0
                        ? arena_remote_bot_state(&r, now, absent_after * 1000) : "";
    }
    arena_db_close(db);
    if (n < 0 || !remote) {
        free(n >= 0 ? bots : NULL);
        return ac_fail("cannot list bots");
    }
    if (format == ARENA_CSV)
        printf("id,bot,name,version,status,reason,games,elo,previous,plays,command,cwd,env,"
               "owner,content_hash,remote\n");
    else if (format == ARENA_JSON)
        printf("[");
    else
        printf("%-24s %-10s %-11s %5s  %-19s %s\n", "bot", "version", "status", "games", "plays",
               "command");
    for (int i = 0; i < n; i++)
        list_row(&bots[i], remote[i], format, i == 0, stdout);
    if (format == ARENA_JSON)
        printf("%s]\n", n ? "\n" : "");
    free(bots);
    free(remote);
    return 0;
}

/* remove, retire, disable, enable: BOT, then --reason TEXT where it fits. */
static int bot_change(int argc, char **argv)
{
    const char *what = argv[0], *reason = NULL, *bot[1];
    int needs_reason = !strcmp(what, "disable"), takes_reason = needs_reason ||
                                                                 !strcmp(what, "retire");
    int n = 0;
    cli_flag flags[] = {
        CLI_ARG("--reason", CLI_STR, "TEXT", "why, shown with the bot", &reason),
        CLI_END,
    };
    if (!takes_reason)
        flags[0] = (cli_flag)CLI_END;
    char label[32], head[128];
    snprintf(label, sizeof label, "bot %s", what);
    snprintf(head, sizeof head, "usage: arena bot %s BOT%s\n", what,
             needs_reason ? " --reason TEXT" : takes_reason ? " [--reason TEXT]" : "");
    int parsed = ac_parse(label, flags, argc - 1, argv + 1, bot, &n, 1, head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("bot %s needs a BOT", what);
    if (needs_reason && (!reason || !reason[0]))
        return ac_fail("bot disable needs --reason TEXT (it is shown with the bot)");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    arena_bot b;
    int rc;
    if (arena_db_bot_by_name(db, bot[0], &b) != 0) {
        snprintf(err, sizeof err, "no registered bot named %s", bot[0]);
        rc = -1;
    } else if (!strcmp(what, "remove")) {
        rc = arena_db_bot_remove(db, bot[0], err, sizeof err);
    } else {
        const char *status = !strcmp(what, "enable") ? "active"
                           : !strcmp(what, "disable") ? "disabled" : "retired";
        rc = arena_db_bot_set_status(db, bot[0], status, reason ? reason : "", err, sizeof err);
    }
    arena_db_close(db);
    if (rc < 0)
        return ac_fail("%s", err);
    if (!strcmp(what, "remove"))
        printf("removed bot %s (its matches are kept)\n", b.label);
    else
        printf("%s %sd\n", b.label, !strcmp(what, "retire") ? "retire"
                                    : !strcmp(what, "enable") ? "enable" : "disable");
    return 0;
}

int ac_bot(int argc, char **argv)
{
    if (argc < 1 || ac_help(1, argv)) {      /* each command answers its own --help */
        fputs(bot_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "add"))
        return bot_add(argc, argv);
    if (!strcmp(argv[0], "list"))
        return bot_list(argc, argv);
    if (!strcmp(argv[0], "test"))
        return ac_bot_test(argc, argv);
    if (!strcmp(argv[0], "remove") || !strcmp(argv[0], "retire") ||
        !strcmp(argv[0], "disable") || !strcmp(argv[0], "enable"))
        return bot_change(argc, argv);
    return ac_fail("unknown bot command '%s' (add, test, list, remove, retire, disable, enable)",
                   argv[0]);
}

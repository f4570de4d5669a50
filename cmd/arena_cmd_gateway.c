/*
 * arena_cmd_gateway.c - participants from anywhere: `arena user` (who may
 * submit: add with a credentials file, list, revoke), `arena gateway`
 * (the entrance they submit through, gateway/gw.h) and `arena submit`
 * (what a participant runs, with nothing but their credentials file).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zmq.h>

#include "arena_cmd.h"
#include "arena_report.h"
#include "gw.h"
#include "store.h"

/* ---- arena user ------------------------------------------------------------- */

static const char user_help[] =
    "usage: arena user add NAME --endpoint ENDPOINT --out FILE\n"
    "       arena user list\n"
    "       arena user revoke NAME\n"
    "A participant submits bots through `arena gateway` with the credentials file `user add`\n"
    "writes (their secret key, the arena's public key, the gateway's ENDPOINT as they reach\n"
    "it, e.g. tcp://arena.example.org:7788): hand it to them, and to nobody else. The arena's\n"
    "own key pair is made the first time, beside the database (DB.key, DB.key.pub).\n"
    "A revoked participant is refused from their next request on; their bots stay.\n";

static int user_add(int argc, char **argv)
{
    const char *endpoint = NULL, *out = NULL, *name[1];
    int n = 0;
    const cli_flag flags[] = {
        CLI_ARG("--endpoint", CLI_STR, "ENDPOINT", "where the participant reaches the gateway "
                "(tcp://HOST:PORT)", &endpoint),
        CLI_ARG("--out", CLI_STR, "FILE", "the credentials file to write (new, mode 0600)",
                &out),
        CLI_END,
    };
    int parsed = ac_parse("user add", flags, argc - 1, argv + 1, name, &n, 1,
                          "usage: arena user add NAME --endpoint ENDPOINT --out FILE\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n || !endpoint || !out)
        return ac_fail("user add needs a NAME, --endpoint ENDPOINT and --out FILE");
    if (!gw_name_ok(name[0]))
        return ac_fail("user add: a name is 1-63 characters of letters, digits, '_', '.', '-'");
    if (strncmp(endpoint, "tcp://", 6) && strncmp(endpoint, "ipc://", 6))
        return ac_fail("user add: --endpoint is tcp://HOST:PORT (or ipc://PATH)");
    if (strlen(endpoint) >= sizeof ((gw_cred *)0)->endpoint)
        return ac_fail("user add: --endpoint is too long");
    arena_db *db = ac_open(1);
    if (!db)
        return 2;
    char err[512];
    gw_cred c;
    memset(&c, 0, sizeof c);
    arena_user u;
    memset(&u, 0, sizeof u);
    snprintf(c.name, sizeof c.name, "%s", name[0]);
    snprintf(c.endpoint, sizeof c.endpoint, "%s", endpoint);
    int rc = 0;
    zauth_key arena_secret;
    if (arena_db_user_get(db, name[0], NULL) == 0) {
        rc = ac_fail("user add: a participant named %s is registered already", name[0]);
    } else if (zmq_curve_keypair(u.public_key, c.secret) != 0) {
        rc = ac_fail("user add: this libzmq has no CURVE support");
    } else if (gw_arena_keys(ac_db_path, 1, c.server_public, arena_secret, err, sizeof err) < 0 ||
               gw_cred_write(out, &c, err, sizeof err) < 0) {
        rc = ac_fail("user add: %s", err);
    } else {
        snprintf(u.name, sizeof u.name, "%s", name[0]);
        snprintf(u.endpoint, sizeof u.endpoint, "%s", endpoint);
        if (arena_db_user_add(db, &u, err, sizeof err) < 0) {
            remove(out);
            rc = ac_fail("user add: %s", err);
        }
    }
    arena_db_close(db);
    if (rc == 0)
        printf("added participant %s; their credentials are in %s (hand it to them alone)\n",
               name[0], out);
    return rc;
}

static int user_list(int argc, char **argv)
{
    int parsed = ac_parse("user list", (const cli_flag[]){ CLI_END }, argc - 1, argv + 1, NULL,
                          NULL, 0, "usage: arena user list\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_user *users;
    int n = arena_db_user_list(db, &users);
    arena_db_close(db);
    if (n < 0)
        return ac_fail("cannot list the participants");
    printf("%-24s %-8s %4s  %-10s  %-40s  %s\n", "participant", "status", "bots", "added",
           "public key", "endpoint");
    for (int i = 0; i < n; i++) {
        char day[16];
        time_t t = (time_t)(users[i].added_ms / 1000);
        struct tm tm;
        strftime(day, sizeof day, "%Y-%m-%d", gmtime_r(&t, &tm));
        printf("%-24s %-8s %4d  %-10s  %-40s  ", users[i].name,
               users[i].revoked_ms ? "revoked" : "active", users[i].bots, day,
               users[i].public_key);
        ac_put_text(stdout, ARENA_TABLE, users[i].endpoint);
        putchar('\n');
    }
    free(users);
    return 0;
}

static int user_revoke(int argc, char **argv)
{
    const char *name[1];
    int n = 0;
    int parsed = ac_parse("user revoke", (const cli_flag[]){ CLI_END }, argc - 1, argv + 1,
                          name, &n, 1, "usage: arena user revoke NAME\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("user revoke needs a NAME");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    int rc = arena_db_user_revoke(db, name[0], err, sizeof err);
    arena_db_close(db);
    if (rc < 0)
        return ac_fail("user revoke: %s", err);
    printf(rc ? "%s was revoked already\n" : "revoked %s: refused from their next request on\n",
           name[0]);
    return 0;
}

int ac_user(int argc, char **argv)
{
    if (argc < 1 || ac_help(1, argv)) {
        fputs(user_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "add"))
        return user_add(argc, argv);
    if (!strcmp(argv[0], "list"))
        return user_list(argc, argv);
    if (!strcmp(argv[0], "revoke"))
        return user_revoke(argc, argv);
    return ac_fail("unknown user command '%s' (add, list, revoke)", argv[0]);
}

/* ---- arena gateway ---------------------------------------------------------- */

/* bot add's check from the stored copy, by bot add's rule
 * (ac_bot_check_games). */
static int check_bot(const char *label, const char *cmd, const char *cwd,
                     const char (*names)[32], int nnames, FILE *out, char *plays,
                     size_t plays_size, char *why, size_t size)
{
    ac_games games = { .n = 0 }, played;
    for (int i = 0; i < nnames; i++)
        if (ac_add_game(&games, "--game", names[i], why, size) < 0)
            return 1;
    char failed[256];
    int rc = ac_bot_check_games(label, cmd, cwd, NULL, &games, -1, out, &played, failed,
                                sizeof failed, why, size);
    if (rc == 2)
        snprintf(why, size, "its check could not run");
    if (rc == 0)
        ac_games_text(&played, plays, plays_size);
    return rc;
}

static const char gateway_head[] =
    "usage: arena gateway --listen ENDPOINT [options]\n"
    "The participants' entrance (arena user add lists them): each submission is stored by\n"
    "content hash beside the database (DB.store/), checked in the sandbox as bot add does,\n"
    "and registered under its participant. A line per request and refusal on stderr.\n";

int ac_gateway(int argc, char **argv)
{
    int64_t max_bytes = (int64_t)STORE_MAX_BYTES;
    gw_config c = { .db_path = ac_db_path, .max_files = STORE_MAX_FILES,
                    .rate = GW_DEFAULT_RATE, .concurrent = GW_DEFAULT_CONCURRENT,
                    .check = check_bot, .log = stderr };
    const cli_flag flags[] = {
        CLI_ARG("--listen", CLI_STR, "ENDPOINT", "where participants connect (tcp://*:7788)",
                &c.listen),
        CLI_NUM("--max-bytes", CLI_I64, "N", "a submission's size, sent and unpacked "
                "(default 64 MB)", &max_bytes, 1024, 1ll << 32),
        CLI_NUM("--max-files", CLI_INT, "N", "files in a submission (default 10000)",
                &c.max_files, 1, 1000000),
        CLI_NUM("--rate", CLI_INT, "N", "submissions per participant per hour (default 20)",
                &c.rate, 1, 1000000),
        CLI_NUM("--concurrent", CLI_INT, "N", "submissions checked at once (default 2)",
                &c.concurrent, 1, 32),
        CLI_END,
    };
    int parsed = ac_parse("gateway", flags, argc, argv, NULL, NULL, 0, gateway_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!c.listen)
        return ac_fail("gateway needs --listen ENDPOINT (tcp://*:7788)");
    c.max_bytes = (uint64_t)max_bytes;
    c.stop = ac_catch_stops();
    char err[512];
    if (gw_serve(&c, err, sizeof err) < 0)
        return ac_fail("gateway: %s", err);
    return 0;
}

/* ---- arena submit ----------------------------------------------------------- */

static const char submit_head[] =
    "usage: arena submit --credentials FILE --name BOT --version V [--game G]... --cmd CMD\n"
    "                    DIR|ARCHIVE.tar.gz\n"
    "       arena submit --credentials FILE --name BOT --version V --game G... --remote\n"
    "       arena submit --credentials FILE --list\n"
    "       arena submit --credentials FILE --disable BOT|--retire BOT [--reason TEXT]\n"
    "Sends a bot's folder (or a .tar.gz of it) to the arena's gateway, with the command that\n"
    "starts it inside that folder; the arena stores it, checks it in its sandbox and answers\n"
    "accepted or refused with the check's verdict and the tail of its log. --remote\n"
    "registers a bot that plays from your machine instead (no files): run it with\n"
    "`arena connect`.\n"
    "Exit 0 accepted, 1 refused, 2 not answered.\n";

static int add_game(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    gw_request *r = ctx;
    if (r->ngames == GW_MAX_GAMES || strlen(value) >= sizeof r->games[0]) {
        snprintf(err, size, "%s: at most %d games of short names", flag, GW_MAX_GAMES);
        return -1;
    }
    snprintf(r->games[r->ngames++], sizeof r->games[0], "%s", value);
    return 0;
}

/* What the gateway said, shown: control characters but newlines as '?'. */
static void show(FILE *out, const char *text)
{
    for (const char *p = text; p && *p; p++)
        fputc((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' ? '?' : *p, out);
}

/* The files to send: a folder read and checked here, packed; or an
 * archive as it is (the gateway checks it). 0, or 2 after the message. */
static int files_to_send(const char *path, uint64_t max_bytes, void **buf, size_t *len)
{
    char err[512];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        store_tree t;
        store_tree_init(&t, max_bytes, 0);
        int rc = store_read_dir(&t, path, err, sizeof err) < 0 ||
                 store_pack(&t, buf, len, err, sizeof err) < 0;
        store_tree_free(&t);
        return rc ? ac_fail("submit: %s: %s", path, err) : 0;
    }
    if (store_read_file(path, (size_t)max_bytes, buf, len, err, sizeof err) < 0)
        return ac_fail("submit: %s", err);
    return 0;
}

int ac_submit(int argc, char **argv)
{
    const char *cred_path = NULL, *name = NULL, *version = NULL, *cmd = NULL, *paths[1];
    const char *disable = NULL, *retire = NULL, *reason = "";
    int list = 0, n = 0, remote = 0;
    int64_t timeout_s = 600, max_bytes = (int64_t)STORE_MAX_BYTES;
    gw_request r;
    memset(&r, 0, sizeof r);
    const cli_flag flags[] = {
        CLI_ARG("--credentials", CLI_STR, "FILE", "from the organizer (arena user add)",
                &cred_path),
        CLI_ARG("--name", CLI_STR, "BOT", "the bot's name (yours alone once used)", &name),
        CLI_ARG("--version", CLI_STR, "V", "this version's name (new for each submission)",
                &version),
        CLI_CALL("--game", "G", "a game it plays (repeatable)", add_game, &r),
        CLI_ARG("--cmd", CLI_STR, "CMD", "what starts it, run inside its folder "
                "(python3 bot.py, ./bot)", &cmd),
        CLI_ARG("--remote", CLI_SWITCH, NULL, "a bot that plays from your machine "
                "(arena connect): no files, no --cmd", &remote),
        CLI_ARG("--list", CLI_SWITCH, NULL, "your bots: versions, status, games, rating",
                &list),
        CLI_ARG("--disable", CLI_STR, "BOT", "stop one of your bots playing (NAME or "
                "NAME@VERSION)", &disable),
        CLI_ARG("--retire", CLI_STR, "BOT", "retire one of your bots for good", &retire),
        CLI_ARG("--reason", CLI_STR, "TEXT", "why, shown with the bot", &reason),
        CLI_NUM("--timeout", CLI_I64, "S", "seconds to wait for the verdict (default 600)",
                &timeout_s, 1, 86400),
        CLI_NUM("--max-bytes", CLI_I64, "N", "refuse here what is bigger (default 64 MB)",
                &max_bytes, 1024, 1ll << 32),
        CLI_END,
    };
    int parsed = ac_parse("submit", flags, argc, argv, paths, &n, 1, submit_head, NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!cred_path)
        return ac_fail("submit needs --credentials FILE (from the organizer)");
    const char *change = disable ? disable : retire;
    if (list + !!disable + !!retire > 1)
        return ac_fail("submit: --list, --disable and --retire go one at a time");
    if (change && (strlen(change) >= sizeof r.bot || strlen(reason) >= sizeof r.reason))
        return ac_fail("submit: the bot or the reason is too long");
    if (remote && (list || change || cmd || n || !name || !version || !r.ngames))
        return ac_fail("submit --remote needs --name BOT --version V --game G, and no --cmd "
                       "or files");
    if (!list && !change && !remote && (!name || !version || !cmd || !n))
        return ac_fail("submit needs --name BOT --version V --cmd CMD and a DIR or ARCHIVE "
                       "(or --list)");
    char err[512];
    gw_cred cred;
    if (gw_cred_read(cred_path, &cred, err, sizeof err) < 0)
        return ac_fail("submit: %s", err);
    void *files = NULL;
    r.op = list      ? GW_LIST
           : disable ? GW_DISABLE
           : retire  ? GW_RETIRE
           : remote  ? GW_REMOTE
                     : GW_SUBMIT;
    if (change) {
        snprintf(r.bot, sizeof r.bot, "%s", change);
        snprintf(r.reason, sizeof r.reason, "%s", reason);
    }
    if (r.op == GW_SUBMIT || r.op == GW_REMOTE) {
        if (!gw_name_ok(name) || !gw_name_ok(version))
            return ac_fail("submit: --name and --version are 1-63 characters of letters, "
                           "digits, '_', '.', '-'");
        snprintf(r.name, sizeof r.name, "%s", name);
        snprintf(r.version, sizeof r.version, "%s", version);
    }
    if (r.op == GW_SUBMIT) {
        if (!cmd || strlen(cmd) >= sizeof r.cmd)
            return ac_fail(cmd ? "submit: --cmd is too long" : "submit: --cmd is missing");
        snprintf(r.cmd, sizeof r.cmd, "%s", cmd);
        if (files_to_send(paths[0], (uint64_t)max_bytes, &files, &r.archive_len))
            return 2;
        r.archive = files;
    }
    gw_reply reply;
    int rc = gw_call(&cred, &r, (int)timeout_s * 1000, &reply, err, sizeof err);
    free(files);
    if (rc < 0)
        return ac_fail("submit: %s", err);
    show(stdout, reply.message);
    putchar('\n');
    if (reply.hash[0])
        printf("content hash %s\n", reply.hash);
    if (reply.text && reply.text[0]) {
        show(stdout, reply.text);
        if (reply.text[strlen(reply.text) - 1] != '\n')
            putchar('\n');
    }
    gw_reply_free(&reply);
    return reply.accepted ? 0 : 1;
}

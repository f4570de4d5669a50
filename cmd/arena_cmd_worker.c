/*
 * arena_cmd_worker.c - `arena worker`: the remote workers an arena started
 * with --curve-key admits, by their CURVE public keys (schema 14). A
 * running arena rereads them at each beat (a couple of seconds): a worker
 * added is let in at its next connection, a revoked one refused at once,
 * its running match handed to another worker (docs/SECURITY.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena_cmd.h"
#include "arena_report.h"
#include "clk.h"
#include "zauth.h"

static const char worker_help[] =
    "usage: arena worker add NAME --key FILE.pub   (a worker's public key: arena keygen)\n"
    "       arena worker add NAME --out FILE       (makes the pair: FILE, secret, and\n"
    "                                               FILE.pub; give FILE to the worker)\n"
    "       arena worker list [--format table|csv|json]\n"
    "       arena worker revoke NAME               (refused from now on, even by an\n"
    "                                               arena running)\n"
    "An arena started with --listen and --curve-key admits the workers listed here\n"
    "(and those of --curve-workers FILE): referee worker --connect tcp://HOST:PORT\n"
    "--curve-server ARENA.pub --curve-key FILE.\n";

static int worker_add(int argc, char **argv)
{
    const char *key_file = NULL, *out = NULL, *name[1];
    int n = 0;
    const cli_flag flags[] = {
        CLI_ARG("--key", CLI_STR, "FILE.pub", "the worker's public key (arena keygen)",
                &key_file),
        CLI_ARG("--out", CLI_STR, "FILE", "make the worker's key pair: FILE and FILE.pub",
                &out),
        CLI_END,
    };
    int parsed = ac_parse("worker add", flags, argc - 1, argv + 1, name, &n, 1,
                          "usage: arena worker add NAME --key FILE.pub | --out FILE\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("worker add needs a NAME");
    if (!key_file == !out)
        return ac_fail("worker add needs one of --key FILE.pub and --out FILE");
    char err[512], pub[4096];
    zauth_key key;
    if (out && zauth_keygen(out, err, sizeof err) < 0)
        return ac_fail("%s", err);
    snprintf(pub, sizeof pub, "%s%s", out ? out : key_file, out ? ".pub" : "");
    if (zauth_load(pub, key, err, sizeof err) < 0)
        return ac_fail("%s", err);
    arena_db *db = ac_open(1);
    if (!db)
        return 2;
    int rc = arena_db_worker_add(db, name[0], key, clk_wall_ms(), err, sizeof err);
    arena_db_close(db);
    if (rc < 0)
        return ac_fail("%s", err);
    printf("added worker %s (key %s)%s%s%s\n", name[0], key, out ? "; its secret key is in " : "",
           out ? out : "", out ? ": give it to the worker only" : "");
    return 0;
}

static const char *status_of(const arena_worker_row *w)
{
    return w->revoked_ms ? "revoked" : "admitted";
}

static void put_ms(FILE *out, int format, int64_t ms)
{
    if (ms)
        ac_put_time(out, ms);
    else
        fputs(format == ARENA_JSON ? "null" : format == ARENA_CSV ? "" : "-", out);
}

static void list_row(const arena_worker_row *w, int format, int first, FILE *out)
{
    if (format == ARENA_JSON) {
        fprintf(out, "%s\n  {\"name\": ", first ? "" : ",");
        ac_put_text(out, format, w->name);
        fputs(", \"key\": ", out);
        ac_put_text(out, format, w->key);
        fputs(", \"added\": \"", out);
        ac_put_time(out, w->added_ms);
        fputs("\", \"last_seen\": ", out);
        if (w->seen_ms)
            fputc('"', out);
        put_ms(out, format, w->seen_ms);
        fprintf(out, "%s, \"matches\": %" PRId64 ", \"status\": \"%s\"}", w->seen_ms ? "\"" : "",
                w->matches, status_of(w));
    } else {
        const char *sep = format == ARENA_CSV ? "," : "  ";
        /* Text from the database, which a hand may have edited: escaped. */
        ac_put_text(out, format, w->name);
        int pad = 17 - (int)strlen(w->name);
        if (format == ARENA_CSV)
            fputc(',', out);
        else
            fprintf(out, "%*s", pad > 1 ? pad : 1, "");
        ac_put_text(out, format, w->key);
        fputs(format == ARENA_CSV ? "," : "  ", out);
        ac_put_time(out, w->added_ms);
        fputs(sep, out);
        if (format == ARENA_TABLE && !w->seen_ms)
            fprintf(out, "%-20s", "-");
        else
            put_ms(out, format, w->seen_ms);
        fprintf(out, format == ARENA_CSV ? ",%" PRId64 ",%s\n" : "  %7" PRId64 "  %s\n",
                w->matches, status_of(w));
    }
}

static int worker_list(int argc, char **argv)
{
    int format = ARENA_TABLE;
    const cli_flag flags[] = {
        CLI_CALL("--format", "table|csv|json", "the output (default table)", ac_set_format,
                 &format),
        CLI_END,
    };
    int parsed = ac_parse("worker list", flags, argc - 1, argv + 1, NULL, NULL, 0,
                          "usage: arena worker list [--format table|csv|json]\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    arena_worker_row *rows;
    int n = arena_db_worker_list(db, &rows);
    arena_db_close(db);
    if (n < 0)
        return ac_fail("cannot list workers");
    if (format == ARENA_CSV)
        printf("name,key,added,last_seen,matches,status\n");
    else if (format == ARENA_JSON)
        printf("[");
    else
        printf("%-16s %-40s  %-20s  %-20s  %7s  %s\n", "name", "key", "added", "last seen",
               "matches", "status");
    for (int i = 0; i < n; i++)
        list_row(&rows[i], format, i == 0, stdout);
    if (format == ARENA_JSON)
        printf("%s]\n", n ? "\n" : "");
    free(rows);
    return 0;
}

static int worker_revoke(int argc, char **argv)
{
    const char *name[1];
    int n = 0;
    const cli_flag flags[] = { CLI_END };
    int parsed = ac_parse("worker revoke", flags, argc - 1, argv + 1, name, &n, 1,
                          "usage: arena worker revoke NAME\n", NULL);
    if (parsed)
        return parsed == 1 ? 0 : 2;
    if (!n)
        return ac_fail("worker revoke needs a NAME");
    arena_db *db = ac_open(0);
    if (!db)
        return 2;
    char err[512];
    int rc = arena_db_worker_revoke(db, name[0], clk_wall_ms(), err, sizeof err);
    arena_db_close(db);
    if (rc < 0)
        return ac_fail("%s", err);
    printf("revoked worker %s: arenas refuse it from their next beat on\n", name[0]);
    return 0;
}

int ac_worker(int argc, char **argv)
{
    if (argc < 1 || ac_help(1, argv)) {
        fputs(worker_help, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "add"))
        return worker_add(argc, argv);
    if (!strcmp(argv[0], "list"))
        return worker_list(argc, argv);
    if (!strcmp(argv[0], "revoke"))
        return worker_revoke(argc, argv);
    return ac_fail("unknown worker command '%s' (add, list, revoke)", argv[0]);
}

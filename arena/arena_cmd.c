/*
 * arena_cmd.c - the helpers every `arena` command shares (arena_cmd.h).
 */
#define _GNU_SOURCE
#include <signal.h>
#include "arena_cmd.h"
#include "arena_report.h"

#include <stdarg.h>
#include <string.h>

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

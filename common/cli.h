/*
 * cli.h - command-line flags from a table, for the programs (referee,
 * arena): each flag is declared once, with its value's kind and range and
 * a line of help, and parsing and --help both come from that table.
 */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    CLI_SWITCH,        /* no value: *(int *)dst = 1 */
    CLI_STR,           /* *(const char **)dst = value */
    CLI_INT,           /* *(int *)dst, a whole number in [lo, hi] */
    CLI_I64,           /* *(int64_t *)dst, in [lo, hi] */
    CLI_U64,           /* *(uint64_t *)dst, any whole number >= 0 */
    CLI_F64,           /* *(double *)dst, in [lo, hi] */
    CLI_FN,            /* fn(ctx, flag, value, err, size): 0, or -1 with err */
};

typedef struct cli_flag {
    const char *name;              /* "--seed"; NULL ends a table */
    int         kind;              /* CLI_* */
    const char *arg;               /* what the value is, for help: "N", "FILE" */
    const char *help;              /* one line; NULL: parsed, not listed */
    void       *dst;
    double      lo, hi;            /* CLI_INT, CLI_I64, CLI_F64 */
    int       (*fn)(void *ctx, const char *flag, const char *value, char *err, size_t size);
    void       *ctx;
} cli_flag;

/* Table rows: a flag with a value of `kind` into dst; a ranged number;
 * a function; the end. */
#define CLI_ARG(n, k, a, h, d) { .name = (n), .kind = (k), .arg = (a), .help = (h), .dst = (d) }
#define CLI_NUM(n, k, a, h, d, l, u) \
    { .name = (n), .kind = (k), .arg = (a), .help = (h), .dst = (d), .lo = (l), .hi = (u) }
#define CLI_CALL(n, a, h, f, c) \
    { .name = (n), .kind = CLI_FN, .arg = (a), .help = (h), .fn = (f), .ctx = (c) }
#define CLI_END { .name = NULL }

/* Parses args against the NULL-terminated table. Arguments not starting
 * with "-" go to positional[] (at most max; with max 0 they are errors).
 * Returns 0; 1 when -h or --help was given (nothing else is checked then);
 * -1 with a one-line reason ("unknown option '--x'", "--seed wants ..."). */
int  cli_parse(const cli_flag *table, int argc, char **argv, const char **positional,
               int *npositional, int max, char *err, size_t size);
/* One line per listed flag: "  --seed N            match seed (default 1)". */
void cli_help(FILE *f, const cli_flag *table);
/* A new table: a's flags then b's (either may be NULL). free() it. */
cli_flag *cli_join(const cli_flag *a, const cli_flag *b);
/* The value after `flag` in args, or NULL (a pre-scan, as for --game). */
const char *cli_value(int argc, char **argv, const char *flag);

/* The release every program of the project reports with --version. */
#define CLI_VERSION "0.4.0"

/* 1 (after printing "PROG VERSION" and `extra`, if any) when argv[1] is
 * --version; 0 otherwise. */
int cli_version(int argc, char **argv, const char *prog, const char *extra);

/* The path of `rel` relative to this program's own directory
 * (cli_sibling("../referee/referee", ...) from build/arena/arena). */
void cli_sibling(const char *rel, char *buf, size_t size);

#endif

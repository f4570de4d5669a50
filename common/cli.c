/*
 * cli.c - flags from a table (cli.h), and program paths.
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "kv.h"

static const cli_flag *lookup(const cli_flag *t, const char *name)
{
    for (; t && t->name; t++)
        if (!strcmp(t->name, name))
            return t;
    return NULL;
}

/* Stores one value. 0, or -1 with err. */
static int take(const cli_flag *f, const char *value, char *err, size_t size)
{
    int64_t i;
    double d;
    switch (f->kind) {
    case CLI_STR:
        *(const char **)f->dst = value;
        return 0;
    case CLI_INT:
    case CLI_I64:
        if (kv_i64(value, (int64_t)f->lo, (int64_t)f->hi, &i) < 0)
            break;
        if (f->kind == CLI_INT)
            *(int *)f->dst = (int)i;
        else
            *(int64_t *)f->dst = i;
        return 0;
    case CLI_U64:
        if (kv_u64(value, f->dst) < 0)
            break;
        return 0;
    case CLI_F64:
        if (kv_f64(value, f->lo, f->hi, &d) < 0)
            break;
        *(double *)f->dst = d;
        return 0;
    case CLI_FN:
        return f->fn(f->ctx, f->name, value, err, size);
    }
    if (f->kind == CLI_U64)
        snprintf(err, size, "%s wants a whole number, not '%s'", f->name, value);
    else if (f->kind == CLI_F64)
        snprintf(err, size, "%s wants a number from %g to %g, not '%s'", f->name, f->lo, f->hi,
                 value);
    else
        snprintf(err, size, "%s wants a whole number from %.0f to %.0f, not '%s'", f->name, f->lo,
                 f->hi, value);
    return -1;
}

int cli_parse(const cli_flag *table, int argc, char **argv, const char **positional,
              int *npositional, int max, char *err, size_t size)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    if (npositional)
        *npositional = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            if (!npositional || *npositional >= max) {
                snprintf(err, size, max ? "too many arguments at '%s'" : "unexpected '%s'", a);
                return -1;
            }
            positional[(*npositional)++] = a;
            continue;
        }
        const cli_flag *f = lookup(table, a);
        if (!f) {
            snprintf(err, size, "unknown option '%s'", a);
            return -1;
        }
        if (f->kind == CLI_SWITCH) {
            *(int *)f->dst = 1;
            continue;
        }
        if (i + 1 >= argc) {
            snprintf(err, size, "%s needs a value", a);
            return -1;
        }
        if (take(f, argv[++i], err, size) < 0)
            return -1;
    }
    return 0;
}

/* Help text from column 22, wrapped at word ends to fit 90 columns. */
static void wrapped(FILE *f, const char *text)
{
    enum { INDENT = 22, WIDTH = 90 };
    int col = INDENT;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > INDENT && col + 1 + (int)word > WIDTH) {
            fprintf(f, "\n%*s", INDENT, "");
            col = INDENT;
        } else if (col > INDENT) {
            fputc(' ', f);
            col++;
        }
        fwrite(text, 1, word, f);
        col += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

void cli_help(FILE *f, const cli_flag *t)
{
    for (; t && t->name; t++) {
        if (!t->help)
            continue;
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", t->name, t->arg ? " " : "", t->arg ? t->arg : "");
        if (strlen(head) < 19)
            fprintf(f, "  %-20s", head);
        else
            fprintf(f, "  %s\n%22s", head, "");
        wrapped(f, t->help);
    }
}

cli_flag *cli_join(const cli_flag *a, const cli_flag *b)
{
    size_t na = 0, nb = 0;
    while (a && a[na].name)
        na++;
    while (b && b[nb].name)
        nb++;
    cli_flag *t = calloc(na + nb + 1, sizeof *t);
    if (!t)
        return NULL;
    if (na)
        memcpy(t, a, na * sizeof *t);
    if (nb)
        memcpy(t + na, b, nb * sizeof *t);
    return t;
}

const char *cli_value(int argc, char **argv, const char *flag)
{
    for (int i = 0; i + 1 < argc; i++)
        if (!strcmp(argv[i], flag))
            return argv[i + 1];
    return NULL;
}

void cli_sibling(const char *rel, char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    snprintf(buf, size, "%s/%s", dirname(exe), rel);
}

int cli_version(int argc, char **argv, const char *prog, const char *extra)
{
    if (argc < 2 || strcmp(argv[1], "--version") != 0)
        return 0;
    printf("%s %s%s%s\n", prog, CLI_VERSION, extra ? " " : "", extra ? extra : "");
    return 1;
}

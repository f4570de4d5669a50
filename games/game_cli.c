/*
 * game_cli.c - a game's options as command-line flags: --round-limit N for
 * round_limit, and so on, with help from the declaration. referee and
 * arena both build their game flags here, so no program lists a game's
 * options itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game_cli.h"

typedef struct flag_text {
    char name[48], arg[96], help[256];
} flag_text;

static int set_option(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    char key[48];
    snprintf(key, sizeof key, "%s", flag + 2);
    for (char *p = key; *p; p++)
        *p = *p == '-' ? '_' : *p;
    return game_options_set(ctx, key, value, err, size);
}

static int set_many(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    return game_options_parse(ctx, value, err, size);
}

static int accept_game(void *ctx, const char *flag, const char *value, char *err, size_t size)
{
    const game_api *g = game_options_game(ctx);
    if (strcmp(value, g->name) == 0)
        return 0;
    snprintf(err, size, "--game %s given twice, or after its options", value);
    return -1;
}

static void describe(const game_option *d, flag_text *t)
{
    snprintf(t->name, sizeof t->name, "--%s", d->name);
    for (char *p = t->name; *p; p++)
        *p = *p == '_' ? '-' : *p;
    size_t n = 0;
    if (d->kind == GAME_OPT_INT)
        snprintf(t->arg, sizeof t->arg, "N");
    else if (d->kind == GAME_OPT_TEXT)
        snprintf(t->arg, sizeof t->arg, "TEXT");
    else
        for (int i = 0; d->choices[i] && n < sizeof t->arg; i++)
            n += (size_t)snprintf(t->arg + n, sizeof t->arg - n, "%s%s", i ? "|" : "",
                                  d->choices[i]);
    if (strlen(t->arg) > 16)               /* a long list goes in the help */
        snprintf(t->arg, sizeof t->arg, "%s", d->kind == GAME_OPT_CHOICE ? "S" : "TEXT");
    n = (size_t)snprintf(t->help, sizeof t->help, "%s", d->help);
    if (d->kind == GAME_OPT_CHOICE && !strcmp(t->arg, "S")) {
        n += (size_t)snprintf(t->help + n, sizeof t->help - n, ": ");
        for (int i = 0; d->choices[i] && n < sizeof t->help; i++)
            n += (size_t)snprintf(t->help + n, sizeof t->help - n, "%s%s", i ? ", " : "",
                                  d->choices[i]);
    } else if (d->kind == GAME_OPT_INT) {
        n += (size_t)snprintf(t->help + n, sizeof t->help - n, ", %" PRId64 "..%" PRId64, d->lo,
                              d->hi);
    }
    if (n < sizeof t->help && *d->def)
        snprintf(t->help + n, sizeof t->help - n, " (default %s)", d->def);
}

cli_flag *game_cli_flags(game_options *o)
{
    const game_api *g = game_options_game(o);
    size_t n = (size_t)g->noptions + 2;
    /* One block: the table, then the text it points to; free() frees both. */
    cli_flag *t = calloc(1, (n + 1) * sizeof *t + n * sizeof(flag_text));
    if (!t)
        return NULL;
    flag_text *text = (flag_text *)(t + n + 1);
    t[0] = (cli_flag){ .name = "--game", .kind = CLI_FN, .arg = "NAME",
                       .help = "the game (see `referee games`; default: the first listed)",
                       .fn = accept_game, .ctx = o };
    t[1] = (cli_flag){ .name = "--option", .kind = CLI_FN, .arg = "KEY=VALUE",
                       .help = "game options as the game names them, 'k=v k=v' (as in records)",
                       .fn = set_many, .ctx = o };
    for (int i = 0; i < g->noptions; i++) {
        describe(&g->options[i], &text[i]);
        t[i + 2] = (cli_flag){ .name = text[i].name, .kind = CLI_FN, .arg = text[i].arg,
                               .help = text[i].help, .fn = set_option, .ctx = o };
    }
    return t;
}

const game_api *game_cli_game(int argc, char **argv, char *err, size_t size)
{
    const char *name = cli_value(argc, argv, "--game");
    if (!name)
        return game_default();
    const game_api *g = game_find(name);
    if (!g) {
        int n = snprintf(err, size, "unknown game '%s' (games:", name);
        for (int i = 0; i < game_count() && n > 0 && (size_t)n < size; i++)
            n += snprintf(err + n, size - (size_t)n, " %s", game_at(i)->name);
        if (n > 0 && (size_t)n < size)
            snprintf(err + n, size - (size_t)n, ")");
    }
    return g;
}

void game_cli_list(FILE *f)
{
    for (int i = 0; i < game_count(); i++) {
        const game_api *g = game_at(i);
        char seats[32];
        game_seat_counts_text(g, seats, sizeof seats);
        fprintf(f, "%-12s %-8s %s%s\n", g->name, seats, g->description, i ? "" : " (default)");
    }
}

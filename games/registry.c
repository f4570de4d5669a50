/*
 * registry.c - the games, by name: the only place that lists them.
 */
#include <stdio.h>
#include <string.h>
#include "game.h"

static const game_api *const games[] = { &game_warchest };

const game_api *game_find(const char *name)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}

const game_api *game_legacy(void)
{
    return &game_warchest;
}

int game_options_parse(const game_api *g, void *options, const char *text,
                       char *err, size_t size)
{
    char copy[1024];
    if (strlen(text) >= sizeof copy) {
        snprintf(err, size, "options too long");
        return -1;
    }
    strcpy(copy, text);
    char *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, size, "option '%s': expected key=value", kv);
            return -1;
        }
        *eq = 0;
        const char *why = g->options_set(options, kv, eq + 1);
        if (why) {
            snprintf(err, size, "option %s=%s: %s", kv, eq + 1, why);
            return -1;
        }
    }
    return 0;
}

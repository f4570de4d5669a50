/*
 * registry.c - the games, by name: the only place that lists them. The
 * first is the default game; the legacy game is that of records and
 * database rows written before games had names there.
 */
#include <stdio.h>
#include <string.h>
#include "game.h"
#include "wc_game.h"
#include "gs_game.h"

static const game_api *const games[] = { &game_warchest, &game_goofspiel };

#define NGAMES ((int)(sizeof games / sizeof games[0]))

int game_count(void) { return NGAMES; }
const game_api *game_at(int i) { return i >= 0 && i < NGAMES ? games[i] : NULL; }
const game_api *game_default(void) { return games[0]; }

const game_api *game_find(const char *name)
{
    for (int i = 0; i < NGAMES; i++)
        if (strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}

const game_api *game_legacy(void)
{
    return &game_warchest;
}

void game_seat_counts_text(const game_api *g, char *buf, size_t size)
{
    size_t n = 0;
    if (size)
        buf[0] = 0;
    for (int i = 0; g->seat_counts[i] && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? "," : "", g->seat_counts[i]);
}

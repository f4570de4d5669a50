/*
 * game_cli.h - a game's declaration as command-line flags (game_cli.c):
 * what `referee play`, `arena tournament` and every command that plays a
 * game offer, built from the game's declared options.
 */
#ifndef GAME_CLI_H
#define GAME_CLI_H

#include <stdio.h>
#include "cli.h"
#include "game.h"

/* --game NAME, --option KEY=VALUE, and one flag per declared option
 * (--round-limit N for round_limit), each setting it on *o. A NULL-ended
 * table; free() it. NULL when out of memory. */
cli_flag *game_cli_flags(game_options *o);
/* The game named by --game in args, else the default; NULL with err for
 * an unknown name. */
const game_api *game_cli_game(int argc, char **argv, char *err, size_t size);
/* One line per game: name, seat counts, description (`referee games`). */
void game_cli_list(FILE *f);

#endif

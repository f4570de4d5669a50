/*
 * gs_game.h - Goofspiel as a game (game.h), for the registry and tests.
 */
#ifndef GS_GAME_H
#define GS_GAME_H

#include "game.h"

extern const game_api game_goofspiel;

#endif

/*
 * wc_game.h - War Chest as a game (game.h), for the registry and tests.
 */
#ifndef WC_GAME_H
#define WC_GAME_H

#include "game.h"

extern const game_api game_warchest;

#endif

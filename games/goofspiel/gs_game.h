/*
 * gs_game.h - Goofspiel as a game (game.h), for the registry and tests.
 */
#ifndef GS_GAME_H
#define GS_GAME_H

#include "game.h"

extern const game_api game_goofspiel;

struct jw;
struct gs_state;
/* The state as JSON for the web (gs_json.c): seat -1 the whole truth, else
 * what that seat's observation holds. */
void gs_write_json(struct jw *w, const struct gs_state *s, int seat);

#endif

/*
 * wc_pack.h - War Chest's msgpack encodings (wc_pack.c), used by the
 * game adapter (wc_game.c) and by tests that compare bytes.
 */
#ifndef WC_PACK_H
#define WC_PACK_H

#include "game.h"

void wc_pack_action(struct msgpack_packer *pk, game_action action);
void wc_pack_observation(struct msgpack_packer *pk, const void *state, int seat);

#endif

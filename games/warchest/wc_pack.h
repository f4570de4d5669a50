/*
 * wc_pack.h - War Chest's msgpack encodings, the shapes sdk/PROTOCOL.md
 * documents, and their inverses: wc_pack.c writes what the referee sends a
 * seat; wc_unpack.c reads it back into engine types, as the C SDK's War
 * Chest layer (sdk/c/wc_bot.h) and the round-trip tests do.
 */
#ifndef WC_PACK_H
#define WC_PACK_H

#include <stddef.h>
#include "game.h"
#include "wc.h"

struct msgpack_object;
struct jw;

void wc_pack_action(struct msgpack_packer *pk, game_action action);
void wc_pack_observation(struct msgpack_packer *pk, const void *state, int seat);

/* An observation map into *out: 0, or -1 if it is not one. */
int  wc_unpack_observation(const struct msgpack_object *map, wc_observation *out);
/* The same from msgpack bytes (exactly one map). */
int  wc_unpack_observation_bytes(const char *data, size_t size, wc_observation *out);
/* An action map, by its notation ("text"): 0 or -1. */
int  wc_unpack_action(const struct msgpack_object *map, wc_action *out);

/* The state as JSON for the web's board view, whole (seat -1) or as one
 * seat may know it (wc_json.c). */
void wc_write_json(struct jw *w, const wc_state *s, int seat);

#endif

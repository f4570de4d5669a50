/*
 * ref_msg.h - the messages the referee sends, built from one seat's view.
 * What bots send is decoded with common/mps.h. sdk/PROTOCOL.md is the
 * contract these functions implement.
 */
#ifndef REF_MSG_H
#define REF_MSG_H

#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>
#include "game.h"
#include "mps.h"

#define REF_PROTOCOL_VERSION 1

/* What the referee sends. Each appends one message to `sb`. */
typedef struct ref_clock { int64_t move_ms, bank_ms; } ref_clock;

void ref_msg_welcome(msgpack_sbuffer *sb, const game_api *g, const char *options,
                     int seat, int seats, int team, ref_clock clock);
void ref_msg_request(msgpack_sbuffer *sb, const game_api *g, const void *state, int seat,
                     uint32_t id, const game_action *legal, int nlegal, ref_clock clock);
/* The actor learns its own action; every other seat its public view. */
void ref_msg_update(msgpack_sbuffer *sb, const game_api *g, uint32_t id, int actor,
                    const char *decision, game_action action, int viewer);
void ref_msg_end(msgpack_sbuffer *sb, const double *score, int seats, const char *reason,
                 int culprit, const char *detail);
void ref_msg_error(msgpack_sbuffer *sb, const char *code, const char *message);

#endif

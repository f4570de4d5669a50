/*
 * ref_reply.h - what bots send, read and judged: a hello and an action.
 *
 * Pure decoders of untrusted maps (already checked msgpack, common/mps.h),
 * apart from the match loop that acts on their verdicts (ref_match.c) and
 * fuzzed alone (tests/fuzz/fuzz_bot_message.c). Each says why in words a
 * record can keep, for the loop to prefix with the seat.
 */
#ifndef REF_REPLY_H
#define REF_REPLY_H

#include <stddef.h>
#include <msgpack.h>
#include "game.h"

/* A hello for the seat whose token is `token`: NULL when it is good (its
 * name and version copied, each kept to one printable word, "" if it
 * gives none); else the reason code (REF_MALFORMED, REF_PROTOCOL,
 * REF_BAD_TOKEN of ref_match.h) with `why`. */
const char *ref_hello_read(const msgpack_object *hello, const char *token, char *name,
                           size_t name_size, char *version, size_t version_size, char *why,
                           size_t size);

/* An action's choice among the `n` offered: by "index", else by "text"
 * matched exactly against their notations. 0 with *index; 1 when it names
 * none of them (illegal: a strike), -1 when it is malformed; `why` says
 * what was wrong ("index 7 is not one of the 5 actions offered"; "has an
 * index that is a float, not an integer"). */
int ref_action_read(const msgpack_object *reply, const game_api *g, const game_action *legal,
                    int n, int *index, char *why, size_t size);

#endif

/*
 * ref_msg.c - building referee messages and safely decoding bot messages.
 */
#include <string.h>
#include "ref_msg.h"

/* ---- building ----------------------------------------------------------- */

static void str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static void type(msgpack_packer *pk, const char *t, size_t fields)
{
    msgpack_pack_map(pk, fields + 1);
    str(pk, "type");
    str(pk, t);
}

static void clock_map(msgpack_packer *pk, ref_clock c)
{
    msgpack_pack_map(pk, 2);
    str(pk, "move_ms"); msgpack_pack_int64(pk, c.move_ms);
    str(pk, "bank_ms"); msgpack_pack_int64(pk, c.bank_ms);
}

void ref_msg_welcome(msgpack_sbuffer *sb, const game_api *g, const char *options,
                     int seat, int seats, int team, ref_clock clock)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    type(&pk, "welcome", 7);
    str(&pk, "protocol"); msgpack_pack_int(&pk, REF_PROTOCOL_VERSION);
    str(&pk, "game");     str(&pk, g->name);
    str(&pk, "options");  str(&pk, options);
    str(&pk, "seat");     msgpack_pack_int(&pk, seat);
    str(&pk, "seats");    msgpack_pack_int(&pk, seats);
    str(&pk, "team");     msgpack_pack_int(&pk, team);
    str(&pk, "time");     clock_map(&pk, clock);
}

void ref_msg_request(msgpack_sbuffer *sb, const game_api *g, const void *state, int seat,
                     uint32_t id, const game_action *legal, int nlegal, ref_clock clock)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    type(&pk, "request", 5);
    str(&pk, "id");          msgpack_pack_uint32(&pk, id);
    str(&pk, "decision");    str(&pk, g->decision_name(state));
    str(&pk, "time");        clock_map(&pk, clock);
    str(&pk, "observation"); g->pack_observation(&pk, state, seat);
    str(&pk, "actions");
    msgpack_pack_array(&pk, (size_t)nlegal);
    for (int i = 0; i < nlegal; i++)
        g->pack_action(&pk, legal[i]);
}

void ref_msg_update(msgpack_sbuffer *sb, const game_api *g, uint32_t id, int actor,
                    const char *decision, game_action action, int viewer)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    type(&pk, "update", 4);
    str(&pk, "id");       msgpack_pack_uint32(&pk, id);
    str(&pk, "seat");     msgpack_pack_int(&pk, actor);
    str(&pk, "decision"); str(&pk, decision);
    str(&pk, "action");   g->pack_action(&pk, viewer == actor ? action : g->public_view(action));
}

void ref_msg_end(msgpack_sbuffer *sb, const double *score, int seats, const char *reason,
                 int culprit, const char *detail)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    type(&pk, "end", 4);
    str(&pk, "scores");
    msgpack_pack_array(&pk, (size_t)seats);
    for (int i = 0; i < seats; i++)
        msgpack_pack_double(&pk, score[i]);
    str(&pk, "reason"); str(&pk, reason);
    str(&pk, "culprit");
    if (culprit < 0)
        msgpack_pack_nil(&pk);
    else
        msgpack_pack_int(&pk, culprit);
    str(&pk, "detail"); str(&pk, detail);
}

void ref_msg_error(msgpack_sbuffer *sb, const char *code, const char *message)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    type(&pk, "error", 2);
    str(&pk, "code");    str(&pk, code);
    str(&pk, "message"); str(&pk, message);
}

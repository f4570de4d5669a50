/*
 * ref_msg.c - building referee messages and safely decoding bot messages.
 */
#include <string.h>
#include "mpw.h"
#include "ref_msg.h"

/* ---- building ----------------------------------------------------------- */

static void clock_map(msgpack_packer *pk, ref_clock c)
{
    msgpack_pack_map(pk, 2);
    mpw_str(pk, "move_ms"); msgpack_pack_int64(pk, c.move_ms);
    mpw_str(pk, "bank_ms"); msgpack_pack_int64(pk, c.bank_ms);
}

void ref_msg_welcome(msgpack_sbuffer *sb, const game_api *g, const char *options,
                     int seat, int seats, int team, ref_clock clock)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, "welcome", 7);
    mpw_str(&pk, "protocol"); msgpack_pack_int(&pk, REF_PROTOCOL_VERSION);
    mpw_str(&pk, "game");     mpw_str(&pk, g->name);
    mpw_str(&pk, "options");  mpw_str(&pk, options);
    mpw_str(&pk, "seat");     msgpack_pack_int(&pk, seat);
    mpw_str(&pk, "seats");    msgpack_pack_int(&pk, seats);
    mpw_str(&pk, "team");     msgpack_pack_int(&pk, team);
    mpw_str(&pk, "time");     clock_map(&pk, clock);
}

void ref_msg_request(msgpack_sbuffer *sb, const game_api *g, const void *state, int seat,
                     uint32_t id, const game_action *legal, int nlegal, ref_clock clock)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, "request", 5);
    mpw_str(&pk, "id");          msgpack_pack_uint32(&pk, id);
    mpw_str(&pk, "decision");    mpw_str(&pk, g->decision_name(state));
    mpw_str(&pk, "time");        clock_map(&pk, clock);
    mpw_str(&pk, "observation"); g->pack_observation(&pk, state, seat);
    mpw_str(&pk, "actions");
    msgpack_pack_array(&pk, (size_t)nlegal);
    for (int i = 0; i < nlegal; i++)
        g->pack_action(&pk, legal[i]);
}

void ref_msg_update(msgpack_sbuffer *sb, const game_api *g, uint32_t id, int actor,
                    const char *decision, game_action action, int viewer)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, "update", 4);
    mpw_str(&pk, "id");       msgpack_pack_uint32(&pk, id);
    mpw_str(&pk, "seat");     msgpack_pack_int(&pk, actor);
    mpw_str(&pk, "decision"); mpw_str(&pk, decision);
    mpw_str(&pk, "action");   g->pack_action(&pk, viewer == actor ? action : g->public_view(action));
}

void ref_msg_end(msgpack_sbuffer *sb, const double *score, int seats, const char *reason,
                 int culprit, const char *detail)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, "end", 4);
    mpw_str(&pk, "scores");
    msgpack_pack_array(&pk, (size_t)seats);
    for (int i = 0; i < seats; i++)
        msgpack_pack_double(&pk, score[i]);
    mpw_str(&pk, "reason"); mpw_str(&pk, reason);
    mpw_str(&pk, "culprit"); mpw_int_or_nil(&pk, culprit < 0 ? -1 : culprit, -1);
    mpw_str(&pk, "detail"); mpw_str(&pk, detail);
}

void ref_msg_error(msgpack_sbuffer *sb, const char *code, const char *message)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    mpw_message(&pk, "error", 2);
    mpw_str(&pk, "code");    mpw_str(&pk, code);
    mpw_str(&pk, "message"); mpw_str(&pk, message);
}

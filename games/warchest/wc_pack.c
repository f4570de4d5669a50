/*
 * wc_pack.c - War Chest observations and actions as msgpack, the shapes
 * sdk/PROTOCOL.md documents. Output depends only on the state a seat may
 * see (wc_observe) and is deterministic: maps are written in a fixed key
 * order, zones in coin order, so equal views give equal bytes.
 */
#include <string.h>
#include <msgpack.h>
#include "mpw.h"
#include "wc_pack.h"
#include "wc.h"

static void hex_or_nil(msgpack_packer *pk, int hex)
{
    if (hex == WC_NONE)
        msgpack_pack_nil(pk);
    else
        mpw_str(pk, wc_hex_name(hex));
}

static void coin_or_nil(msgpack_packer *pk, int coin)
{
    if (coin == WC_NONE)
        msgpack_pack_nil(pk);
    else
        mpw_str(pk, wc_coin_name(coin));
}

static const char *const kind_names[WC_NACT] = {
    "deploy", "bolster", "move", "control", "attack", "tactic", "claim",
    "recruit", "pass", "guard_supply", "guard_unit", "stop", "pick",
};

void wc_pack_action(msgpack_packer *pk, game_action g)
{
    wc_action a;
    memcpy(&a, &g, sizeof a);
    char text[64];
    wc_action_format(&a, text, sizeof text);
    msgpack_pack_map(pk, 8);
    mpw_str(pk, "text");   mpw_str(pk, text);
    mpw_str(pk, "kind");   mpw_str(pk, a.kind < WC_NACT ? kind_names[a.kind] : "?");
    mpw_str(pk, "coin");   coin_or_nil(pk, a.coin);
    mpw_str(pk, "unit");   coin_or_nil(pk, a.unit);
    mpw_str(pk, "at");     hex_or_nil(pk, a.at);
    mpw_str(pk, "from");   hex_or_nil(pk, a.from);
    mpw_str(pk, "to");     hex_or_nil(pk, a.to);
    mpw_str(pk, "target"); hex_or_nil(pk, a.target);
}

/* {coin: count} for the non-zero counts. */
static void zone(msgpack_packer *pk, const uint8_t z[WC_NCOINS])
{
    int n = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        n += z[c] != 0;
    msgpack_pack_map(pk, (size_t)n);
    for (int c = 0; c < WC_NCOINS; c++)
        if (z[c]) {
            mpw_str(pk, wc_coin_name(c));
            msgpack_pack_int(pk, z[c]);
        }
}

static void pack_board(msgpack_packer *pk, const wc_observation *o)
{
    int n = 0;
    for (int h = 0; h < WC_NHEX; h++)
        n += o->hex_unit[h] != WC_NONE;
    msgpack_pack_array(pk, (size_t)n);
    for (int h = 0; h < WC_NHEX; h++) {
        if (o->hex_unit[h] == WC_NONE)
            continue;
        msgpack_pack_map(pk, 4);
        mpw_str(pk, "hex");   mpw_str(pk, wc_hex_name(h));
        mpw_str(pk, "unit");  mpw_str(pk, wc_coin_name(o->hex_unit[h]));
        mpw_str(pk, "coins"); msgpack_pack_int(pk, o->hex_coins[h]);
        mpw_str(pk, "seat");  msgpack_pack_int(pk, o->unit_owner[o->hex_unit[h]]);
    }
}

static void pack_control(msgpack_packer *pk, const wc_observation *o)
{
    msgpack_pack_map(pk, (size_t)__builtin_popcountll(o->locations));
    for (int h = 0; h < WC_NHEX; h++) {
        if (!(o->locations & ((wc_mask)1 << h)))
            continue;
        mpw_str(pk, wc_hex_name(h));
        if (o->control[0] & ((wc_mask)1 << h))
            msgpack_pack_int(pk, 0);
        else if (o->control[1] & ((wc_mask)1 << h))
            msgpack_pack_int(pk, 1);
        else
            msgpack_pack_nil(pk);
    }
}

static void pack_players(msgpack_packer *pk, const wc_observation *o)
{
    msgpack_pack_array(pk, o->nseats);
    for (int p = 0; p < o->nseats; p++) {
        msgpack_pack_map(pk, 9);
        mpw_str(pk, "seat"); msgpack_pack_int(pk, p);
        mpw_str(pk, "side"); msgpack_pack_int(pk, o->nseats == 4 ? p & 1 : p);
        int nunits = 0;
        for (int u = 0; u < WC_NUNITS; u++)
            nunits += o->unit_owner[u] == p;
        mpw_str(pk, "units");
        msgpack_pack_array(pk, (size_t)nunits);
        for (int u = 0; u < WC_NUNITS; u++)
            if (o->unit_owner[u] == p)
                mpw_str(pk, wc_coin_name(u));
        mpw_str(pk, "supply");   zone(pk, o->supply[p]);
        mpw_str(pk, "discard");  zone(pk, o->discard_up[p]);
        mpw_str(pk, "removed");  zone(pk, o->removed[p]);
        mpw_str(pk, "bag");      msgpack_pack_int(pk, o->bag_count[p]);
        mpw_str(pk, "hand");     msgpack_pack_int(pk, o->hand_count[p]);
        mpw_str(pk, "facedown"); msgpack_pack_int(pk, o->discard_down_count[p]);
    }
}

static void pack_pending(msgpack_packer *pk, const wc_observation *o)
{
    const wc_frame *f = &o->pending;
    if (f->kind == WC_NONE) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_map(pk, 6);
    mpw_str(pk, "decision"); mpw_str(pk, wc_decision_name(f->kind + 2));
    mpw_str(pk, "seat");     msgpack_pack_int(pk, f->seat);
    mpw_str(pk, "unit");     coin_or_nil(pk, f->unit);
    mpw_str(pk, "hex");      hex_or_nil(pk, f->hex);
    mpw_str(pk, "other_hex");   /* the second Footman still to maneuver */
    hex_or_nil(pk, f->kind == WC_FRAME_FOOTMAN ? f->arg : WC_NONE);
    mpw_str(pk, "coin");        /* the Priest's drawn coin, to its owner only */
    coin_or_nil(pk, f->kind == WC_FRAME_PRIEST && f->arg != WC_HIDDEN ? f->arg : WC_NONE);
}

void wc_pack_observation(msgpack_packer *pk, const void *state, int seat)
{
    static const char *const phases[] = { "draft", "play", "over" };
    wc_observation o;
    wc_observe(state, seat, &o);
    msgpack_pack_map(pk, 20);
    mpw_str(pk, "seat");        msgpack_pack_int(pk, o.seat);
    mpw_str(pk, "seats");       msgpack_pack_int(pk, o.nseats);
    mpw_str(pk, "phase");       mpw_str(pk, phases[o.phase]);
    mpw_str(pk, "decision");    mpw_str(pk, wc_decision_name(o.decision));
    mpw_str(pk, "to_move");     mpw_int_or_nil(pk, o.to_move, WC_NONE);
    mpw_str(pk, "turn");        msgpack_pack_int(pk, o.turn);
    mpw_str(pk, "round");       msgpack_pack_int(pk, o.round);
    mpw_str(pk, "round_limit"); msgpack_pack_int(pk, o.round_limit);
    mpw_str(pk, "initiative");  msgpack_pack_int(pk, o.initiative);
    mpw_str(pk, "initiative_claimed");
    mpw_bool(pk, o.claimed);
    mpw_str(pk, "markers");     msgpack_pack_int(pk, o.markers);
    mpw_str(pk, "royal_guard"); mpw_str(pk, o.royal_guard == WC_GUARD_REVISED ? "revised" : "2018");
    mpw_str(pk, "board");       pack_board(pk, &o);
    mpw_str(pk, "control");     pack_control(pk, &o);
    mpw_str(pk, "players");     pack_players(pk, &o);
    mpw_str(pk, "hand");        zone(pk, o.hand);
    mpw_str(pk, "bag");         zone(pk, o.bag);
    mpw_str(pk, "facedown");    zone(pk, o.discard_down);
    mpw_str(pk, "draft_pool");
    msgpack_pack_array(pk, (size_t)__builtin_popcount(o.draft_pool));
    for (int u = 0; u < WC_NUNITS; u++)
        if (o.draft_pool & (1u << u))
            mpw_str(pk, wc_coin_name(u));
    mpw_str(pk, "pending");     pack_pending(pk, &o);
}

/*
 * wc_unpack.c - the inverse of wc_pack.c: a War Chest observation or action
 * map, as sdk/PROTOCOL.md section 5 and 6 describe them, back into engine
 * types. What a bot receives is untrusted: every value is range-checked,
 * and a map that does not fit gives -1, never a half-read state.
 */
#include <string.h>
#include "mps.h"
#include "wc.h"
#include "wc_pack.h"

static int coin_of(const msgpack_object *o)
{
    char name[32];
    if (!o || o->type != MSGPACK_OBJECT_STR || o->via.str.size >= sizeof name)
        return -1;
    memcpy(name, o->via.str.ptr, o->via.str.size);
    name[o->via.str.size] = 0;
    return wc_coin_by_name(name);
}

static int hex_of(const msgpack_object *o)
{
    char name[4];
    if (!o || o->type != MSGPACK_OBJECT_STR || o->via.str.size >= sizeof name)
        return -1;
    memcpy(name, o->via.str.ptr, o->via.str.size);
    name[o->via.str.size] = 0;
    return wc_hex_by_name(name);
}

static int int_of(const msgpack_object *map, const char *key, int lo, int hi)
{
    int64_t v;
    if (mps_get_int(map, key, &v) < 0 || v < lo || v > hi)
        return -1;
    return (int)v;
}

/* {coin: count} into a zone. */
static int zone_of(const msgpack_object *o, uint8_t z[WC_NCOINS])
{
    if (!o || o->type != MSGPACK_OBJECT_MAP)
        return -1;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        int c = coin_of(&o->via.map.ptr[i].key);
        const msgpack_object *n = &o->via.map.ptr[i].val;
        if (c < 0 || n->type != MSGPACK_OBJECT_POSITIVE_INTEGER || n->via.u64 > 255)
            return -1;
        z[c] = (uint8_t)n->via.u64;
    }
    return 0;
}

static int decode_board(const msgpack_object *board, wc_observation *o)
{
    if (!board || board->type != MSGPACK_OBJECT_ARRAY)
        return -1;
    for (uint32_t i = 0; i < board->via.array.size; i++) {
        const msgpack_object *u = &board->via.array.ptr[i];
        int h = hex_of(mps_get(u, "hex")), c = coin_of(mps_get(u, "unit"));
        int n = int_of(u, "coins", 1, 255), seat = int_of(u, "seat", 0, o->nseats - 1);
        if (h < 0 || c < 0 || c >= WC_NUNITS || n < 0 || seat < 0 || o->unit_owner[c] != seat)
            return -1;          /* a unit on the board is one of its seat's */
        o->hex_unit[h] = (uint8_t)c;
        o->hex_coins[h] = (uint8_t)n;
    }
    return 0;
}

static int decode_players(const msgpack_object *players, wc_observation *o)
{
    if (!players || players->type != MSGPACK_OBJECT_ARRAY || players->via.array.size != o->nseats)
        return -1;
    for (uint32_t p = 0; p < players->via.array.size; p++) {
        const msgpack_object *pl = &players->via.array.ptr[p], *units = mps_get(pl, "units");
        if (!units || units->type != MSGPACK_OBJECT_ARRAY)
            return -1;
        for (uint32_t k = 0; k < units->via.array.size; k++) {
            int u = coin_of(&units->via.array.ptr[k]);
            if (u < 0 || u >= WC_NUNITS)
                return -1;
            o->unit_owner[u] = (uint8_t)p;
        }
        int bag = int_of(pl, "bag", 0, 255), hand = int_of(pl, "hand", 0, 255);
        int down = int_of(pl, "facedown", 0, 255);
        if (bag < 0 || hand < 0 || down < 0 ||
            zone_of(mps_get(pl, "supply"), o->supply[p]) < 0 ||
            zone_of(mps_get(pl, "discard"), o->discard_up[p]) < 0 ||
            zone_of(mps_get(pl, "removed"), o->removed[p]) < 0)
            return -1;
        o->bag_count[p] = (uint8_t)bag;
        o->hand_count[p] = (uint8_t)hand;
        o->discard_down_count[p] = (uint8_t)down;
    }
    return 0;
}

int wc_unpack_observation(const msgpack_object *m, wc_observation *o)
{
    char text[16];
    memset(o, 0, sizeof *o);
    memset(o->unit_owner, WC_NONE, sizeof o->unit_owner);
    memset(o->hex_unit, WC_NONE, sizeof o->hex_unit);
    o->winner = WC_NONE;            /* observations are sent while the game is on */
    o->end_reason = WC_END_NONE;
    int seat = int_of(m, "seat", 0, WC_MAX_SEATS - 1), seats = int_of(m, "seats", 2, 4);
    int round = int_of(m, "round", 0, 65535), limit = int_of(m, "round_limit", 0, 65535);
    int initiative = int_of(m, "initiative", 0, WC_MAX_SEATS - 1);
    int markers = int_of(m, "markers", 1, 64), turn = int_of(m, "turn", 0, WC_MAX_SEATS - 1);
    if (seat < 0 || seats < 0 || round < 0 || limit < 0 || initiative < 0 || markers < 0 ||
        turn < 0 || seat >= seats || initiative >= seats || turn >= seats)
        return -1;
    o->seat = (uint8_t)seat;
    o->nseats = (uint8_t)seats;
    o->round = (uint16_t)round;
    o->round_limit = (uint16_t)limit;
    o->initiative = (uint8_t)initiative;
    o->markers = (uint8_t)markers;
    o->turn = (uint8_t)turn;
    int to_move = int_of(m, "to_move", 0, seats - 1);
    o->to_move = to_move < 0 ? WC_NONE : (uint8_t)to_move;
    const msgpack_object *claimed = mps_get(m, "initiative_claimed");
    o->claimed = claimed && claimed->type == MSGPACK_OBJECT_BOOLEAN && claimed->via.boolean;
    if (mps_get_str(m, "phase", text, sizeof text) < 0)
        return -1;
    o->phase = !strcmp(text, "draft") ? WC_PHASE_DRAFT : !strcmp(text, "play") ? WC_PHASE_PLAY
                                                                              : WC_PHASE_OVER;
    if (mps_get_str(m, "decision", text, sizeof text) < 0 ||
        (o->decision = (uint8_t)wc_decision_by_name(text)) == (uint8_t)-1)
        return -1;
    if (mps_get_str(m, "royal_guard", text, sizeof text) == 0 && !strcmp(text, "revised"))
        o->royal_guard = WC_GUARD_REVISED;
    o->area = seats == 4 ? wc_area_4p : wc_area_2p;
    o->locations = seats == 4 ? wc_locations_4p : wc_locations_2p;
    const msgpack_object *control = mps_get(m, "control");
    if (!control || control->type != MSGPACK_OBJECT_MAP)
        return -1;
    for (uint32_t i = 0; i < control->via.map.size; i++) {
        int h = hex_of(&control->via.map.ptr[i].key);
        const msgpack_object *side = &control->via.map.ptr[i].val;
        if (h < 0)
            return -1;
        if (side->type == MSGPACK_OBJECT_POSITIVE_INTEGER && side->via.u64 < 2)
            o->control[side->via.u64] |= (wc_mask)1 << h;
    }
    if (decode_players(mps_get(m, "players"), o) < 0 || decode_board(mps_get(m, "board"), o) < 0 ||
        zone_of(mps_get(m, "hand"), o->hand) < 0 || zone_of(mps_get(m, "bag"), o->bag) < 0 ||
        zone_of(mps_get(m, "facedown"), o->discard_down) < 0)
        return -1;
    const msgpack_object *pool = mps_get(m, "draft_pool");
    if (pool && pool->type == MSGPACK_OBJECT_ARRAY)
        for (uint32_t i = 0; i < pool->via.array.size; i++) {
            int u = coin_of(&pool->via.array.ptr[i]);
            if (u >= 0 && u < WC_NUNITS)
                o->draft_pool |= (uint16_t)(1u << u);
        }
    const msgpack_object *pending = mps_get(m, "pending");
    memset(&o->pending, WC_NONE, sizeof o->pending);
    if (pending && pending->type == MSGPACK_OBJECT_MAP) {
        int d = mps_get_str(pending, "decision", text, sizeof text) == 0
                    ? wc_decision_by_name(text) : -1;
        int ps = int_of(pending, "seat", 0, seats - 1);
        if (d < WC_DECIDE_GUARD || ps < 0)
            return -1;
        o->pending.kind = (uint8_t)(d - 2);
        o->pending.seat = (uint8_t)ps;
        int u = coin_of(mps_get(pending, "unit")), h = hex_of(mps_get(pending, "hex"));
        int c = coin_of(mps_get(pending, "coin")), other = hex_of(mps_get(pending, "other_hex"));
        o->pending.unit = u < 0 ? WC_NONE : (uint8_t)u;
        o->pending.hex = h < 0 ? WC_NONE : (uint8_t)h;
        if (o->pending.kind == WC_FRAME_FOOTMAN)
            o->pending.arg = other < 0 ? WC_NONE : (uint8_t)other;
        else if (o->pending.kind == WC_FRAME_PRIEST)
            o->pending.arg = c < 0 ? WC_HIDDEN : (uint8_t)c;
    }
    return 0;
}

int wc_unpack_action(const msgpack_object *a, wc_action *out)
{
    char text[64];
    return mps_get_str(a, "text", text, sizeof text) == 0 && wc_action_parse(text, out) == 0
               ? 0 : -1;
}

int wc_unpack_observation_bytes(const char *data, size_t size, wc_observation *out)
{
    msgpack_unpacked u;
    if (mps_decode(data, size, &u) < 0)
        return -1;
    int rc = wc_unpack_observation(&u.data, out);
    msgpack_unpacked_destroy(&u);
    return rc;
}

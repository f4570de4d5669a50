/*
 * wc_observe.c - what one seat may know of a state.
 *
 * Everything on the table is public: the board, markers, supplies, face-up
 * discards, removed coins, and how many coins each hidden zone holds. A
 * seat's hand, bag and face-down discards are its own; no other seat's
 * hidden coins reach the observation in any form, not even their order
 * (zones are counts, so there is none to leak). The generator state stays
 * out too: it would predict every future draw.
 */
#include <string.h>
#include "wc_internal.h"

void wc_observe(const wc_state *s, int seat, wc_observation *o)
{
    assert(seat >= 0 && seat < s->nseats);
    memset(o, 0, sizeof *o);
    o->seat = (uint8_t)seat;
    o->nseats = s->nseats;
    o->phase = s->phase;
    o->decision = (uint8_t)wc_decision(s);
    int mover = wc_to_move(s);
    o->to_move = mover < 0 ? WC_NONE : (uint8_t)mover;
    o->turn = s->turn;
    o->initiative = s->initiative;
    o->claimed = s->claimed;
    o->winner = s->winner;
    o->end_reason = s->end_reason;
    o->markers = s->markers;
    o->royal_guard = s->opt.royal_guard;
    o->round = s->round;
    o->round_limit = s->opt.round_limit;
    o->draft_pool = s->draft_pool;
    memcpy(o->unit_owner, s->unit_owner, sizeof o->unit_owner);
    o->area = s->area;
    o->locations = s->locations;
    o->control[0] = s->control[0];
    o->control[1] = s->control[1];
    memcpy(o->hex_unit, s->hex_unit, sizeof o->hex_unit);
    memcpy(o->hex_coins, s->hex_coins, sizeof o->hex_coins);
    for (int p = 0; p < s->nseats; p++) {
        memcpy(o->supply[p], s->coins[p][WC_SUPPLY], WC_NCOINS);
        memcpy(o->discard_up[p], s->coins[p][WC_DISCARD_UP], WC_NCOINS);
        memcpy(o->removed[p], s->coins[p][WC_REMOVED], WC_NCOINS);
        o->bag_count[p] = (uint8_t)wc_zone_total(s, p, WC_BAG);
        o->hand_count[p] = (uint8_t)wc_zone_total(s, p, WC_HAND);
        o->discard_down_count[p] = (uint8_t)wc_zone_total(s, p, WC_DISCARD_DOWN);
    }
    memcpy(o->hand, s->coins[seat][WC_HAND], WC_NCOINS);
    memcpy(o->bag, s->coins[seat][WC_BAG], WC_NCOINS);
    memcpy(o->discard_down, s->coins[seat][WC_DISCARD_DOWN], WC_NCOINS);
    if (s->nframes) {
        o->pending = s->frames[s->nframes - 1];
        if (o->pending.kind == WC_FRAME_PRIEST && o->pending.seat != seat)
            o->pending.arg = WC_HIDDEN;
    } else {
        o->pending.kind = WC_NONE;
        o->pending.seat = o->pending.unit = o->pending.hex = o->pending.arg = WC_NONE;
    }
}

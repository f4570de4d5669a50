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
#include "wc_rng.h"

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
        else if (o->pending.kind != WC_FRAME_PRIEST && o->pending.kind != WC_FRAME_FOOTMAN)
            o->pending.arg = WC_NONE;       /* only those two kinds use it */
    } else {
        o->pending.kind = WC_NONE;
        o->pending.seat = o->pending.unit = o->pending.hex = o->pending.arg = WC_NONE;
    }
}

/* Deals another seat's hidden coins, the multiset `left`, at random into
 * its hand, bag and face-down discards, `n[zone]` coins each: every
 * arrangement of the coins over the zones is equally likely. */
static void deal_hidden(wc_state *s, int seat, const int left[WC_NCOINS],
                        const int n[3], wc_rng *rng)
{
    static const int zones[3] = { WC_HAND, WC_BAG, WC_DISCARD_DOWN };
    uint8_t pool[WC_NCOINS * 8];
    int size = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        for (int k = 0; k < left[c] && size < (int)sizeof pool; k++)
            pool[size++] = (uint8_t)c;
    for (int i = size - 1; i > 0; i--) {           /* Fisher-Yates */
        int j = (int)wc_rng_below(rng, (uint32_t)i + 1);
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    int next = 0;
    for (int z = 0; z < 3; z++)
        for (int k = 0; k < n[z] && next < size; k++)
            s->coins[seat][zones[z]][pool[next++]]++;
}

/* A coin of `seat`'s hand, each coin equally likely (WC_NONE: none). */
static uint8_t draw_from_hand(const wc_state *s, int seat, wc_rng *rng)
{
    const uint8_t *hand = s->coins[seat][WC_HAND];
    int total = wc_zone_total(s, seat, WC_HAND);
    int r = total ? (int)wc_rng_below(rng, (uint32_t)total) : 0;
    for (int c = 0; c < WC_NCOINS && total; c++) {
        if (r < hand[c])
            return (uint8_t)c;
        r -= hand[c];
    }
    return WC_NONE;
}

void wc_scramble_hidden(wc_state *s, int seat, wc_rng *rng)
{
    static const int zones[3] = { WC_HAND, WC_BAG, WC_DISCARD_DOWN };
    int left[WC_NCOINS] = { 0 }, n[3];
    for (int z = 0; z < 3; z++) {
        n[z] = wc_zone_total(s, seat, zones[z]);
        for (int c = 0; c < WC_NCOINS; c++)
            left[c] += s->coins[seat][zones[z]][c];
        memset(s->coins[seat][zones[z]], 0, WC_NCOINS);
    }
    deal_hidden(s, seat, left, n, rng);
    /* A coin the seat holds in a pending step (the Warrior Priest's drawn
     * coin) is one of its hand's: drawn again from the new hand. */
    for (int f = 0; f < s->nframes; f++)
        if (s->frames[f].kind == WC_FRAME_PRIEST && s->frames[f].seat == seat) {
            assert(n[0] > 0);
            s->frames[f].arg = draw_from_hand(s, seat, rng);
        }
}

void wc_determinize(const wc_observation *o, uint64_t seed, wc_state *s)
{
    memset(s, 0, sizeof *s);
    wc_options_default(&s->opt);
    s->opt.players = o->nseats;
    s->opt.royal_guard = o->royal_guard;
    s->opt.round_limit = o->round_limit;
    wc_rng_seed(&s->rng, seed, 0x5741524348455354ULL);
    s->phase = o->phase;
    s->nseats = o->nseats;
    s->turn = o->turn;
    s->initiative = o->initiative;
    s->claimed = o->claimed;
    s->round = o->round;
    s->winner = o->winner;
    s->end_reason = o->end_reason;
    s->markers = o->markers;
    s->area = o->area;
    s->locations = o->locations;
    s->control[0] = o->control[0];
    s->control[1] = o->control[1];
    s->draft_pool = o->draft_pool;
    memcpy(s->unit_owner, o->unit_owner, sizeof s->unit_owner);
    memset(s->hex_unit, WC_NONE, sizeof s->hex_unit);
    int on_board[WC_NCOINS] = { 0 };
    for (int h = 0; h < WC_NHEX; h++)
        if (o->hex_unit[h] != WC_NONE) {
            wc_board_put(s, h, o->hex_unit[h], o->hex_coins[h]);
            on_board[o->hex_unit[h]] += o->hex_coins[h];
        }
    for (int p = 0; p < o->nseats; p++) {
        memcpy(s->coins[p][WC_SUPPLY], o->supply[p], WC_NCOINS);
        memcpy(s->coins[p][WC_DISCARD_UP], o->discard_up[p], WC_NCOINS);
        memcpy(s->coins[p][WC_REMOVED], o->removed[p], WC_NCOINS);
        if (p == o->seat) {
            memcpy(s->coins[p][WC_HAND], o->hand, WC_NCOINS);
            memcpy(s->coins[p][WC_BAG], o->bag, WC_NCOINS);
            memcpy(s->coins[p][WC_DISCARD_DOWN], o->discard_down, WC_NCOINS);
            continue;
        }
        if (o->phase == WC_PHASE_DRAFT)
            continue;
        int left[WC_NCOINS] = { 0 };
        for (int c = 0; c < WC_NCOINS; c++) {
            int total = c == WC_ROYAL ? 1 : o->unit_owner[c] == p ? wc_unit_coin_total(c) : 0;
            left[c] = total - o->supply[p][c] - o->discard_up[p][c] - o->removed[p][c] -
                      (c < WC_NUNITS ? on_board[c] : 0);
            if (left[c] < 0)
                left[c] = 0;
        }
        int counts[3] = { o->hand_count[p], o->bag_count[p], o->discard_down_count[p] };
        deal_hidden(s, p, left, counts, &s->rng);
    }
    if (o->pending.kind != WC_NONE) {
        s->frames[0] = o->pending;
        if (o->pending.kind == WC_FRAME_PRIEST && o->pending.arg == WC_HIDDEN) {
            /* The drawn coin: any coin of its hand, equally likely. */
            uint8_t coin = draw_from_hand(s, o->pending.seat, &s->rng);
            if (coin != WC_NONE)
                s->frames[0].arg = coin;
        }
        s->nframes = 1;
    }
}

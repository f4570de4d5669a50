/*
 * wc_internal.h - helpers shared by the engine's own files, not its users.
 *
 * Board bookkeeping lives here so that every file that changes a stack
 * keeps the masks, the per-hex arrays and the coin zones in step.
 */
#ifndef WC_INTERNAL_H
#define WC_INTERNAL_H

#include <assert.h>
#include "wc.h"

#define WC_BIT(h) ((wc_mask)1 << (h))

/* Lowest hex of a non-empty mask; iterate with `m &= m - 1`. */
static inline int wc_first(wc_mask m)
{
    assert(m);
    return __builtin_ctzll(m);
}

static inline int wc_owner_at(const wc_state *s, int hex)
{
    return s->unit_owner[s->hex_unit[hex]];
}

static inline int wc_side_at(const wc_state *s, int hex)
{
    return wc_side_of(s, wc_owner_at(s, hex));
}

static inline wc_mask wc_within2(int hex)
{
    return wc_hex_adjacent[hex] | wc_hex_ring2[hex];
}

static inline wc_mask wc_empty(const wc_state *s)
{
    return s->area & ~s->occupied;
}

static inline int wc_zone_total(const wc_state *s, int seat, int zone)
{
    int n = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        n += s->coins[seat][zone][c];
    return n;
}

static inline int wc_unit_limit(int unit)
{
    return unit == WC_FOOTMAN ? 2 : 1;
}

/* The one place a hex neighbour is taken: WC_NONE off the board in play. */
static inline int wc_step(const wc_state *s, int hex, int dir)
{
    int n = wc_hex_step[hex][dir];
    return n != WC_NONE && (s->area & WC_BIT(n)) ? n : WC_NONE;
}

/* Board and coin-zone edits (wc_board.c). */
void wc_board_put(wc_state *s, int hex, int unit, int coins);
void wc_board_move(wc_state *s, int from, int to);
/* Takes one coin off a stack into `zone` of its owner; clears the hex when
 * the last coin goes. */
void wc_board_take(wc_state *s, int hex, int zone);
/* Gives every owned unit's coins to its owner: two in the bag, the rest in
 * supply (or all in supply when `all_in_supply`), and each a Royal Coin. */
void wc_board_deal_coins(wc_state *s, int all_in_supply);

/* Rules predicates (wc_movegen.c). */
int  wc_can_attack(const wc_state *s, int attacker_coins, int target);
int  wc_gen_maneuvers(const wc_state *s, int hex, int coin, int coins,
                      wc_action *out);

/* Round flow (wc_apply.c); wc_begin_play fills the bags once the units
 * are known, by the set-up (wc_setup.c) or when the draft ends. */
void wc_start_round(wc_state *s);
void wc_begin_play(wc_state *s);
int  wc_can_claim(const wc_state *s, int seat);

#endif

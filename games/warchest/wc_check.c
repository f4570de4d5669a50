/*
 * wc_check.c - every invariant a state must satisfy, checked from scratch.
 *
 * Tests call it after every action of many random games; tools call it on
 * states they load. It recomputes what the engine keeps incrementally (the
 * masks) and compares, so a bookkeeping slip anywhere shows up here.
 */
#include "wc_internal.h"

const char *wc_check(const wc_state *s)
{
    if (s->nseats != 2 && s->nseats != 4)
        return "seat count";
    if (s->nframes > WC_MAX_FRAMES)
        return "frame stack overflow";
    if (s->phase > WC_PHASE_OVER)
        return "phase";
    if (s->initiative >= s->nseats || s->turn >= s->nseats)
        return "initiative or turn seat out of range";

    /* The board: one stack per hex, masks in step with the arrays. */
    wc_mask occupied = 0, side_units[2] = { 0, 0 }, unit_hexes[WC_NUNITS] = { 0 };
    int on_board[WC_NUNITS] = { 0 };
    for (int h = 0; h < WC_NHEX; h++) {
        int u = s->hex_unit[h];
        if (u == WC_NONE) {
            if (s->hex_coins[h] != 0)
                return "coins on an empty hex";
            continue;
        }
        if (u >= WC_NUNITS || s->unit_owner[u] >= s->nseats)
            return "unit on board with no owner";
        if (s->hex_coins[h] < 1)
            return "stack with no coin";
        if (!(s->area & WC_BIT(h)))
            return "unit off the board";
        occupied |= WC_BIT(h);
        unit_hexes[u] |= WC_BIT(h);
        side_units[wc_side_at(s, h)] |= WC_BIT(h);
        on_board[u] += s->hex_coins[h];
    }
    if (occupied != s->occupied || side_units[0] != s->side_units[0] ||
        side_units[1] != s->side_units[1])
        return "occupancy masks out of step";
    for (int u = 0; u < WC_NUNITS; u++) {
        if (unit_hexes[u] != s->unit_hexes[u])
            return "unit masks out of step";
        if (wc_popcount(unit_hexes[u]) > wc_unit_limit(u))
            return "too many units of one type";
    }

    /* Coins: each unit's coins all accounted for, with its owner only. */
    for (int u = 0; u < WC_NUNITS; u++) {
        int owner = s->unit_owner[u];
        for (int seat = 0; seat < s->nseats; seat++) {
            int n = 0;
            for (int z = 0; z < WC_NZONES; z++)
                n += s->coins[seat][z][u];
            if (seat != owner && n != 0)
                return "coins held by a seat that does not own the unit";
            if (seat == owner && s->phase != WC_PHASE_DRAFT &&
                n + on_board[u] != wc_unit_coin_total(u))
                return "unit coins not conserved";
        }
        if (owner == WC_NONE && on_board[u])
            return "unowned unit on board";
    }
    for (int seat = 0; seat < s->nseats; seat++) {
        const uint8_t (*z)[WC_NCOINS] = s->coins[seat];
        int royal = z[WC_BAG][WC_ROYAL] + z[WC_HAND][WC_ROYAL] +
                    z[WC_DISCARD_UP][WC_ROYAL] + z[WC_DISCARD_DOWN][WC_ROYAL];
        if (s->phase != WC_PHASE_DRAFT &&
            (royal != 1 || z[WC_SUPPLY][WC_ROYAL] || z[WC_REMOVED][WC_ROYAL]))
            return "Royal Coin not conserved";
    }

    /* Markers. */
    if (s->control[0] & s->control[1])
        return "two markers on one location";
    if ((s->control[0] | s->control[1]) & ~s->locations)
        return "marker off a location";
    if (s->locations & ~s->area)
        return "location off the board";
    for (int side = 0; side < 2; side++) {
        int n = wc_popcount(s->control[side]);
        if (n > s->markers || (n == s->markers &&
                               (s->phase != WC_PHASE_OVER || s->winner != side)))
            return "marker count out of range";
    }
    if (s->phase == WC_PHASE_OVER && s->nframes)
        return "follow-ups left after the end";
    if (s->phase == WC_PHASE_PLAY && s->nframes == 0 &&
        wc_zone_total(s, s->turn, WC_HAND) == 0)
        return "the seat to act has no coin";
    return 0;
}

/*
 * wc_board.c - hex names and distances, and the edits that keep a board's
 * masks, stacks and coin zones consistent with each other.
 */
#include <string.h>
#include "wc_internal.h"

int wc_hex_distance(int a, int b)
{
    int dq = wc_hex_q[a] - wc_hex_q[b], dr = wc_hex_r[a] - wc_hex_r[b];
    int ds = -dq - dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return dq > dr ? (dq > ds ? dq : ds) : (dr > ds ? dr : ds);
}

int wc_hex_by_name(const char *name)
{
    if (!name || strlen(name) != 2)
        return -1;
    for (int h = 0; h < WC_NHEX; h++)
        if (name[0] == wc_hex_names[h][0] && name[1] == wc_hex_names[h][1])
            return h;
    return -1;
}

const char *wc_hex_name(int hex)
{
    return hex >= 0 && hex < WC_NHEX ? wc_hex_names[hex] : "??";
}

void wc_board_put(wc_state *s, int hex, int unit, int coins)
{
    assert(!(s->occupied & WC_BIT(hex)) && (s->area & WC_BIT(hex)));
    assert(coins >= 1 && s->unit_owner[unit] != WC_NONE);
    s->hex_unit[hex] = (uint8_t)unit;
    s->hex_coins[hex] = (uint8_t)coins;
    s->occupied |= WC_BIT(hex);
    s->unit_hexes[unit] |= WC_BIT(hex);
    s->side_units[wc_side_at(s, hex)] |= WC_BIT(hex);
}

static void board_clear(wc_state *s, int hex)
{
    int unit = s->hex_unit[hex];
    s->side_units[wc_side_at(s, hex)] &= ~WC_BIT(hex);
    s->unit_hexes[unit] &= ~WC_BIT(hex);
    s->occupied &= ~WC_BIT(hex);
    s->hex_unit[hex] = WC_NONE;
    s->hex_coins[hex] = 0;
}

void wc_board_move(wc_state *s, int from, int to)
{
    int unit = s->hex_unit[from], coins = s->hex_coins[from];
    assert(from != to && unit != WC_NONE);
    board_clear(s, from);
    wc_board_put(s, to, unit, coins);
}

void wc_board_take(wc_state *s, int hex, int zone)
{
    int unit = s->hex_unit[hex];
    assert(unit != WC_NONE && s->hex_coins[hex] >= 1);
    s->coins[s->unit_owner[unit]][zone][unit]++;
    if (--s->hex_coins[hex] == 0)
        board_clear(s, hex);
}

void wc_board_deal_coins(wc_state *s, int all_in_supply)
{
    for (int u = 0; u < WC_NUNITS; u++) {
        int seat = s->unit_owner[u];
        if (seat == WC_NONE)
            continue;
        int in_bag = all_in_supply ? 0 : 2;
        s->coins[seat][WC_BAG][u] = (uint8_t)in_bag;
        s->coins[seat][WC_SUPPLY][u] = (uint8_t)(wc_unit_coin_total(u) - in_bag);
    }
    for (int seat = 0; seat < s->nseats; seat++)
        s->coins[seat][WC_BAG][WC_ROYAL] = 1;
}

int wc_move_coins(wc_state *s, int seat, int coin, int from, int to, int n)
{
    if (s->coins[seat][from][coin] < n)
        return -1;
    s->coins[seat][from][coin] = (uint8_t)(s->coins[seat][from][coin] - n);
    s->coins[seat][to][coin] = (uint8_t)(s->coins[seat][to][coin] + n);
    return 0;
}

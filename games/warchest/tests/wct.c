/*
 * wct.c - the engine tests' position builders and legal-set assertions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wct.h"
#include "wc_rng.h"

int wct_hex(const char *name)
{
    int h = wc_hex_by_name(name);
    if (h < 0)
        fail_msg("no hex named '%s'", name);
    return h;
}

static int coin_named(const char *name)
{
    int c = wc_coin_by_name(name);
    if (c < 0)
        fail_msg("no coin named '%s'", name);
    return c;
}

/* Calls fn(word) for each space-separated word of `list`. */
static int words(const char *list, char out[16][32])
{
    int n = 0;
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (n == 16 || len >= 32)
            fail_msg("word list too long: '%s'", list);
        memcpy(out[n], p, len);
        out[n++][len] = 0;
        p += len;
    }
    return n;
}

static void position(wc_state *s, int players, const char *const units[4])
{
    wc_options o;
    wc_options_default(&o);
    o.players = (uint8_t)players;
    o.setup = WC_SETUP_FIXED;
    o.initiative = 0;
    for (int seat = 0; seat < players; seat++) {
        char w[16][32];
        int n = words(units[seat], w);
        for (int i = 0; i < n && i < 4; i++)
            o.units[seat][i] = (uint8_t)coin_named(w[i]);
    }
    wc_setup_empty(s, &o, 1);
}

void wct_position(wc_state *s, const char *units0, const char *units1)
{
    const char *const u[4] = { units0, units1, "", "" };
    position(s, 2, u);
}

void wct_position4(wc_state *s, const char *u0, const char *u1,
                   const char *u2, const char *u3)
{
    const char *const u[4] = { u0, u1, u2, u3 };
    position(s, 4, u);
}

void wct_put(wc_state *s, const char *hex, const char *unit, int coins)
{
    if (wc_place(s, wct_hex(hex), coin_named(unit), coins) < 0)
        fail_msg("cannot put %d %s on %s", coins, unit, hex);
}

void wct_give(wc_state *s, int seat, int zone, const char *coins)
{
    char w[16][32];
    int n = words(coins, w);
    for (int i = 0; i < n; i++) {
        int c = coin_named(w[i]), from = -1;
        if (c == WC_ROYAL) {
            for (int z = 0; z < WC_NZONES; z++)
                if (z != zone && s->coins[seat][z][WC_ROYAL])
                    from = z;
        } else if (s->coins[seat][WC_SUPPLY][c]) {
            from = WC_SUPPLY;
        }
        if (from < 0 || wc_move_coins(s, seat, c, from, zone, 1) < 0)
            fail_msg("seat %d has no %s to give", seat, w[i]);
    }
}

void wct_control(wc_state *s, const char *hex, int side)
{
    wc_set_control(s, wct_hex(hex), side);
}

void wct_turn(wc_state *s, int seat)
{
    s->turn = (uint8_t)seat;
}

int wct_is_legal(const wc_state *s, const char *action)
{
    wc_action a;
    if (wc_action_parse(action, &a) < 0)
        fail_msg("not notation: '%s'", action);
    return wc_is_legal(s, &a);
}

void wct_play(wc_state *s, const char *action)
{
    wc_action a;
    if (wc_action_parse(action, &a) < 0)
        fail_msg("not notation: '%s'", action);
    if (!wc_is_legal(s, &a)) {
        char board[4096];
        wc_render(s, board, sizeof board);
        fail_msg("illegal here: '%s'\n%s", action, board);
    }
    wc_apply(s, &a);
    const char *why = wc_check(s);
    if (why)
        fail_msg("after '%s': invariant broken: %s", action, why);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int joined(char **items, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n && len + 1 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "; " : "", items[i]);
    return (int)len;
}

void wct_expect(const wc_state *s, const char *prefix, const char *expected)
{
    static wc_action legal[WC_MAX_ACTIONS];
    static char text[WC_MAX_ACTIONS][64];
    static char want_text[WC_MAX_ACTIONS][64];
    char *got[WC_MAX_ACTIONS] = { 0 }, *want[WC_MAX_ACTIONS] = { 0 };
    int ngot = 0, nwant = 0;
    int n = wc_legal_actions(s, legal);
    for (int i = 0; i < n; i++) {
        wc_action_format(&legal[i], text[ngot], sizeof text[ngot]);
        if (strncmp(text[ngot], prefix, strlen(prefix)) == 0) {
            got[ngot] = text[ngot];
            ngot++;
        }
    }
    for (const char *p = expected; *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        size_t len = strcspn(p, ";");
        while (len && p[len - 1] == ' ')
            len--;
        if (!len)
            break;
        memcpy(want_text[nwant], p, len);
        want_text[nwant][len] = 0;
        want[nwant] = want_text[nwant];
        nwant++;
        p += len;
    }
    qsort(got, (size_t)ngot, sizeof got[0], by_text);
    qsort(want, (size_t)nwant, sizeof want[0], by_text);
    int same = ngot == nwant;
    for (int i = 0; same && i < ngot; i++)
        same = strcmp(got[i], want[i]) == 0;
    if (!same) {
        static char g[16384], w[16384];
        joined(got, ngot, g, sizeof g);
        joined(want, nwant, w, sizeof w);
        fail_msg("legal '%s...' actions differ\n  got:      %s\n  expected: %s", prefix, g, w);
    }
}

int wct_coins_at(const wc_state *s, const char *hex)
{
    return s->hex_coins[wct_hex(hex)];
}

int wct_unit_at(const wc_state *s, const char *hex)
{
    return s->hex_unit[wct_hex(hex)];
}

int wct_zone(const wc_state *s, int seat, int zone, const char *coin)
{
    return s->coins[seat][zone][coin_named(coin)];
}

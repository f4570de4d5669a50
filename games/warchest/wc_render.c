/*
 * wc_render.c - an ASCII picture of a state, for debugging and `show`.
 *
 * The board is drawn as in board.md: hex (q, r) sits at column 4(q+5) and
 * line 2r+q+6. A unit is its two-letter code, upper case for side A and
 * lower case for side B, then its height; a location adds '*' when
 * neutral or the letter of the side whose marker is on it. Below the board
 * every seat's zones are listed, hidden ones included: this is the whole
 * truth, not one seat's view.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "wc_internal.h"

static const char codes[WC_NCOINS][3] = {
    "AR", "BE", "CA", "CR", "EN", "FO", "KN", "LA", "LC", "MA", "ME", "PI",
    "RG", "SC", "SW", "WP", "RC",
};

struct out { char *buf; size_t size, len; };

static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n : o->size - 1;
}

static void cell(const wc_state *s, int h, char text[8])
{
    int n = 0;
    if (s->hex_unit[h] == WC_NONE) {
        memcpy(text, wc_hex_names[h], 2);
        n = 2;
    } else {
        int lower = wc_side_at(s, h) == 1;
        for (int i = 0; i < 2; i++)
            text[n++] = (char)(codes[s->hex_unit[h]][i] + (lower ? 'a' - 'A' : 0));
        text[n++] = (char)('0' + (s->hex_coins[h] > 9 ? 9 : s->hex_coins[h]));
    }
    if (s->locations & WC_BIT(h))
        text[n++] = s->control[0] & WC_BIT(h) ? 'A' : s->control[1] & WC_BIT(h) ? 'B' : '*';
    text[n] = 0;
}

static void zone_line(struct out *o, const char *label, const uint8_t *z)
{
    put(o, "  %-9s", label);
    int any = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        if (z[c]) {
            put(o, " %s%d", codes[c], z[c]);
            any = 1;
        }
    put(o, "%s\n", any ? "" : " -");
}

int wc_render(const wc_state *s, char *buf, size_t size)
{
    struct out o = { buf, size, 0 };
    if (size == 0)
        return 0;
    buf[0] = 0;
    static const char *const phases[] = { "draft", "play", "over" };
    put(&o, "round %d, %s", s->round, phases[s->phase]);
    if (s->phase == WC_PHASE_OVER)
        put(&o, ": %s (%s)\n", s->winner == WC_NONE ? "draw" : s->winner ? "side B wins" : "side A wins",
            s->end_reason == WC_END_MARKERS ? "all markers placed" : "round limit");
    else
        put(&o, ", seat %d to decide, initiative seat %d%s\n", wc_to_move(s), s->initiative,
            s->claimed ? " (claimed this round)" : "");

    char line[80];
    for (int y = 0; y <= 12; y++) {
        memset(line, ' ', sizeof line);
        int width = 0;
        for (int h = 0; h < WC_NHEX; h++) {
            if (!(s->area & WC_BIT(h)) || 2 * wc_hex_r[h] + wc_hex_q[h] + 6 != y)
                continue;
            char text[8];
            cell(s, h, text);
            int x = 4 * (wc_hex_q[h] + 5);
            memcpy(line + x, text, strlen(text));
            if (x + (int)strlen(text) > width)
                width = x + (int)strlen(text);
        }
        if (width) {
            line[width] = 0;
            put(&o, "%s\n", line);
        }
    }
    for (int seat = 0; seat < s->nseats; seat++) {
        put(&o, "seat %d (side %c):", seat, 'A' + wc_side_of(s, seat));
        for (int u = 0; u < WC_NUNITS; u++)
            if (s->unit_owner[u] == seat)
                put(&o, " %s=%s", codes[u], wc_coin_name(u));
        put(&o, "\n");
        static const char *const zones[WC_NZONES] = {
            "bag", "hand", "discard", "facedown", "supply", "removed" };
        for (int z = 0; z < WC_NZONES; z++)
            zone_line(&o, zones[z], s->coins[seat][z]);
    }
    if (s->phase == WC_PHASE_DRAFT) {
        put(&o, "draft pool:");
        for (int u = 0; u < WC_NUNITS; u++)
            if (s->draft_pool & (1u << u))
                put(&o, " %s", wc_coin_name(u));
        put(&o, "\n");
    }
    return (int)o.len;
}

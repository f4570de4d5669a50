/*
 * wc_setup.c - options, named set-ups, and the start of a game: dealing or
 * drafting the units, filling the bags, placing the start markers. Also the
 * position-building calls that tests and tools use to make a hand-made
 * position that still satisfies every invariant.
 */
#include <string.h>
#include "wc_internal.h"
#include "wc_rng.h"

void wc_options_default(wc_options *o)
{
    memset(o, 0, sizeof *o);
    o->players = 2;
    o->setup = WC_SETUP_DEALT;
    o->royal_guard = WC_GUARD_2018;
    o->round_limit = 100;
    memset(o->units, WC_NONE, sizeof o->units);
    o->initiative = WC_NONE;
}

struct preset {
    const char *name;
    uint8_t units[2][4];
    uint8_t initiative;
};

/* The rulebook's first game and its three famous battles. Only the first
 * game says who starts; the battles flip for it. */
static const struct preset presets[] = {
    { "first-game",
      { { WC_SWORDSMAN, WC_PIKEMAN, WC_CROSSBOWMAN, WC_LIGHT_CAVALRY },
        { WC_ARCHER, WC_CAVALRY, WC_LANCER, WC_SCOUT } }, 0 },
    { "gaugamela",
      { { WC_KNIGHT, WC_LIGHT_CAVALRY, WC_PIKEMAN, WC_MARSHALL },
        { WC_CAVALRY, WC_FOOTMAN, WC_MERCENARY, WC_ROYAL_GUARD } }, WC_NONE },
    { "bannockburn",
      { { WC_ARCHER, WC_CAVALRY, WC_LANCER, WC_FOOTMAN },
        { WC_LIGHT_CAVALRY, WC_PIKEMAN, WC_WARRIOR_PRIEST, WC_SWORDSMAN } },
      WC_NONE },
    { "crecy",
      { { WC_ARCHER, WC_ENSIGN, WC_KNIGHT, WC_ROYAL_GUARD },
        { WC_CAVALRY, WC_CROSSBOWMAN, WC_LANCER, WC_SCOUT } }, WC_NONE },
};

int wc_options_preset(wc_options *o, const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (strcmp(presets[i].name, name) != 0)
            continue;
        o->players = 2;
        o->setup = WC_SETUP_FIXED;
        memset(o->units, WC_NONE, sizeof o->units);
        memcpy(o->units[0], presets[i].units[0], 4);
        memcpy(o->units[1], presets[i].units[1], 4);
        o->initiative = presets[i].initiative;
        return 0;
    }
    return -1;
}

static int units_per_seat(int players)
{
    return players == 4 ? 3 : 4;
}

const char *wc_options_invalid(const wc_options *o)
{
    if (o->players != 2 && o->players != 4)
        return "players must be 2 or 4";
    if (o->setup > WC_SETUP_FIXED)
        return "unknown set-up";
    if (o->royal_guard > WC_GUARD_REVISED)
        return "unknown Royal Guard rule";
    if (o->setup != WC_SETUP_FIXED)
        return NULL;
    if (o->initiative != WC_NONE && o->initiative >= o->players)
        return "initiative seat out of range";
    uint32_t seen = 0;
    for (int seat = 0; seat < o->players; seat++) {
        int n = 0;
        for (int i = 0; i < 4 && o->units[seat][i] != WC_NONE; i++, n++) {
            int u = o->units[seat][i];
            if (u >= WC_NUNITS)
                return "unknown unit in fixed set-up";
            if (seen & (1u << u))
                return "a unit is given to two seats";
            seen |= 1u << u;
        }
        if (n != units_per_seat(o->players))
            return o->players == 4 ? "each seat needs 3 units"
                                   : "each seat needs 4 units";
    }
    return NULL;
}

/* Everything but the units and coins: board, markers, counters. */
static void clear_state(wc_state *s, const wc_options *o, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->opt = *o;
    wc_rng_seed(&s->rng, seed, 0x5741524348455354ULL); /* "WARCHEST" */
    s->nseats = o->players;
    s->markers = o->players == 4 ? 8 : 6;
    s->area = o->players == 4 ? wc_area_4p : wc_area_2p;
    s->locations = o->players == 4 ? wc_locations_4p : wc_locations_2p;
    for (int side = 0; side < 2; side++)
        s->control[side] = o->players == 4 ? wc_start_4p[side] : wc_start_2p[side];
    memset(s->unit_owner, WC_NONE, sizeof s->unit_owner);
    memset(s->hex_unit, WC_NONE, sizeof s->hex_unit);
    s->winner = WC_NONE;
    s->round = 1;
}

static void shuffle_cards(wc_state *s, uint8_t cards[WC_NUNITS])
{
    for (int i = 0; i < WC_NUNITS; i++)
        cards[i] = (uint8_t)i;
    for (int i = WC_NUNITS - 1; i > 0; i--) {
        int j = (int)wc_rng_below(&s->rng, (uint32_t)i + 1);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

const char *wc_init(wc_state *s, const wc_options *o, uint64_t seed)
{
    const char *why = wc_options_invalid(o);
    if (why)
        return why;
    clear_state(s, o, seed);
    uint8_t cards[WC_NUNITS];
    int per = units_per_seat(o->players);

    switch (o->setup) {
    case WC_SETUP_DEALT:
        shuffle_cards(s, cards);
        for (int i = 0; i < per * s->nseats; i++)
            s->unit_owner[cards[i]] = (uint8_t)(i / per);
        s->initiative = (uint8_t)wc_rng_below(&s->rng, s->nseats);
        break;
    case WC_SETUP_FIXED:
        for (int seat = 0; seat < s->nseats; seat++)
            for (int i = 0; i < per; i++)
                s->unit_owner[o->units[seat][i]] = (uint8_t)seat;
        s->initiative = o->initiative != WC_NONE
            ? o->initiative : (uint8_t)wc_rng_below(&s->rng, s->nseats);
        break;
    case WC_SETUP_DRAFT:
        shuffle_cards(s, cards);
        for (int i = 0; i < per * s->nseats; i++)
            s->draft_pool |= (uint16_t)(1u << cards[i]);
        s->draft_first = (uint8_t)wc_rng_below(&s->rng, s->nseats);
        s->phase = WC_PHASE_DRAFT;
        return NULL;
    }
    wc_begin_play(s);
    return NULL;
}

void wc_setup_empty(wc_state *s, const wc_options *o, uint64_t seed)
{
    clear_state(s, o, seed);
    for (int seat = 0; seat < s->nseats; seat++)
        for (int i = 0; i < 4 && o->units[seat][i] != WC_NONE; i++)
            s->unit_owner[o->units[seat][i]] = (uint8_t)seat;
    wc_board_deal_coins(s, 1);
    s->phase = WC_PHASE_PLAY;
}

int wc_place(wc_state *s, int hex, int unit, int n)
{
    int seat = s->unit_owner[unit];
    if (seat == WC_NONE || n < 1 || (s->occupied & WC_BIT(hex)) ||
        !(s->area & WC_BIT(hex)) || s->coins[seat][WC_SUPPLY][unit] < n)
        return -1;
    s->coins[seat][WC_SUPPLY][unit] = (uint8_t)(s->coins[seat][WC_SUPPLY][unit] - n);
    wc_board_put(s, hex, unit, n);
    return 0;
}

void wc_set_control(wc_state *s, int hex, int side)
{
    assert(s->locations & WC_BIT(hex));
    s->control[0] &= ~WC_BIT(hex);
    s->control[1] &= ~WC_BIT(hex);
    if (side != WC_NONE)
        s->control[side] |= WC_BIT(hex);
}

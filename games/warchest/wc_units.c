/*
 * wc_units.c - the sixteen unit cards' names and coin counts (units.md).
 * What each card does lives with the rules that use it, in wc_movegen.c
 * (what is legal) and wc_apply.c (what happens).
 */
#include <string.h>
#include "wc_internal.h"

static const char *const coin_names[WC_NCOINS] = {
    "archer", "berserker", "cavalry", "crossbowman", "ensign", "footman",
    "knight", "lancer", "light_cavalry", "marshall", "mercenary", "pikeman",
    "royal_guard", "scout", "swordsman", "warrior_priest", "royal",
};

/* Six units have 4 coins, ten have 5: 74 in all. */
static const uint8_t coin_totals[WC_NUNITS] = {
    [WC_ARCHER] = 4, [WC_BERSERKER] = 5, [WC_CAVALRY] = 4,
    [WC_CROSSBOWMAN] = 5, [WC_ENSIGN] = 5, [WC_FOOTMAN] = 5,
    [WC_KNIGHT] = 4, [WC_LANCER] = 4, [WC_LIGHT_CAVALRY] = 5,
    [WC_MARSHALL] = 5, [WC_MERCENARY] = 5, [WC_PIKEMAN] = 4,
    [WC_ROYAL_GUARD] = 5, [WC_SCOUT] = 5, [WC_SWORDSMAN] = 5,
    [WC_WARRIOR_PRIEST] = 4,
};

const char *wc_coin_name(int coin)
{
    if (coin == WC_HIDDEN)
        return "?";
    return coin >= 0 && coin < WC_NCOINS ? coin_names[coin] : "none";
}

int wc_coin_by_name(const char *name)
{
    for (int c = 0; c < WC_NCOINS; c++)
        if (strcmp(name, coin_names[c]) == 0)
            return c;
    return -1;
}

int wc_unit_coin_total(int unit)
{
    assert(unit >= 0 && unit < WC_NUNITS);
    return coin_totals[unit];
}

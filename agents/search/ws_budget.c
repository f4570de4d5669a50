/*
 * ws_budget.c - the thinking time of ws_budget.h.
 */
#include "ws_budget.h"

int64_t ws_budget_margin_ms(int64_t move_ms)
{
    return 20 + move_ms / 20;
}

int64_t ws_budget_ms(int64_t want_ms, int64_t move_ms, int64_t bank_ms)
{
    if (move_ms < 0)
        move_ms = 0;
    if (bank_ms < 0)
        bank_ms = 0;
    int64_t safe = move_ms - ws_budget_margin_ms(move_ms);
    if (want_ms == 0 || want_ms > safe)
        safe += bank_ms / 32;       /* a share of the bank, never all of it */
    if (safe < 0)
        safe = 0;
    return want_ms > 0 && want_ms < safe ? want_ms : safe;
}

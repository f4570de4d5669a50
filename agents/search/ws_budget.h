/*
 * ws_budget.h - how long a bot may think about one decision, from the
 * time control the referee sends with each request (sdk/PROTOCOL.md,
 * section 7): `move_ms` per decision, then a bank that does not refill.
 * The referee's clock runs from sending the request to receiving the
 * answer, so a safety margin is kept for the round trip and for a loaded
 * machine; the bank is drawn on only when the bot asks for more than
 * move_ms, a small share of what is left each time, so it never runs dry.
 * Pure arithmetic.
 */
#ifndef WS_BUDGET_H
#define WS_BUDGET_H

#include <stdint.h>

/* The margin kept back from each decision's time. */
int64_t ws_budget_margin_ms(int64_t move_ms);

/* Milliseconds to think (>= 0): `want_ms` (0: as long as is safe) within
 * what the time control allows. */
int64_t ws_budget_ms(int64_t want_ms, int64_t move_ms, int64_t bank_ms);

#endif

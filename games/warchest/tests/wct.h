/*
 * wct.h - helpers for the engine's tests: hand-made positions written the
 * way the rulebook talks ("a Knight of 2 coins on d4"), and assertions on
 * legal actions by their notation, so a test reads like a ruling.
 *
 * Every helper fails the running cmocka test on misuse, and wct_play checks
 * every invariant after the action it plays.
 */
#ifndef WCT_H
#define WCT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "wc.h"

/* An empty 2-player board (start markers placed, hands empty, all unit
 * coins in supply, Royal Coins in bags) with these units per seat, given
 * as space-separated names: "archer knight". Seat 0 acts, and holds the
 * initiative. Options: the 2018 Royal Guard, 100 rounds. */
void wct_position(wc_state *s, const char *units0, const char *units1);
/* The same for 4 seats; seats 0 and 2 are side A, 1 and 3 side B. */
void wct_position4(wc_state *s, const char *u0, const char *u1,
                   const char *u2, const char *u3);
/* A stack of `coins` of `unit`, from its owner's supply, on `hex`. */
void wct_put(wc_state *s, const char *hex, const char *unit, int coins);
/* Coins by name ("archer royal archer") into a seat's zone: unit coins
 * come from supply, the Royal Coin from wherever it is. */
void wct_give(wc_state *s, int seat, int zone, const char *coins);
void wct_control(wc_state *s, const char *hex, int side); /* WC_NONE: neutral */
void wct_turn(wc_state *s, int seat);

/* Parses, asserts legal, applies, checks invariants. */
void wct_play(wc_state *s, const char *action);
int  wct_is_legal(const wc_state *s, const char *action);
/* Asserts that the legal actions whose notation starts with `prefix` are
 * exactly `expected`, a ';'-separated list (order free; "" for none). */
void wct_expect(const wc_state *s, const char *prefix, const char *expected);

/* Board queries in the rulebook's terms. */
int  wct_coins_at(const wc_state *s, const char *hex);   /* 0 if empty */
int  wct_unit_at(const wc_state *s, const char *hex);    /* WC_NONE if empty */
int  wct_zone(const wc_state *s, int seat, int zone, const char *coin);
int  wct_hex(const char *name);                          /* fails on a bad name */

#endif

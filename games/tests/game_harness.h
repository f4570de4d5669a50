/*
 * game_harness.h - the checks every game behind game.h must pass, whatever
 * its rules (after OpenSpiel's basic tests): each game's own test runs
 * them first, and test_games runs them over every game of the registry, so
 * a game listed in games/registry.c is checked without a line more.
 *
 *   - its declaration: a name the registry finds, seat counts, options
 *     whose defaults are accepted and whose canonical text reads back;
 *   - it loads with its defaults and with each declared option value
 *     alone (or refuses it with a one-line reason), and plays to the end;
 *   - random play to the end at every seat count it declares, many seeds:
 *     a seat to move while it is on, legal actions listed once each, a
 *     result only at the end (scores in [0, 1], partners alike, a reason),
 *     and the same seed and actions give the same game, hash by hash;
 *   - codecs: every legal action's notation parses back to it, its packed
 *     map carries that notation, and so does its public view; each seat's
 *     observation is one msgpack map, the same bytes each time;
 *   - hidden information: with what a seat may not see dealt afresh
 *     (game_api.scramble_hidden), its observation bytes, its JSON view and,
 *     when it moves, its legal actions are unchanged.
 *
 * A failure fails the running cmocka test with the game, options and seed.
 */
#ifndef GAME_HARNESS_H
#define GAME_HARNESS_H

#include "game.h"

/* Every check above on `g`, with `games` random games at each seat count
 * (ten times as many with ARENA_TEST_LONG=1, as `scripts/test.sh --long`
 * sets). */
void game_harness_check(const game_api *g, int games);

#endif

/*
 * gs.h - Goofspiel, the game of pure strategy (Merrill Flood, 1950s), as
 * game-AI research plays it (OpenSpiel's "goofspiel"): the rules engine,
 * pure C, no I/O, no allocation.
 *
 * Each seat holds the cards 1..K. A prize deck 1..K is shuffled face down;
 * each round its top card is turned up and every seat bids one card from
 * its hand. The highest bid takes the prize's value in points; on a tie
 * the prize is discarded (or split, by option). Bid cards are spent. After
 * K rounds the most points wins.
 *
 * Bids are simultaneous in the rules; here they are made in seat order
 * (OpenSpiel's sequential form), each bid hidden from the other seats until
 * the round's last bid is in. Hidden from every seat: the prize deck's
 * order. With reveal=winner (OpenSpiel's imperfect-information variant),
 * a round's bids stay hidden for good and only its winner is shown.
 */
#ifndef GS_H
#define GS_H

#include <stddef.h>
#include <stdint.h>
#include "pcg.h"

#define GS_MAX_CARDS 26
#define GS_MAX_SEATS 4
#define GS_NONE 0xff
/* Points are kept in twelfths, so a prize split 2, 3 or 4 ways stays exact. */
#define GS_UNIT 12

enum { GS_PRIZES_RANDOM, GS_PRIZES_ASCENDING, GS_PRIZES_DESCENDING };
enum { GS_TIE_DISCARD, GS_TIE_SPLIT };
enum { GS_REVEAL_BIDS, GS_REVEAL_WINNER };

typedef struct gs_options {
    uint8_t players;               /* 2..4 */
    uint8_t cards;                 /* K, 1..GS_MAX_CARDS */
    uint8_t prizes;                /* GS_PRIZES_* */
    uint8_t tie;                   /* GS_TIE_* */
    uint8_t reveal;                /* GS_REVEAL_* */
} gs_options;

typedef struct gs_state {
    gs_options opt;
    uint8_t  round;                /* 0-based; == opt.cards when over */
    uint8_t  to_move;              /* the seat bidding, GS_NONE when over */
    uint8_t  prize[GS_MAX_CARDS];  /* the prize deck, in order: prize[round] is up */
    uint8_t  bid[GS_MAX_CARDS][GS_MAX_SEATS];   /* card bid, 0 = not yet */
    uint8_t  winner[GS_MAX_CARDS]; /* seat that took the round's prize, GS_NONE: tie */
    uint32_t hand[GS_MAX_SEATS];   /* bit v-1 set: card v still held */
    uint32_t points[GS_MAX_SEATS]; /* in GS_UNIT-ths */
} gs_state;

void gs_options_default(gs_options *o);          /* 2 seats, 13 cards, random, discard */
/* NULL, or why these options make no game. */
const char *gs_options_invalid(const gs_options *o);
/* Deals: every hand 1..K, the prize deck in order or shuffled by `seed`. */
const char *gs_init(gs_state *s, const gs_options *o, uint64_t seed);

static inline int gs_is_over(const gs_state *s) { return s->round >= s->opt.cards; }
/* Legal bids (card values) in ascending order; the count. */
int  gs_legal(const gs_state *s, uint8_t *out);
/* Plays `card` for the seat to move; the last bid of a round settles it. */
void gs_apply(gs_state *s, int card);
/* Each seat's share of the win (the seats with the most points share 1). */
void gs_scores(const gs_state *s, double score[GS_MAX_SEATS]);
uint64_t gs_hash(const gs_state *s);
/* What `seat` may not see, changed at random: the face-down prizes
 * reordered, the round's other bids replaced by other cards of their
 * hands. For the checks that nothing `seat` is told depends on it
 * (game.h scramble_hidden). */
void gs_scramble_hidden(gs_state *s, int seat, pcg32 *rng);

/* "bid 7" <-> 7; "bid ?" is 0, a bid another seat may not see. */
int  gs_format(int card, char *buf, size_t size);
int  gs_parse(const char *text, int *card);

#endif

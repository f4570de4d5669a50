/*
 * arena_events.h - Swiss and knockout: events whose rounds depend on the
 * results of the rounds before. Pure: no I/O. The runner hands in the
 * scores stored so far (by game index) and gets back the games to play
 * now; the whole event is replayed from round 1 each time, so a resumed
 * run (or a second arena) plans exactly what the first one did.
 *
 * Both formats are for 2-seat games. A pairing (a Swiss game, a knockout
 * tie) is `games` games, even: seed pairs with the seats swapped, as in
 * every other format, so no bot gains from the seat or the deal. All
 * pairings of one round play the same seeds.
 *
 * Seeds (the seed order) are the entrants ranked by rating at the start
 * (the runner passes them; ties keep the entrants' order). Lower seed
 * number = stronger.
 *
 * Game indexes. Each round owns a fixed block of indexes after the blocks
 * of the rounds before, so an index says its round, pairing and game
 * without the results, and stored matches, resume and `arena check` work
 * as for the other formats:
 * - Swiss: round r, pairing p, game k is r*P*games + p*games + k, where
 *   P = nbots/2 pairings a round.
 * - Knockout: a tie owns S = games + 2*ARENA_KO_EXTRA_PAIRS slots (its
 *   games, then the tie-break pairs it may need); round r's ties follow
 *   round r-1's. Unplayed tie-break slots stay empty: the plan's size is
 *   an upper bound, and the event ends when its final is decided.
 *
 * Swiss rules (Monrad style: adjacent pairing down the ranking):
 * - Ranking: points (a game's score, 1 a win, 1/2 a draw), then Buchholz
 *   (the sum of the opponents' points: who beat strong bots ranks above
 *   who beat weak ones), then seed order. A bye adds nothing to anyone's
 *   Buchholz.
 * - Pairing: down the ranking, each unpaired bot meets the next-ranked one
 *   it has not met yet, so bots meet others of their score group and a
 *   bot floats to the next group only when its own is exhausted. A search
 *   with backtracking finds a pairing without any rematch whenever one
 *   exists. Fallback, documented: if none exists (or the search passes
 *   ARENA_SWISS_SEARCH steps), the round pairs straight down the ranking,
 *   rematches allowed: a round is always played.
 * - Bye (odd count): the lowest-ranked bot that has not had one yet (all
 *   have: the lowest-ranked) sits out and scores games/2 points, a draw's
 *   worth: a full win would reward sitting out over playing, nothing would
 *   punish the bot the pairing chose. A bye is not a match: it shows in
 *   the event's standings, not in the ratings.
 *
 * Knockout rules:
 * - Bracket: B = the smallest power of two >= nbots; seeds placed so that
 *   seeds 1 and 2 can only meet in the final, 1-4 only in the semifinals,
 *   and so on (1 v B, then B/2 v B/2+1, ...). Missing seeds above nbots
 *   are byes, so the top B - nbots seeds go straight to round 2.
 * - A tie: `games` games; the bot with more points advances. Level: one
 *   more seed pair (a fresh seed), up to ARENA_KO_EXTRA_PAIRS of them, the
 *   first that is not level decides; still level: the higher seed
 *   advances (the rating before the event is the best evidence left).
 */
#ifndef ARENA_EVENTS_H
#define ARENA_EVENTS_H

#include <stdint.h>
#include "arena_plan.h"

#define ARENA_EVENT_MAX_BOTS 64
#define ARENA_EVENT_MAX_GAMES 20     /* games per pairing in an event */
#define ARENA_EVENT_MAX_ROUNDS 63
#define ARENA_KO_EXTRA_PAIRS 2
#define ARENA_SWISS_SEARCH 100000

/* One game index's stored result (NULL entries: not stored yet). */
typedef struct arena_event_score {
    int    stored;
    double score[2];              /* seat 0's and seat 1's */
} arena_event_score;

/* A knockout tie as replayed: the higher seed and the lower (-1: a bye),
 * each one's points in the tie's games so far, and who went through (-1:
 * not decided yet). Entrant indexes. */
typedef struct arena_ko_tie {
    int    round;                 /* 0-based */
    int    hi, lo;
    double points_hi, points_lo;
    int    games;                 /* stored, tie-break pairs included */
    int    winner;
} arena_ko_tie;

/* Where an event stands, replayed from its stored scores. */
typedef struct arena_event {
    int    done;                  /* no game left to play */
    int    round;                 /* the round being played (0-based) */
    int    ngames;                /* games of the current round still to store */
    arena_game game[ARENA_EVENT_MAX_BOTS / 2 * (ARENA_EVENT_MAX_GAMES + 2 * ARENA_KO_EXTRA_PAIRS)];
    /* per entrant */
    double points[ARENA_EVENT_MAX_BOTS];     /* Swiss: with byes; knockout: games' points */
    double buchholz[ARENA_EVENT_MAX_BOTS];   /* Swiss */
    int    byes[ARENA_EVENT_MAX_BOTS];       /* Swiss: byes had; knockout: 1 if any */
    int    out_in[ARENA_EVENT_MAX_BOTS];     /* knockout: round lost (0-based), -1 still in */
    int    rank[ARENA_EVENT_MAX_BOTS];       /* entrants best first (Swiss: ranking;
                                                knockout: by round reached, then seed) */
    int    bye_bot;                          /* Swiss: the current round's bye, or -1 */
    arena_ko_tie tie[ARENA_EVENT_MAX_BOTS];  /* knockout: the bracket so far, round by round */
    int    nties;
} arena_event;

/* The plan's size (an upper bound for knockout), or -1 with a reason:
 * 2..64 bots, games even 2..20, Swiss 1..63 rounds (and fewer than the
 * bots). */
int  arena_event_size(int format, int nbots, int games, int rounds, const char **why);

/* Replays the event: `seed_order` lists entrant indexes strongest first;
 * `scores` has arena_event_size(...) entries. Fills *ev; ev->game holds
 * the current round's games not stored yet (any order of play). */
void arena_event_replay(int format, int nbots, int games, int rounds, uint64_t seed,
                        const int *seed_order, const arena_event_score *scores,
                        arena_event *ev);

/* The Swiss pairing alone, for tests: `ranked` lists nbots entrants best
 * first, met[a*nbots+b] says a and b have met, had_bye[a] a bye. Fills
 * pair[2*i], pair[2*i+1] (nbots/2 pairs, better-ranked first) and returns
 * the bye (-1 for an even count). *rematches: pairs that met before. */
int  arena_swiss_pair(int nbots, const int *ranked, const unsigned char *met,
                      const int *had_bye, int *pair, int *rematches);

#endif

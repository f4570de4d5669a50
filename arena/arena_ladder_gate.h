/*
 * arena_ladder_gate.h - the ladder's SPRT gate (`arena ladder --gate
 * sprt`), as fishtest gates an engine patch: a new version of a bot, while
 * an older version of it is active, is on trial. The ladder pairs it only
 * with that older version, in seed pairs, until the SPRT over their games
 * (arena_sprt.h, pentanomial) accepts H1 (it joins the ladder) or H0 (it
 * is disabled with the reason), or the games reach a cap (disabled as
 * inconclusive).
 *
 * The gate keeps no state of its own: the verdict is judged again from
 * the stored games between the two (the first pair after which the test
 * decided), so a ladder stopped mid-trial goes on where it was, and a
 * verdict stands whatever is played later. Each verdict is also stored
 * (gate_verdicts, once per outcome) for people: the web shows them.
 * A bot enabled by hand after its gate failed (its status time after its
 * last trial game) is let in: that is the way to overrule the gate.
 */
#ifndef ARENA_LADDER_GATE_H
#define ARENA_LADDER_GATE_H

#include <stddef.h>
#include <stdint.h>
#include "arena_db.h"
#include "arena_sprt.h"

typedef struct arena_gate_opts {
    int on;                       /* --gate sprt */
    rt_sprt_params p;             /* H0 elo0, H1 elo1, alpha, beta */
    int max_games;                /* undecided after this many games: disabled */
} arena_gate_opts;

void arena_gate_default(arena_gate_opts *o);

typedef enum {
    ARENA_GATE_TRIAL,             /* plays its previous version */
    ARENA_GATE_WAIT,              /* its previous version is itself on trial */
    ARENA_GATE_PASSED,            /* H1 (or let in by hand): plays the ladder */
    ARENA_GATE_FAILED,            /* H0: disabled */
    ARENA_GATE_CAPPED             /* no verdict within max_games: disabled */
} arena_gate_state;

typedef struct arena_gate {
    int64_t bot, opponent;        /* the new version, the older one it must beat */
    arena_gate_state state;
    arena_sprt_tally t;           /* their games up to the verdict */
    char opponent_label[128];
} arena_gate;

/* The version list[i] must beat: the nearest older version along its
 * previous_id chain that is active. 0: none (it plays ungated). */
int64_t arena_gate_opponent(const arena_bot *list, int n, int i);

/* Judges bot (active) against g->opponent from their 2-player games in
 * the ladder: g->state and g->t. 0, or -1 with err. */
int arena_gate_judge(arena_db *db, int64_t ladder_id, const arena_gate_opts *o,
                     const arena_bot *bot, arena_gate *g, char *err, size_t size);

/* Stores g's verdict (g->state PASSED, FAILED or CAPPED; let in by hand
 * is "overruled") with the test's hypotheses, at `now_ms`. 0, or -1 with
 * err. */
int arena_gate_store(arena_db *db, int64_t ladder_id, const arena_gate_opts *o,
                     const arena_gate *g, int64_t now_ms, char *err, size_t size);

/* The gate's words for g: the note of a bot on trial (starting with
 * ARENA_BOT_TRIAL), the reason of one disabled, the log line of one let
 * in. */
void arena_gate_text(const arena_gate *g, const arena_gate_opts *o, const char *ladder,
                     char *out, size_t size);

#endif

/*
 * game.h - the interface between the programs and a game.
 *
 * The referee drives any game through this table, in the spirit of
 * OpenSpiel: who decides, what they may choose, what happens, what each
 * seat may see, how it ended. Actions are 64-bit values only the game
 * interprets, with a text notation that is the game's too. Everything a
 * seat is sent about the game is built by the game from that seat's view,
 * so the loop cannot leak what it never understands.
 *
 * A game declares itself: its name, a line of description, the seat counts
 * it can be played with, and its options (name, kind, allowed values,
 * default, a line of help), as OpenSpiel declares its parameters. The
 * programs build their flags and --help from that declaration, and options
 * are parsed, checked and stored by game_options.c from it: no game parses
 * its own option text.
 *
 * To add a game: implement a game_api in games/NAME/ and list it in
 * games/registry.c (ARCHITECTURE.md has the recipe). The loop, the records,
 * the protocol and the arena need no change.
 */
#ifndef GAME_H
#define GAME_H

#include <stddef.h>
#include <stdint.h>

struct msgpack_packer;
struct jw;

typedef uint64_t game_action;

#define GAME_MAX_ACTIONS 1024
#define GAME_MAX_SEATS 4
/* The longest option text a record or a database row holds; every game's
 * declaration must fit (game_options_text_max, checked by tests). */
#define GAME_OPTIONS_TEXT_MAX 511

/* ---- options, declared -------------------------------------------------- */

enum {
    GAME_OPT_INT,        /* a whole number in [lo, hi] */
    GAME_OPT_CHOICE,     /* one of `choices` */
    GAME_OPT_TEXT,       /* free text of at most `hi` bytes, judged by `check` */
};

/* Shown in the canonical text even at its default (else only when set). */
#define GAME_OPT_SHOWN 1

typedef struct game_option {
    const char *name;              /* key, [a-z_]: "round_limit"; flag --round-limit */
    int         kind;              /* GAME_OPT_* */
    const char *def;               /* the default, as text */
    int64_t     lo, hi;            /* INT: range; TEXT: hi is the longest value */
    const char *const *choices;    /* CHOICE: allowed values, NULL-terminated */
    const char *help;              /* one line */
    int         flags;             /* GAME_OPT_SHOWN */
    /* TEXT: NULL if the value is acceptable, else why not. */
    const char *(*check)(const char *value);
} game_option;

/* A set of option values for one game: made with its defaults, changed by
 * key and value text (checked against the declaration), read by index. */
typedef struct game_options game_options;
typedef struct game_api game_api;

game_options *game_options_new(const game_api *g);          /* NULL: out of memory */
void          game_options_free(game_options *o);
const game_api *game_options_game(const game_options *o);
/* One option from text. 0, or -1 with a one-line reason naming it. */
int  game_options_set(game_options *o, const char *key, const char *value,
                      char *err, size_t size);
/* "key=value key=value", each as game_options_set. */
int  game_options_parse(game_options *o, const char *text, char *err, size_t size);
int  game_options_given(const game_options *o, const char *key);  /* set, not defaulted */
/* The canonical text: declared order, shown options and those set to other
 * than their default. Equal options give equal text. Returns its length;
 * writes what fits in buf (size > game_options_text_max(g) always fits). */
size_t game_options_format(const game_options *o, char *buf, size_t size);
size_t game_options_text_max(const game_api *g);
/* Option `index` of the declaration: INT its value, CHOICE the index of
 * its choice. TEXT its text, CHOICE its choice's name (INT: ""). */
int64_t     game_option_int(const game_options *o, int index);
const char *game_option_text(const game_options *o, int index);

/* ---- the game ----------------------------------------------------------- */

struct game_api {
    const char *name;              /* [a-z0-9_]: "warchest" */
    const char *description;       /* one line */
    const int  *seat_counts;       /* the seat counts it is played with, 0-terminated */
    const game_option *options;    /* its declared options, in order */
    int         noptions;
    size_t      state_size;        /* a state is a plain, copyable value */

    /* NULL, or why these options cannot make a game (a one-line reason). */
    const char *(*init)(void *state, const game_options *options, uint64_t seed);
    int         (*seats)(const void *state);
    int         (*team_of)(const void *state, int seat);  /* who wins together */
    int         (*to_move)(const void *state);            /* -1 when over */
    const char *(*decision_name)(const void *state);      /* "turn", "guard", ... */
    int         (*legal)(const void *state, game_action *out);
    void        (*apply)(void *state, game_action action);
    /* What a seat other than the actor may learn of an action. */
    game_action (*public_view)(game_action action);
    /* 1 when `seat`, once the game is at `state`, knows the whole of
     * `action` that `actor` took before (a Goofspiel bid after its round);
     * 0 while it knows only public_view(action). NULL: never more. */
    int         (*revealed)(const void *state, int seat, int actor, game_action action);

    int         (*format)(game_action action, char *buf, size_t size);
    int         (*parse)(const char *text, game_action *out);   /* 0 or -1 */
    /* An action map, with "text" (its notation) among its keys. */
    void        (*pack_action)(struct msgpack_packer *pk, game_action action);
    void        (*pack_observation)(struct msgpack_packer *pk, const void *state, int seat);

    /* 1 when over, with each seat's score (1 win, 0.5 draw, 0 loss; with
     * more seats, the share of the win), the game's own reason, one word
     * ("markers"), and a sentence for people ("all markers placed"). */
    int         (*result)(const void *state, double score[GAME_MAX_SEATS],
                          char *reason, size_t reason_size, char *detail, size_t detail_size);
    uint64_t    (*hash)(const void *state);
    int         (*render)(const void *state, char *buf, size_t size);
    /* The state as JSON for the web's board view (web/assets/games/NAME.js
     * draws it): seat -1 is the whole truth; a seat writes only what that
     * seat may know, from the game's own observation. NULL: the viewer
     * shows `render`'s text instead. */
    void        (*write_json)(struct jw *w, const void *state, int seat);
    /* What `seat` may not see, by the rules, dealt afresh from `seed`: the
     * other seats' hidden holdings and the chance still to come, all else
     * kept (OpenSpiel resamples from an information state; this is that
     * from the truth, not from the seat's view, so that a leak shows). The
     * seat's bytes (pack_observation, write_json) and, when it is to move,
     * its legal actions must not change: games/tests/game_harness.c checks
     * it for every game. NULL: the game hides nothing. */
    void        (*scramble_hidden)(void *state, int seat, uint64_t seed);
};

/* ---- the registry (registry.c) ------------------------------------------ */

int             game_count(void);
const game_api *game_at(int i);                 /* 0 <= i < game_count() */
const game_api *game_default(void);             /* the first listed */
const game_api *game_find(const char *name);    /* NULL if unknown */
/* The game every record and database row written before they named their
 * game was played in (arena schema 1): what a migration fills in. */
const game_api *game_legacy(void);
/* "2,4": the seat counts, for people. */
void game_seat_counts_text(const game_api *g, char *buf, size_t size);

/* The shape these options give: seats and teams (distinct team_of values),
 * from a state made with them. 0, or -1 with init's reason. */
int  game_shape(const game_options *o, int *seats, int *teams, char *err, size_t size);

#endif

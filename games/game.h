/*
 * game.h - the interface between the match loop and a game.
 *
 * The referee drives any game through this table, in the spirit of
 * OpenSpiel: who decides, what they may choose, what happens, what each
 * seat may see, how it ended. Actions are 64-bit values only the game
 * interprets, with a text notation that is the game's too. Everything a
 * seat is sent about the game is built by the game from that seat's view,
 * so the loop cannot leak what it never understands.
 *
 * To add a game: implement a game_api in games/NAME/ and list it
 * in games/registry.c. The loop, the records and the protocol need no change.
 */
#ifndef GAME_H
#define GAME_H

#include <stddef.h>
#include <stdint.h>

struct msgpack_packer;

typedef uint64_t game_action;

#define GAME_MAX_ACTIONS 1024
#define GAME_MAX_SEATS 4

typedef struct game_api {
    const char *name;
    size_t state_size;           /* a state is a plain, copyable value */
    size_t options_size;

    void        (*options_default)(void *options);
    /* One option from text, as a user gives it ("setup", "draft").
     * Returns NULL, or a one-line reason the option is bad. */
    const char *(*options_set)(void *options, const char *key, const char *value);
    /* All options as "key=value key=value", each accepted by options_set. */
    int         (*options_format)(const void *options, char *buf, size_t size);

    const char *(*init)(void *state, const void *options, uint64_t seed);
    int         (*seats)(const void *state);
    int         (*team_of)(const void *state, int seat);  /* who wins together */
    int         (*to_move)(const void *state);            /* -1 when over */
    const char *(*decision_name)(const void *state);      /* "turn", "guard", ... */
    int         (*legal)(const void *state, game_action *out);
    void        (*apply)(void *state, game_action action);
    /* What a seat other than the actor may learn of an action. */
    game_action (*public_view)(game_action action);

    int         (*format)(game_action action, char *buf, size_t size);
    int         (*parse)(const char *text, game_action *out);   /* 0 or -1 */
    void        (*pack_action)(struct msgpack_packer *pk, game_action action);
    void        (*pack_observation)(struct msgpack_packer *pk, const void *state, int seat);

    /* 1 when over, with each seat's score (1 win, 0.5 draw, 0 loss) and
     * the game's own reason ("markers", "round_limit"). */
    int         (*result)(const void *state, double score[GAME_MAX_SEATS],
                          char *reason, size_t size);
    uint64_t    (*hash)(const void *state);
    int         (*render)(const void *state, char *buf, size_t size);
} game_api;

const game_api *game_find(const char *name);    /* NULL if unknown */
/* The game every record and database row written before they named their
 * game was played in (arena schema 1): what a migration fills in. */
const game_api *game_legacy(void);
/* Applies "key=value key=value" to options already defaulted. Returns 0,
 * or -1 with a one-line reason naming the option. */
int game_options_parse(const game_api *g, void *options, const char *text,
                       char *err, size_t size);
extern const game_api game_warchest;

#endif

/*
 * bot.h - the C SDK's transport: the protocol of sdk/PROTOCOL.md from a
 * bot's side, for any game.
 *
 *   #include "bot.h"
 *   int main(void)
 *   {
 *       bot_conn *bot = bot_connect("mybot", "1.0");
 *       bot_request req;
 *       while (bot_next(bot, &req) > 0)
 *           bot_answer(bot, &req, 0);          // any index < req.nactions
 *       return bot_close(bot);
 *   }
 *
 * The referee starts a bot with ARENA_ENDPOINT and ARENA_TOKEN in its
 * environment; bot_connect reads them and says hello. A request comes as
 * the game sent it: the decision's name, the time it may take, the
 * observation as msgpack bytes (and as a decoded msgpack object), and the
 * legal actions, each with its notation and its msgpack map. Knowing no
 * game, this layer plays every game; a game's own layer (wc_bot.h for War
 * Chest) decodes the observation into that game's types. bot_seed gives
 * the seed the referee chose for this seat's random choices.
 */
#ifndef BOT_H
#define BOT_H

#include <stddef.h>
#include <stdint.h>

#define BOT_PROTOCOL 1
#define BOT_MAX_SEATS 8

struct msgpack_object;
typedef struct bot_conn bot_conn;

typedef struct bot_action {
    const char *text;              /* its notation, NUL-terminated */
    const char *raw;               /* its msgpack map, as sent */
    size_t      raw_size;
    const struct msgpack_object *map;
} bot_action;

/* Everything in a request stays valid until the next bot_next. */
typedef struct bot_request {
    uint32_t    id;
    const char *decision;          /* "turn", "bid", ... */
    int64_t     move_ms, bank_ms;  /* the time this decision may take */
    const char *observation;       /* the observation map's msgpack bytes */
    size_t      observation_size;
    const struct msgpack_object *observation_map;
    int         nactions;          /* at least 1 */
    const bot_action *actions;
} bot_request;

typedef struct bot_welcome {
    char    game[32];
    char    options[1024];         /* the rules in force, "key=value ..." */
    int     seat, seats, team;
    int64_t move_ms, bank_ms;
} bot_welcome;

typedef struct bot_result {
    double scores[BOT_MAX_SEATS];
    int    seats;
    char   reason[32];             /* the game's, or a forfeit (timeout, crash, ...) */
    int    culprit;                /* the seat that forfeited, or -1 */
    char   detail[256];
} bot_result;

/* Connects and says hello. On failure prints why to stderr, returns NULL. */
bot_conn *bot_connect(const char *name, const char *version);
/* Waits for the next request: 1 with *req filled, 0 when the match has
 * ended (see bot_last_result), -1 on a broken connection. */
int  bot_next(bot_conn *bot, bot_request *req);
/* Answers a request by the index of one of its actions, or by notation. */
int  bot_answer(bot_conn *bot, const bot_request *req, int index);
int  bot_answer_text(bot_conn *bot, const bot_request *req, const char *text);
const bot_welcome *bot_welcomed(const bot_conn *bot);     /* zeroed before welcome */
int  bot_seat(const bot_conn *bot);                        /* -1 before welcome */
const bot_result *bot_last_result(const bot_conn *bot);
/* Called for every update (a decision made), if set: the actor's seat and
 * its action as this seat may know it (a map with "text"). */
void bot_on_update(bot_conn *bot,
                   void (*fn)(void *user, int seat, const struct msgpack_object *action),
                   void *user);
/* The seed for this seat's random choices: ARENA_BOT_SEED, which the
 * referee sets from the match seed and the seat (1..2^31-1), so a match
 * played again draws the same. Unset (a bot started by hand): 1. Returns 0
 * with *seed set, or -1 with *seed untouched after printing to stderr why
 * the value is not a whole number from 0 to BOT_SEED_MAX. */
#define BOT_SEED_MAX 4294967295u
int  bot_seed(uint32_t *seed);
/* Closes the connection; returns 0. */
int  bot_close(bot_conn *bot);

#endif

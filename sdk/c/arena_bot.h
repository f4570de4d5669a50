/*
 * arena_bot.h - write a War Chest bot in C.
 *
 *   #include "arena_bot.h"
 *   int main(void)
 *   {
 *       arena_bot *bot = arena_connect("mybot", "1.0");
 *       arena_request req;
 *       while (arena_next(bot, &req) > 0)
 *           arena_answer(bot, &req, 0);        // pick any index < req.nactions
 *       return arena_close(bot);
 *   }
 *
 * The referee starts the bot with ARENA_ENDPOINT and ARENA_TOKEN in its
 * environment; arena_connect reads them and says hello. Each request comes
 * decoded: the seat's observation as the engine's wc_observation, and the
 * legal actions as wc_action values (parsed from their notation), so a bot
 * can hand them straight to the engine (wc.h) for search.
 */
#ifndef ARENA_BOT_H
#define ARENA_BOT_H

#include <stdint.h>
#include "wc.h"

typedef struct arena_bot arena_bot;

typedef struct arena_request {
    uint32_t id;
    int      decision;                 /* WC_DECIDE_* */
    int64_t  move_ms, bank_ms;         /* the time this decision may take */
    wc_observation obs;
    int      nactions;
    wc_action actions[WC_MAX_ACTIONS];
} arena_request;

typedef struct arena_result {
    double scores[WC_MAX_SEATS];
    int    seats;
    char   reason[32];                 /* markers, round_limit, timeout, ... */
    int    culprit;                    /* seat that forfeited, or -1 */
    char   detail[256];
} arena_result;

/* Connects and says hello. On failure prints why to stderr, returns NULL. */
arena_bot *arena_connect(const char *name, const char *version);
/* Waits for the next request: 1 with *req filled, 0 when the match has
 * ended (see arena_last_result), -1 on a broken connection. */
int  arena_next(arena_bot *bot, arena_request *req);
/* Answers a request with the index of one of its actions. 0 or -1. */
int  arena_answer(arena_bot *bot, const arena_request *req, int index);
int  arena_seat(const arena_bot *bot);
const arena_result *arena_last_result(const arena_bot *bot);
/* Called for every update (what a seat did), if set. */
void arena_on_update(arena_bot *bot,
                     void (*fn)(void *user, int seat, const wc_action *public_action),
                     void *user);
/* Closes the connection; returns 0. */
int  arena_close(arena_bot *bot);

/* Decodes an observation map as the protocol sends it. 0 or -1. */
struct msgpack_object;
int  arena_decode_observation(const struct msgpack_object *map, wc_observation *out);

#endif

/*
 * wc_bot.h - the C SDK's War Chest layer: requests decoded into engine
 * types, over the game-neutral transport (bot.h).
 *
 *   #include "wc_bot.h"
 *   int main(void)
 *   {
 *       bot_conn *bot = bot_connect("mybot", "1.0");
 *       static wc_request req;
 *       while (wc_bot_next(bot, &req) > 0)
 *           wc_bot_answer(bot, &req, 0);       // any index < req.nactions
 *       return bot_close(bot);
 *   }
 *
 * The observation arrives as the engine's wc_observation (decoded by
 * games/warchest/wc_unpack.c, the inverse of what the referee packs) and
 * the legal actions as wc_action values parsed from their notation, so a
 * bot can hand them straight to the engine (wc.h) for search.
 */
#ifndef WC_BOT_H
#define WC_BOT_H

#include "bot.h"
#include "wc.h"

typedef struct wc_request {
    bot_request    base;               /* as the transport got it */
    int            decision;           /* WC_DECIDE_* */
    wc_observation obs;
    int            nactions;
    wc_action      actions[WC_MAX_ACTIONS];
} wc_request;

/* As bot_next, decoded: 1 with *req filled, 0 at the end, -1 on a broken
 * connection or a request that is not War Chest's. */
int wc_bot_next(bot_conn *bot, wc_request *req);
/* Answers by the index of one of req->actions. 0 or -1. */
int wc_bot_answer(bot_conn *bot, const wc_request *req, int index);

#endif

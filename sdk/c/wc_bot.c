/*
 * wc_bot.c - the War Chest layer of the C SDK (wc_bot.h).
 */
#include <stdio.h>
#include "wc_bot.h"
#include "wc_pack.h"

int wc_bot_next(bot_conn *bot, wc_request *req)
{
    int rc = bot_next(bot, &req->base);
    if (rc <= 0)
        return rc;
    const bot_request *b = &req->base;
    if (b->nactions > WC_MAX_ACTIONS || wc_unpack_observation(b->observation_map, &req->obs) < 0) {
        fprintf(stderr, "wc_bot: a request whose observation is not War Chest's\n");
        return -1;
    }
    req->decision = req->obs.decision;
    req->nactions = b->nactions;
    for (int i = 0; i < b->nactions; i++)
        if (wc_action_parse(b->actions[i].text, &req->actions[i]) < 0) {
            fprintf(stderr, "wc_bot: an action that is not War Chest's: %s\n", b->actions[i].text);
            return -1;
        }
    return 1;
}

int wc_bot_answer(bot_conn *bot, const wc_request *req, int index)
{
    return bot_answer(bot, &req->base, index);
}

/*
 * greedy.c - a one-ply bot: it tries every legal action on a state rebuilt
 * from its observation (wc_determinize) and keeps the one whose result
 * scores best by ws_eval (search/ws_eval.c: markers, units and their first
 * coins on the board, how close its units stand to locations it does not
 * hold, the coins still cycling through its bag). Ties go to a coin flip
 * seeded by bot_seed (ARENA_BOT_SEED), so the bot is deterministic.
 */
#include "wc_bot.h"
#include "wc_rng.h"
#include "ws_eval.h"

int main(void)
{
    uint32_t seed;
    if (bot_seed(&seed) < 0)
        return 2;
    bot_conn *bot = bot_connect("greedy", "1.0");
    if (!bot)
        return 1;
    wc_rng rng;
    wc_rng_seed(&rng, seed, 13);
    static wc_request req;
    while (wc_bot_next(bot, &req) > 0) {
        wc_state base;
        wc_determinize(&req.obs, wc_rng_next(&rng), &base);
        wc_bot_answer(bot, &req, ws_greedy_choose(&base, req.actions, req.nactions, &rng));
    }
    return bot_close(bot);
}

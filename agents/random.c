/*
 * random.c - the random bot: any legal action, uniformly, in any game. The
 * baseline every other bot must beat, and a lively test of the referee. It
 * knows no game: it only chooses among the actions it is offered. Its
 * choices come from bot_seed (ARENA_BOT_SEED, default 1), so it is
 * deterministic.
 */
#include <stdlib.h>
#include "bot.h"
#include "kv.h"
#include "pcg.h"

int main(void)
{
    uint32_t seed;
    if (bot_seed(&seed) < 0)
        return 2;
    bot_conn *bot = bot_connect("random", "1.0");
    if (!bot)
        return 1;
    /* Seats draw apart: two copies facing each other must not mirror. */
    int64_t seat = 0;
    const char *seat_text = getenv("ARENA_SEAT");
    if (seat_text && kv_i64(seat_text, 0, 63, &seat) < 0)
        seat = 0;
    pcg32 rng;
    pcg32_seed(&rng, seed, 11 + (uint64_t)seat);
    bot_request req;
    while (bot_next(bot, &req) > 0)
        bot_answer(bot, &req, (int)pcg32_below(&rng, (uint32_t)req.nactions));
    return bot_close(bot);
}

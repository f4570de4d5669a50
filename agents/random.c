/*
 * random.c - the random bot: any legal action, uniformly. The baseline
 * every other bot must beat, and a lively test of the referee. Its choices
 * come from ARENA_BOT_SEED (default 1), so it is deterministic.
 */
#include <stdlib.h>
#include "arena_bot.h"
#include "wc_rng.h"

int main(void)
{
    arena_bot *bot = arena_connect("random", "1.0");
    if (!bot)
        return 1;
    const char *seed = getenv("ARENA_BOT_SEED");
    wc_rng rng;
    wc_rng_seed(&rng, seed ? strtoull(seed, NULL, 10) : 1, 11);
    static arena_request req;
    while (arena_next(bot, &req) > 0)
        arena_answer(bot, &req, (int)wc_rng_below(&rng, (uint32_t)req.nactions));
    return arena_close(bot);
}

/*
 * fuzz_worker_job.c - a worker reading a job from the arena's socket
 * (referee/ref_job.c), before it plays anything.
 *
 * Oracle: a job that reads names a registered game, 1 to GAME_MAX_SEATS
 * bots each with a command, and options the game accepts, which format
 * to text that parses again; nothing leaks on any path.
 */
#include <string.h>
#include "fuzz.h"
#include "mps.h"
#include "ref_job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msgpack_unpacked u;
    if (mps_decode((const char *)data, size, &u) < 0)
        return 0;
    ref_job job;
    char err[256];
    if (ref_job_read(&u.data, &job, err, sizeof err) == 0) {
        const ref_config *c = &job.cfg;
        FUZZ_CHECK(c->game && game_find(c->game->name) == c->game);
        FUZZ_CHECK(c->nbots >= 1 && c->nbots <= GAME_MAX_SEATS);
        for (int i = 0; i < c->nbots; i++)
            FUZZ_CHECK(c->bot_cmd[i] && (!c->bot_cwd[i] || c->bot_cwd[i][0]));
        char why[128];
        FUZZ_CHECK(ref_terms_check(&c->terms, why, sizeof why) == 0);
        char text[GAME_OPTIONS_TEXT_MAX + 1];
        game_options_format(c->options, text, sizeof text);
        game_options *again = game_options_new(c->game);
        FUZZ_CHECK(again && game_options_parse(again, text, err, sizeof err) == 0);
        game_options_free(again);
    } else {
        FUZZ_CHECK(err[0]);
    }
    ref_job_free(&job);
    msgpack_unpacked_destroy(&u);
    return 0;
}

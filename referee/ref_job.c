/*
 * ref_job.c - a job from the arena, read and checked (ref_job.h).
 */
#include <stdio.h>
#include <string.h>
#include "mps.h"
#include "ref_job.h"

/* A duration of the job's time map, if it is one; else the default stays. */
static void get_ms(const msgpack_object *job, const char *key, int64_t *dst)
{
    int64_t v;
    if (mps_get_int(mps_get(job, "time"), key, &v) == 0 && v >= 0)
        *dst = v;
}

int ref_job_read(const msgpack_object *job, ref_job *j, char *err, size_t size)
{
    memset(j, 0, sizeof *j);
    ref_config_default(&j->cfg);
    char game_name[32], options_text[GAME_OPTIONS_TEXT_MAX + 1];
    uint64_t seed;
    int64_t v;
    const msgpack_object *bots = mps_get(job, "bots");
    if (mps_get_str(job, "game", game_name, sizeof game_name) < 0 ||
        mps_get_str(job, "options", options_text, sizeof options_text) < 0 ||
        mps_get_u64(job, "seed", &seed) < 0 || !bots || bots->type != MSGPACK_OBJECT_ARRAY ||
        bots->via.array.size < 1 || bots->via.array.size > GAME_MAX_SEATS) {
        snprintf(err, size, "malformed job");
        return -1;
    }
    ref_config *c = &j->cfg;
    if (!(c->game = game_find(game_name))) {
        snprintf(err, size, "unknown game '%s'", game_name);
        return -1;
    }
    c->seed = seed;
    c->nbots = (int)bots->via.array.size;
    for (int i = 0; i < c->nbots; i++) {
        const msgpack_object *b = &bots->via.array.ptr[i];
        if (mps_get_str(b, "cmd", j->cmd[i], sizeof j->cmd[i]) < 0) {
            snprintf(err, size, "malformed job: bot %d has no command", i);
            return -1;
        }
        c->bot_cmd[i] = j->cmd[i];
        /* What the bot's registration names (ref_env.h); absent: nothing. */
        char env[REF_ENV_TEXT], why[256];
        if (mps_get(b, "env") && mps_get_str(b, "env", env, sizeof env) < 0) {
            snprintf(err, size, "malformed job: bot %d's env is not a text under %d bytes", i,
                     REF_ENV_TEXT);
            return -1;
        }
        if (mps_get(b, "env") && ref_env_parse(&j->env[i], env, why, sizeof why) < 0) {
            snprintf(err, size, "malformed job: bot %d: %s", i, why);
            return -1;
        }
        c->bot_env[i] = j->env[i].entry;
        c->bot_cwd[i] = mps_get_str(b, "cwd", j->cwd[i], sizeof j->cwd[i]) == 0 && j->cwd[i][0]
                            ? j->cwd[i] : NULL;
    }
    get_ms(job, "move_ms", &c->move_ms);
    get_ms(job, "bank_ms", &c->bank_ms);
    get_ms(job, "handshake_ms", &c->handshake_ms);
    const msgpack_object *time = mps_get(job, "time");
    char clock[8];
    if (mps_get_str(time, "clock", clock, sizeof clock) == 0 &&
        ref_clock_mode_parse(clock, &c->clock_mode) < 0) {
        snprintf(err, size, "malformed job: clock '%s'", clock);
        return -1;
    }
    if (mps_get_int(time, "ceiling_pct", &v) == 0 && v >= 100 && v <= REF_WALL_CEILING_MAX * 100)
        c->wall_ceiling = (double)v / 100;
    if (mps_get_int(time, "ponder", &v) == 0)
        c->ponder = v != 0;
    if (mps_get_int(job, "strikes", &v) == 0 && v >= 0 && v < 1000)
        c->strikes = (int)v;
    if (mps_get_int(job, "memory_mb", &v) == 0 && v >= 0 && v < ((int64_t)1 << 40))
        c->limits.memory_bytes = (uint64_t)v << 20;
    if (!(j->options = game_options_new(c->game))) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (game_options_parse(j->options, options_text, err, size) < 0)
        return -1;
    c->options = j->options;
    return 0;
}

void ref_job_free(ref_job *j)
{
    game_options_free(j->options);
    j->options = NULL;
    j->cfg.options = NULL;
}

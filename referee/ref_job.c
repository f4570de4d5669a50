/*
 * ref_job.c - a job from the arena, read and checked (ref_job.h).
 */
#include <stdio.h>
#include <string.h>
#include "ref_job.h"

int ref_job_read(const msgpack_object *job, ref_job *j, char *err, size_t size)
{
    memset(j, 0, sizeof *j);
    ref_config_default(&j->cfg);
    ref_link_job *l = &j->link;
    if (ref_link_job_read(job, l, err, size) < 0)
        return -1;
    ref_config *c = &j->cfg;
    if (!(c->game = game_find(l->game))) {
        snprintf(err, size, "unknown game '%s'", l->game);
        return -1;
    }
    c->seed = l->seed;
    c->nbots = l->nbots;
    c->terms = l->terms;
    for (int i = 0; i < c->nbots; i++) {
        char why[256];
        if (ref_env_parse(&j->env[i], l->env[i], why, sizeof why) < 0) {
            snprintf(err, size, "malformed job: bot %d: %s", i, why);
            return -1;
        }
        c->bot_cmd[i] = l->cmd[i];
        c->bot_env[i] = j->env[i].entry;
        c->bot_cwd[i] = l->cwd[i][0] ? l->cwd[i] : NULL;
        c->bot_relay[i] = l->relay[i];
    }
    if (!(j->options = game_options_new(c->game))) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (game_options_parse(j->options, l->options, err, size) < 0)
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

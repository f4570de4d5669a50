/*
 * ref_job.h - a job from the arena, read: the worker link's `job` message
 * (ref_link.h) into the ref_config a match needs.
 *
 * The bytes come over the network from whoever holds the arena's socket,
 * so every field is checked here, apart from the socket loop that
 * receives them and the match that plays them (and fuzzed alone,
 * tests/fuzz/fuzz_worker_job.c).
 */
#ifndef REF_JOB_H
#define REF_JOB_H

#include <msgpack.h>
#include "ref_env.h"
#include "ref_link.h"
#include "ref_match.h"

typedef struct ref_job {
    ref_config    cfg;            /* its pointers point into this job */
    ref_link_job  link;           /* the message read (ref_link.h) */
    game_options *options;
    ref_env       env[GAME_MAX_SEATS];   /* each bot's registered environment */
} ref_job;

/* Reads the job map `job` into *j (ref_link_job_read), then into the config
 * (the config's defaults first, then what the job says). 0, or -1 with err;
 * ref_job_free it either way. The job must not move while its config is
 * used. */
int  ref_job_read(const msgpack_object *job, ref_job *j, char *err, size_t size);
void ref_job_free(ref_job *job);

#endif

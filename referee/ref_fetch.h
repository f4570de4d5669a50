/*
 * ref_fetch.h - a worker's job whose bots are named by hash, run from its
 * cache (ref_cache.h): each missing one asked of the arena over the
 * worker link (`fetch`, answered by `bot`: ref_link.h), the worker
 * waiting for the answer alone (pings ignored) for up to
 * REF_FETCH_WAIT_MS.
 */
#ifndef REF_FETCH_H
#define REF_FETCH_H

#include <msgpack.h>
#include <zmq.h>
#include "ref_cache.h"
#include "ref_job.h"

#define REF_FETCH_WAIT_MS 120000

/* Jobs the arena sent while a bot was fetched, for the worker's loop to
 * start after (a worker of capacity N holds at most N: 64 is enough). */
#define REF_FETCH_HELD 64
typedef struct ref_fetch_held {
    zmq_msg_t msg[REF_FETCH_HELD];
    int       n;
} ref_fetch_held;

/* Points each hashed bot of `job` at its verified cached folder (its cwd),
 * fetching it over `sock` when missing or changed (NULL: from the cache
 * only; a missing or changed copy is an error); a job message that arrives
 * meanwhile waits in `held`. `verified`: the worker checked these very
 * copies (this call, with sock) just before it forked this match's
 * process: they are found, not hashed again (ref_cache_verified). The
 * caller trims the cache (ref_cache_trim). 0; -1 with err (the job cannot
 * be played); -2 when the arena said stop meanwhile. */
int ref_fetch_job_bots(ref_cache *c, void *sock, msgpack_sbuffer *sb, ref_fetch_held *held,
                       int verified, ref_job *job, char *err, size_t size);

#endif

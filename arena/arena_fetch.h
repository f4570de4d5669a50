/*
 * arena_fetch.h - a worker's `fetch` of a bot's files, answered from the
 * store (the worker link: ref_link.h).
 *
 * A job names each submitted bot by its content hash; a worker that does
 * not hold those files asks for them. The arena answers only for the
 * bots of the match it gave that worker, reads them from the bot's stored
 * folder (the job's cwd, DB.store/HASH), checks that they still hash to
 * their name, and sends them packed as a .tar.gz (store_pack: the same
 * files pack the same bytes). The last few archives are kept in memory,
 * so ten workers starting on a new bot cost one packing.
 */
#ifndef ARENA_FETCH_H
#define ARENA_FETCH_H

#include <msgpack.h>
#include "ref_link.h"

#define ARENA_FETCH_KEEP 4              /* archives kept in memory for the next worker */
#define ARENA_FETCH_MAX_FILES 1000000   /* a stored bot's entries served, at most */
#define ARENA_FETCH_PER_BOT 2           /* sent per bot of a match: its copy may change once */

typedef struct arena_fetch arena_fetch;

arena_fetch *arena_fetch_new(void);     /* NULL: out of memory */
void arena_fetch_free(arena_fetch *f);

/* Answers the fetch message `m` of the worker named `who` (for the log),
 * whose match is `job` (NULL: it holds none): a `bot` message into sb,
 * with the archive, or with why not (a hash not among the job's bots, a
 * stored folder gone or changed, too large, or more than ARENA_FETCH_PER_BOT
 * fetches a bot of this match, counted in *served). 0 served, -1 refused
 * (logged). */
int arena_fetch_answer(arena_fetch *f, const ref_link_job *job, const msgpack_object *m,
                       const char *who, int *served, msgpack_sbuffer *sb);

#endif

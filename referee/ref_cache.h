/*
 * ref_cache.h - a worker's cache of bots' files by content hash
 * (`referee worker --cache DIR --cache-mb N`).
 *
 * A job names each submitted bot by the hash of its files (store.h). A
 * worker on another machine has none of them: it asks the arena (the
 * worker link's `fetch`), checks that the archive it gets hashes to the
 * name before anything is written (store_read_archive + store_tree_hash,
 * the store's one canonical hash), and writes it into DIR/HASH read-only
 * (store_put). A copy is read and hashed again before each match (once,
 * by the worker: the match's own process, forked right after, trusts that
 * check): one whose files changed (by hand, or by a bot run without the
 * sandbox) is removed, said so in the log, and fetched again, so a changed
 * copy is never run.
 * Entries are used most recently first: each use touches its folder's
 * time, and the least recently used go once the cache is over its size.
 * One cache per worker: a worker may evict an entry another is running.
 */
#ifndef REF_CACHE_H
#define REF_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define REF_CACHE_DEFAULT_MB 1024
#define REF_CACHE_MAX_FILES  1000000    /* a fetched bot's entries, at most */

typedef struct ref_cache {
    char     dir[256];                 /* absolute */
    uint64_t max_bytes;                /* the files' sizes it holds, at most */
} ref_cache;

/* Gets the archive of `hash` (a .tar.gz, *buf malloc'ed): 0, or -1 with err. */
typedef int ref_cache_fetch_fn(void *ctx, const char *hash, void **buf, size_t *len, char *err,
                               size_t size);

/* Makes (if need be) and opens the cache at dir, of at most mb MB, and
 * removes what a killed worker left half-written there. 0, or -1 with err. */
int ref_cache_open(ref_cache *c, const char *dir, int64_t mb, char *err, size_t size);
/* The verified folder of `hash` into path: the cached copy when its files
 * still hash to it, else fetched (and checked, and written read-only).
 * 0, or -1 with err (nothing unverified is left in the cache). */
int ref_cache_get(ref_cache *c, const char *hash, ref_cache_fetch_fn *fetch, void *ctx,
                  char *path, size_t path_size, char *err, size_t size);
/* The folder of `hash` into path without reading it: only for a copy that
 * ref_cache_get verified just before, in this process or the one that
 * forked it for the match (so a match hashes each bot once). 0 when the
 * folder is there, else -1 with err. */
int ref_cache_verified(const ref_cache *c, const char *hash, char *path, size_t path_size,
                       char *err, size_t size);
/* Removes the least recently used entries until the cache is within its
 * size, never those in keep (n hashes). */
void ref_cache_trim(const ref_cache *c, const char *const *keep, int n);

#endif

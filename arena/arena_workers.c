/*
 * arena_workers.c - the database's workers and a running pool
 * (arena_workers.h).
 */
#include <stdlib.h>
#include "arena_workers.h"
#include "zauth.h"

static void seen(void *ctx, const char *key, int64_t heard_ms, int played)
{
    arena_db_worker_seen(ctx, key, heard_ms, played);
}

int arena_workers_sync(arena_db *db, arena_pool *pool)
{
    arena_worker_row *rows;
    int n = arena_db_worker_list(db, &rows);
    if (n < 0)
        return -1;
    zauth_key *keys = malloc(((size_t)n + 1) * sizeof *keys);
    int nkeys = 0, rc = -1;
    for (int i = 0; keys && i < n; i++)
        if (!rows[i].revoked_ms && zauth_key_parse(rows[i].key, keys[nkeys]) == 0)
            nkeys++;
    if (keys)
        rc = arena_pool_admit(pool, keys, nkeys);
    free(keys);
    free(rows);
    arena_pool_activity(pool, seen, db);
    return rc;
}

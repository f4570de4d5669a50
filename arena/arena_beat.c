/*
 * arena_beat.c - a running arena's row in arena_runs (arena_beat.h).
 * Failures to write it are not the arena's: the row is for people, and a
 * busy database has the next beat.
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include "arena_beat.h"
#include "arena_workers.h"
#include "clk.h"

int64_t arena_owner_new(void)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, 0) != sizeof r)
        r = (uint64_t)getpid() << 32 ^ (uint64_t)clk_mono_us();
    r &= INT64_MAX;
    return r ? (int64_t)r : 1;
}

static void write_row(arena_beat *b, arena_db *db, const arena_pool *pool)
{
    b->row.workers = pool ? arena_pool_workers(pool) : 0;
    b->row.taken = pool ? arena_pool_pending(pool) : 0;
    snprintf(b->row.listening, sizeof b->row.listening, "%s",
             pool ? arena_pool_listening(pool) : "");
    b->row.seen_ms = clk_wall_ms();
    b->seen_mono_ms = clk_mono_ms();
    arena_db_run_seen(db, &b->row);
}

void arena_beat_start(arena_beat *b, arena_db *db, int64_t owner, int64_t tournament_id,
                      int64_t ladder_id, arena_pool *pool)
{
    memset(b, 0, sizeof *b);
    b->row.owner = owner;
    b->row.tournament_id = tournament_id;
    b->row.ladder_id = ladder_id;
    if (gethostname(b->row.host, sizeof b->row.host - 1) != 0)
        snprintf(b->row.host, sizeof b->row.host, "?");
    b->row.pid = getpid();
    b->row.started_ms = clk_wall_ms();
    arena_db_runs_forget(db, b->row.started_ms - ARENA_FORGET_MS);
    if (pool)
        arena_workers_sync(db, pool);
    write_row(b, db, pool);
}

int arena_beat_tick(arena_beat *b, arena_db *db, arena_pool *pool)
{
    int due = clk_mono_ms() - b->seen_mono_ms >= ARENA_BEAT_MS;
    if (due && pool)
        arena_workers_sync(db, pool);     /* workers added or revoked meanwhile */
    /* Workers joining or leaving show at once: they are what people watch. */
    if (due || (pool && arena_pool_workers(pool) != b->row.workers))
        write_row(b, db, pool);
    return due;
}

void arena_beat_stop(arena_beat *b, arena_db *db, arena_pool *pool)
{
    if (pool && b->row.owner)
        arena_workers_sync(db, pool);
    if (b->row.owner)
        arena_db_run_end(db, b->row.owner);
    b->row.owner = 0;
}

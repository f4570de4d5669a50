/*
 * arena_beat.c - a running arena's row in arena_runs (arena_beat.h).
 * Failures to write it are not the arena's: the row is for people, and a
 * busy database has the next beat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include "arena_beat.h"
#include "arena_db_playing.h"
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

/* The matches in play, as the pool has them, gathered for their rows. */
typedef struct playing_rows {
    arena_playing *row;
    int n, cap, failed;
} playing_rows;

static void add_playing(void *ctx, const arena_job *job, int64_t handed_ms, const char *record)
{
    playing_rows *r = ctx;
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        arena_playing *row = realloc(r->row, (size_t)cap * sizeof *row);
        if (!row) {
            r->failed = 1;
            return;
        }
        r->row = row, r->cap = cap;
    }
    arena_playing *p = &r->row[r->n++];
    memset(p, 0, sizeof *p);
    p->job = job->id;
    snprintf(p->game, sizeof p->game, "%s", job->game);
    p->options = (char *)job->options;    /* read while the pool stands still */
    p->seed = job->seed;
    p->seats = job->nbots < ARENA_MAX_SEATS ? job->nbots : ARENA_MAX_SEATS;
    memcpy(p->bot, job->bot_id, (size_t)p->seats * sizeof p->bot[0]);
    p->started_ms = handed_ms;
    p->record = (char *)record;
}

/* The rows of the matches in play (arena_db_playing.h): what the web
 * follows. With no pool: none, and the arena's last ones marked stored. */
static void write_playing(arena_beat *b, arena_db *db, const arena_pool *pool)
{
    playing_rows r = { 0 };
    char err[256];
    if (pool)
        arena_pool_playing(pool, add_playing, &r);
    if (!r.failed && arena_db_playing_sync(db, b->row.owner, b->row.tournament_id,
                                           b->row.ladder_id, r.row, r.n, clk_wall_ms(), err,
                                           sizeof err) != 0 && !b->playing_failed) {
        fprintf(stderr, "arena: %s (the web shows no matches in play)\n", err);
        b->playing_failed = 1;            /* said once: the matches go on regardless */
    }
    free(r.row);
}

int arena_beat_tick(arena_beat *b, arena_db *db, arena_pool *pool)
{
    int due = clk_mono_ms() - b->seen_mono_ms >= ARENA_BEAT_MS;
    if (due && pool)
        arena_workers_sync(db, pool);     /* workers added or revoked meanwhile */
    /* Workers joining or leaving show at once: they are what people watch. */
    if (due || (pool && arena_pool_workers(pool) != b->row.workers))
        write_row(b, db, pool);
    if (due)
        write_playing(b, db, pool);
    return due;
}

void arena_beat_stop(arena_beat *b, arena_db *db, arena_pool *pool)
{
    if (pool && b->row.owner)
        arena_workers_sync(db, pool);
    if (b->row.owner) {
        write_playing(b, db, NULL);       /* the last stored are named, the rest wait */
        arena_db_run_end(db, b->row.owner);
    }
    b->row.owner = 0;
}

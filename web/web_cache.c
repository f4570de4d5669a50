/*
 * web_cache.c - reports for the web (standings and crosstables, computed
 * by the arena's own reports, arena_report.c; the bots beside them), kept
 * until matches change. Which reports there are is the caller's
 * (web_api.c): each is a function that writes its JSON.
 *
 * A report reads every match of its kind and fits ratings: seconds at a
 * million matches, far too slow per request. So each (report, filter)
 * keeps its last JSON, stamped with the newest match id it saw and the
 * time its computation began (its snapshot). A request whose newest match
 * is the stamp gets it at once. One that finds the stamp old gets the
 * last JSON at once too while it is at most MAX_AGE_MS old, and starts one
 * refresh in the background (its own read-only connection), no more often
 * than twice the time the last refresh took; an answer older than that
 * waits for a refresh (its own, on its own snapshot, unless one is under
 * way): no page is ever shown standings more than 5 s stale. A `timed`
 * report (the bots beside the standings: labels, status, last active, a
 * lookup per bot) is cached the same way, but on time alone, as it
 * changes without a match (a trial passed, a bot disabled).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena_read.h"
#include "clk.h"
#include "web_internal.h"

#define ENTRIES 64
#define MIN_INTERVAL_MS 2000
#define MAX_AGE_MS 5000           /* older than this, an answer waits for its refresh */

typedef struct entry {
    int used, computing;
    int waiting;              /* requests waiting for its first JSON: never evicted */
    const web_report *what;
    arena_match_filter f;
    int64_t stamp;            /* newest match id the JSON saw */
    int64_t snap_ms;          /* when its computation began (monotonic) */
    int64_t snap_wall_ms;     /* the same, Unix time: the answer's "as of" */
    int64_t computed_ms, took_ms, asked_ms;
    char *json;               /* NULL until the first computation ends */
    int status;               /* 0, or the error's HTTP status */
    char error[256];
} entry;

struct web_cache {
    pthread_mutex_t mu;
    pthread_cond_t cv;        /* a computation ended */
    int refreshing;           /* background threads alive */
    char db_path[1024];
    entry e[ENTRIES];
};

web_cache *web_cache_new(const char *db_path)
{
    web_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    snprintf(c->db_path, sizeof c->db_path, "%s", db_path);
    return c;
}

void web_cache_free(web_cache *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    while (c->refreshing)
        pthread_cond_wait(&c->cv, &c->mu);
    pthread_mutex_unlock(&c->mu);
    for (int i = 0; i < ENTRIES; i++)
        free(c->e[i].json);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* Runs the report on db (no lock held) into the entry's fields. */
static void compute(web_cache *c, entry *e, arena_db *db, int64_t stamp)
{
    char *buf = NULL, err[256] = "";
    size_t n = 0;
    int64_t t0 = clk_mono_ms(), wall0 = clk_wall_ms();
    FILE *out = open_memstream(&buf, &n);
    int rc = -1;
    if (out) {
        rc = e->what->fn(db, &e->f, out, err, sizeof err);
        fclose(out);
    }
    pthread_mutex_lock(&c->mu);
    free(e->json);
    e->json = rc == 0 ? buf : NULL;
    if (rc != 0)
        free(buf);
    e->status = rc == 0 ? 0 : out ? 400 : 503;
    snprintf(e->error, sizeof e->error, "%s", rc == 0 ? "" : *err ? err : "out of memory");
    if (rc != 0 && !e->json)
        e->json = strdup("");          /* an answer, even if an error: do not recompute at once */
    e->stamp = stamp;
    e->snap_ms = t0;
    e->snap_wall_ms = wall0;
    e->computed_ms = clk_mono_ms();
    e->took_ms = e->computed_ms - t0;
    e->computing = 0;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

typedef struct refresh { web_cache *c; entry *e; int64_t stamp; } refresh;

static void *refresh_main(void *arg)
{
    refresh job = *(refresh *)arg;
    free(arg);
    arena_db *db;
    char err[256];
    if (arena_db_open_readonly(&db, job.c->db_path, err, sizeof err) == 0) {
        compute(job.c, job.e, db, job.stamp);
        arena_db_close(db);
    } else {
        pthread_mutex_lock(&job.c->mu);
        job.e->computing = 0;
        pthread_mutex_unlock(&job.c->mu);
    }
    pthread_mutex_lock(&job.c->mu);
    job.c->refreshing--;
    pthread_cond_broadcast(&job.c->cv);
    pthread_mutex_unlock(&job.c->mu);
    return NULL;
}

/* With the lock held: starts a background refresh of e. */
static void start_refresh(web_cache *c, entry *e, int64_t stamp)
{
    refresh *job = malloc(sizeof *job);
    pthread_t t;
    pthread_attr_t attr;
    if (!job)
        return;
    *job = (refresh){ c, e, stamp };
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, refresh_main, job) == 0) {
        e->computing = 1;
        c->refreshing++;
    } else {
        free(job);
    }
    pthread_attr_destroy(&attr);
}

/* With the lock held: the entry for (what, f), found or made (evicting the
 * one asked for least recently among those not computing), or NULL. */
static entry *slot(web_cache *c, const web_report *what, const arena_match_filter *f)
{
    entry *victim = NULL;
    for (int i = 0; i < ENTRIES; i++) {
        entry *e = &c->e[i];
        if (e->used && e->what == what && e->f.tournament_id == f->tournament_id &&
            e->f.ladder_id == f->ladder_id && e->f.seats == f->seats && !strcmp(e->f.game, f->game))
            return e;
        if (!e->computing && !e->waiting && (!victim || !e->used || (victim->used && e->asked_ms < victim->asked_ms)))
            victim = victim && !victim->used ? victim : e;
    }
    if (!victim)
        return NULL;
    free(victim->json);
    memset(victim, 0, sizeof *victim);
    victim->used = 1;
    victim->what = what;
    victim->f = *f;
    return victim;
}

int web_cache_get(web_cache *c, web_req *r, const web_report *what, const arena_match_filter *f)
{
    int64_t stamp = arena_read_newest(r->db);
    if (stamp < 0)
        return web_fail(r, 503, "cannot read the matches");
    pthread_mutex_lock(&c->mu);
    entry *e = slot(c, what, f);
    if (!e) {
        pthread_mutex_unlock(&c->mu);
        return web_fail(r, 503, "too many reports being computed at once");
    }
    int64_t now = clk_mono_ms();
    e->asked_ms = now;
    e->waiting++;
    /* current: nothing has changed since (timed: never known), or recent */
    while (!e->json || ((e->stamp != stamp || what->timed) && e->snap_ms < now - MAX_AGE_MS)) {
        if (e->computing) {
            pthread_cond_wait(&c->cv, &c->mu);
            continue;
        }
        e->computing = 1;
        pthread_mutex_unlock(&c->mu);
        compute(c, e, r->db, stamp);
        pthread_mutex_lock(&c->mu);
    }
    e->waiting--;
    int64_t wait = e->took_ms * 2 > MIN_INTERVAL_MS ? e->took_ms * 2 : MIN_INTERVAL_MS;
    if ((e->stamp != stamp || what->timed) && !e->computing && now - e->computed_ms >= wait)
        start_refresh(c, e, stamp);
    /* as of: now when no match has landed since (timed: when it was read) */
    int64_t as_of = e->stamp == stamp && !what->timed ? clk_wall_ms() : e->snap_wall_ms;
    if (!r->as_of_ms || as_of < r->as_of_ms)
        r->as_of_ms = as_of;
    int rc = 0;
    if (e->status)
        rc = web_fail(r, e->status, "%s", e->error);
    else
        jw_raw(&r->out, e->json, strlen(e->json));
    pthread_mutex_unlock(&c->mu);
    return rc;
}

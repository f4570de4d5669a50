/*
 * web_readers.c - the read-only database handles of `arena serve`, lent to
 * one request at a time.
 *
 * civetweb holds a thread per open connection, and there are hundreds of
 * them so that idle visitors cost nothing; a SQLite handle each (its page
 * cache, its prepared statements) would cost megabytes a thread. So the
 * handles are a pool of at most `max`, opened on first need and kept: a
 * request borrows one for its read transaction and gives it back; when
 * all are lent, it waits for one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "web_internal.h"

struct web_readers {
    pthread_mutex_t mu;
    pthread_cond_t cv;        /* a handle came back */
    char db_path[1024];
    int max, opened, idle;    /* opened: alive; idle: of them, in free[] */
    arena_db **free;
};

web_readers *web_readers_new(const char *db_path, int max)
{
    web_readers *p = calloc(1, sizeof *p);
    // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers, sized as one
    if (!p || max < 1 || !(p->free = calloc((size_t)max, sizeof *p->free))) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    snprintf(p->db_path, sizeof p->db_path, "%s", db_path);
    p->max = max;
    return p;
}

void web_readers_free(web_readers *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->idle; i++)
        arena_db_close(p->free[i]);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->free);
    free(p);
}

int web_readers_take(web_readers *p, arena_db **out, char *err, size_t size)
{
    pthread_mutex_lock(&p->mu);
    while (!p->idle && p->opened >= p->max)
        pthread_cond_wait(&p->cv, &p->mu);
    if (p->idle) {
        *out = p->free[--p->idle];
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    p->opened++;              /* a place taken while opening, outside the lock */
    pthread_mutex_unlock(&p->mu);
    if (arena_db_open_readonly(out, p->db_path, err, size) == 0)
        return 0;
    pthread_mutex_lock(&p->mu);
    p->opened--;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return -1;
}

void web_readers_give(web_readers *p, arena_db *db)
{
    pthread_mutex_lock(&p->mu);
    p->free[p->idle++] = db;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

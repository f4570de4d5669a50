/*
 * ref_fetch.c - a job's bots by hash, from the worker's cache or fetched
 * from the arena over the worker link (ref_fetch.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "clk.h"
#include "mps.h"
#include "ref_fetch.h"

typedef struct link_ctx {
    void            *sock;
    msgpack_sbuffer *sb;
    ref_fetch_held  *held;         /* where jobs sent meanwhile wait */
    int64_t          id;           /* the job's */
    int              stopped;      /* the arena said stop while we waited */
} link_ctx;

/* A job the arena sent while we waited (a worker of capacity above 1 is
 * sent several): kept for the worker's loop, never dropped unsaid. */
static void hold(link_ctx *l, zmq_msg_t *m)
{
    if (l->held && l->held->n < REF_FETCH_HELD) {
        zmq_msg_init(&l->held->msg[l->held->n]);
        zmq_msg_move(&l->held->msg[l->held->n++], m);
    } else {
        fprintf(stderr, "referee worker: a job sent while a bot was fetched dropped: more "
                "than %d waiting\n", REF_FETCH_HELD);
    }
}

/* One message's answer to our fetch: 1 taken (buf set, or err), 0 not
 * one (a ping: ignored). */
static int take_answer(link_ctx *l, const msgpack_object *m, const char *hash, void **buf,
                       size_t *len, char *err, size_t size)
{
    char type[16] = "";
    mps_get_str(m, "type", type, sizeof type);
    if (!strcmp(type, "stop")) {
        l->stopped = 1;
        snprintf(err, size, "the arena said stop while this worker fetched a bot");
        return 1;
    }
    ref_link_bot b;
    if (strcmp(type, REF_LINK_BOT) || ref_link_bot_read(m, &b) < 0 || b.id != l->id ||
        strcmp(b.hash, hash) != 0)
        return 0;                      /* a ping, or an answer to an earlier fetch */
    if (!b.archive) {
        snprintf(err, size, "the arena refused to send bot %.12s...: %s", hash, b.error);
        return 1;
    }
    if (!(*buf = malloc(b.len ? b.len : 1))) {
        snprintf(err, size, "out of memory");
        return 1;
    }
    memcpy(*buf, b.archive, b.len);
    *len = b.len;
    return 1;
}

/* ref_cache_fetch_fn over the link: asks, then waits for the answer. */
static int fetch_over_link(void *ctx, const char *hash, void **buf, size_t *len, char *err,
                           size_t size)
{
    link_ctx *l = ctx;
    *buf = NULL;
    err[0] = 0;
    if (!l->sock) {
        snprintf(err, size, "bot %.12s... is not in the cache (or its copy changed)", hash);
        return -1;
    }
    l->sb->size = 0;
    ref_link_fetch_pack(l->sb, l->id, hash);
    if (zmq_send(l->sock, l->sb->data, l->sb->size, 0) < 0) {
        snprintf(err, size, "cannot ask the arena for bot %.12s...: %s", hash,
                 zmq_strerror(errno));
        return -1;
    }
    int64_t deadline = clk_mono_ms() + REF_FETCH_WAIT_MS;
    while (!*buf && !err[0] && clk_mono_ms() < deadline) {
        zmq_pollitem_t item = { l->sock, 0, ZMQ_POLLIN, 0 };
        if (zmq_poll(&item, 1, (long)(deadline - clk_mono_ms())) <= 0 ||
            !(item.revents & ZMQ_POLLIN))
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        msgpack_unpacked msg;
        if (zmq_msg_recv(&m, l->sock, 0) >= 0 &&
            mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &msg) == 0) {
            char type[16] = "";
            mps_get_str(&msg.data, "type", type, sizeof type);
            if (!strcmp(type, "job"))
                hold(l, &m);
            else
                take_answer(l, &msg.data, hash, buf, len, err, size);
            msgpack_unpacked_destroy(&msg);
        }
        zmq_msg_close(&m);
    }
    if (!*buf && !err[0])
        snprintf(err, size, "the arena did not send bot %.12s... within %d s", hash,
                 REF_FETCH_WAIT_MS / 1000);
    return *buf ? 0 : -1;
}

int ref_fetch_job_bots(ref_cache *c, void *sock, msgpack_sbuffer *sb, ref_fetch_held *held,
                       int verified, ref_job *job, char *err, size_t size)
{
    ref_link_job *l = &job->link;
    link_ctx ctx = { .sock = sock, .sb = sb, .held = held, .id = l->id };
    for (int i = 0; i < l->nbots; i++) {
        if (!l->hash[i][0])
            continue;                  /* a bot by path: as the job says */
        char why[400];
        int got = verified ? ref_cache_verified(c, l->hash[i], l->cwd[i], sizeof l->cwd[i],
                                                why, sizeof why)
                           : ref_cache_get(c, l->hash[i], fetch_over_link, &ctx, l->cwd[i],
                                           sizeof l->cwd[i], why, sizeof why);
        if (got < 0) {
            snprintf(err, size, "bot %d's files: %s", i, why);
            return ctx.stopped ? -2 : -1;
        }
        job->cfg.bot_cwd[i] = l->cwd[i];
    }
    return 0;
}

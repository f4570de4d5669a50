/*
 * arena_pool.c - the worker pool: a ROUTER socket, local worker processes,
 * a job queue, and the bookkeeping that re-queues a dead worker's job.
 *
 * A worker is lost when its process exits (local ones: waitpid) or when
 * its connection goes away (any worker: the ROUTER drops the peer, on a
 * closed socket at once, on silence after the heartbeat timeout). A worker
 * holds up to its capacity of jobs at once (what it said at ready), each
 * result matched to its job by id; all of a lost worker's go back. The
 * ROUTER is "mandatory", so a send to a dropped peer fails: every busy
 * worker is probed with a `ping` each second. A lost remote worker's match
 * goes back in the queue; a lost local one is killed, and once reaped its
 * match goes back in the queue too, unless local workers died on it
 * ARENA_POOL_DEATHS times: then it is judged (died(), judged()), the seat
 * its last worker blamed (ref_blame.h) forfeiting when there is one. A
 * late result from a worker that was given up comes on a new connection,
 * unknown here, and is dropped. Which workers may join at all (their
 * keys, their link protocol): arena_pool_admit.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>
#include "arena_fetch.h"
#include "arena_pool.h"
#include "arena_pool_internal.h"
#include "clk.h"
#include "mps.h"
#include "ref_blame.h"
#include "ref_dir.h"
#include "ref_ready.h"
#include "ref_worker.h"
#include "mpw.h"

#define PROBE_MS 1000             /* how often busy workers are probed */

/* The k-th CPU (cyclically) of those this process may use, as a set. */
static void kth_cpu(int k, cpu_set_t *one)
{
    cpu_set_t all;
    CPU_ZERO(one);
    if (sched_getaffinity(0, sizeof all, &all) != 0 || CPU_COUNT(&all) == 0)
        return;
    k %= CPU_COUNT(&all);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all) && k-- == 0) {
            CPU_SET(c, one);
            return;
        }
}

static int start_local(arena_pool *p, char *err, size_t size)
{
    char parent[32];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, size, "cannot start a worker: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setenv("ARENA_WORKER_PARENT", parent, 1);
        if (p->affinity) {
            /* The worker's referee and bots inherit it. */
            cpu_set_t one;
            kth_cpu(p->nlocal, &one);
            if (CPU_COUNT(&one))
                sched_setaffinity(0, sizeof one, &one);
        }
        if (p->sandbox[0])
            execl(p->referee, p->referee, "worker", "--connect", p->endpoint, "--sandbox",
                  p->sandbox, (char *)NULL);
        else
            execl(p->referee, p->referee, "worker", "--connect", p->endpoint, (char *)NULL);
        fprintf(stderr, "arena: cannot run %s: %s\n", p->referee, strerror(errno));
        _exit(127);
    }
    p->local[p->nlocal++] = pid;
    return 0;
}

arena_pool *arena_pool_start(int nworkers, int affinity, const char *referee, const char *sandbox,
                             const arena_remote *remote, char *err, size_t size)
{
    const char *listen = remote ? remote->listen : NULL;
    if (access(referee, X_OK) != 0) {
        snprintf(err, size, "cannot run the referee at %s (build it, or give --referee PATH)",
                 referee);
        return NULL;
    }
    if (nworkers < 0 || nworkers > MAX_WORKERS / 2 || (nworkers == 0 && !listen)) {
        snprintf(err, size, "concurrency must be from 1 to %d (0 only with remote workers)",
                 MAX_WORKERS / 2);
        return NULL;
    }
    arena_pool *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, size, "out of memory");
        return NULL;
    }
    msgpack_sbuffer_init(&p->sb);
    p->affinity = affinity;
    snprintf(p->referee, sizeof p->referee, "%s", referee);
    snprintf(p->sandbox, sizeof p->sandbox, "%s", sandbox ? sandbox : "");
    p->dir.lock_fd = -1;
    if (ref_dir_make(&p->dir, err, size) < 0)
        goto fail;
    snprintf(p->endpoint, sizeof p->endpoint, "ipc://%s/workers", p->dir.path);
    p->ctx = zmq_ctx_new();
    p->sock = zmq_socket(p->ctx, ZMQ_ROUTER);
    int linger = 0, ivl = 2000, timeout = 10000, mandatory = 1;
    int64_t max = 256 << 20;    /* records are text; the longest games stay far below */
    zmq_setsockopt(p->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(p->sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(p->sock, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(p->sock, ZMQ_HEARTBEAT_TIMEOUT, &timeout, sizeof timeout);
    zmq_setsockopt(p->sock, ZMQ_ROUTER_MANDATORY, &mandatory, sizeof mandatory);
    if (zmq_bind(p->sock, p->endpoint) < 0) {
        snprintf(err, size, "cannot bind %s: %s", p->endpoint, zmq_strerror(errno));
        goto fail;
    }
    if (listen && apool_curve_start(p, remote, err, size) < 0)
        goto fail;
    if (listen && zmq_bind(p->sock, listen) < 0) {
        snprintf(err, size, "cannot listen on %s: %s", listen, zmq_strerror(errno));
        goto fail;
    }
    if (listen) {
        size_t len = sizeof p->listening;
        zmq_getsockopt(p->sock, ZMQ_LAST_ENDPOINT, p->listening, &len);
    }
    for (int i = 0; i < nworkers; i++)
        if (start_local(p, err, size) < 0)
            goto fail;
    return p;
fail:
    arena_pool_stop(p);
    return NULL;
}

int arena_pool_submit(arena_pool *p, const arena_job *job)
{
    /* A returned job's slot takes the next one: the table stays as large
     * as the most jobs ever pending at once, whatever the tournament's size. */
    int j = 0;
    while (j < p->njobs && p->slot[j].state != RETURNED)
        j++;
    if (j == p->njobs && p->njobs == p->capacity) {
        int cap = p->capacity ? 2 * p->capacity : 256;
        arena_job *jobs = realloc(p->jobs, (size_t)cap * sizeof *jobs);
        if (!jobs)
            return -1;
        p->jobs = jobs;
        job_slot *slots = realloc(p->slot, (size_t)cap * sizeof *slots);
        if (!slots)
            return -1;
        p->slot = slots;
        p->capacity = cap;
    }
    if (j == p->njobs)
        p->slot[p->njobs++].progress = NULL;
    free(p->slot[j].progress);
    p->jobs[j] = *job;
    p->slot[j] = (job_slot){ .state = QUEUED, .suspect = -1, .avoid = -1 };
    p->pending++;
    return 0;
}

/* A worker is lost. A remote one's match goes back in the queue: its
 * machine or its network failed, not the match. A local one's match is
 * held until its process is reaped (it is killed now if it still runs),
 * and then counted as a death of that match (died()). */
void apool_lose(arena_pool *p, worker *w, const char *why)
{
    if (w->gone)
        return;
    w->gone = 1;
    if (w->nbusy && w->pid) {
        for (int b = 0; b < w->nbusy; b++)
            fprintf(stderr, "arena: %s while playing match %" PRId64 "\n", why,
                    p->jobs[w->busy[b]].id + 1);
        kill(w->pid, SIGKILL);
        return;
    }
    for (int b = 0; b < w->nbusy; b++) {
        p->slot[w->busy[b]].state = QUEUED;
        fprintf(stderr, "arena: %s; match %" PRId64 " goes to another worker\n", why,
                p->jobs[w->busy[b]].id + 1);
    }
    w->nbusy = 0;
}

/* The last words of local worker `pid`, reaped while it held job j: the
 * seat whose connections filled its referee's file table (ref_blame.h). */
static void take_blame(arena_pool *p, int j, pid_t pid)
{
    int64_t id;
    int seat, connections;
    if (ref_blame_read(p->dir.path, pid, &id, &seat, &connections) != 1 ||
        id != p->jobs[j].id || seat >= p->jobs[j].nbots)
        return;
    p->slot[j].suspect = seat;
    snprintf(p->slot[j].suspect_why, sizeof p->slot[j].suspect_why,
             "held %d connections to its seat's socket when it aborted", connections);
}

/* A local worker's process ended (waitpid `status`) while it held job j:
 * the match is played again elsewhere, unless local workers died on it
 * ARENA_POOL_DEATHS times: then it is judged without being played again
 * (arena_pool_next returns its verdict), for a match that kills its
 * referee would otherwise kill every worker in turn, for ever. */
static void died(arena_pool *p, int j, int status)
{
    job_slot *s = &p->slot[j];
    s->deaths++;
    s->status = status;
    s->state = s->deaths >= ARENA_POOL_DEATHS ? JUDGED : QUEUED;
    if (s->state == QUEUED)
        fprintf(stderr, "arena: match %" PRId64 " goes to another worker\n", p->jobs[j].id + 1);
    else
        fprintf(stderr, "arena: match %" PRId64 " killed %d workers: it is judged, not played "
                "again\n", p->jobs[j].id + 1, s->deaths);
}

/* Sends p->sb to a worker: 0, or -1 (a peer that is gone is marked so). */
int apool_send(arena_pool *p, worker *w)
{
    if (zmq_send(p->sock, w->identity, w->identity_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0) {
        if (errno == EHOSTUNREACH)
            apool_lose(p, w, w->pid ? "a worker disconnected" : "a remote worker went away");
        return -1;
    }
    return zmq_send(p->sock, p->sb.data, p->sb.size, ZMQ_DONTWAIT) < 0 ? -1 : 0;
}

static void pack_type(arena_pool *p, const char *type)
{
    msgpack_packer pk;
    p->sb.size = 0;
    msgpack_packer_init(&pk, &p->sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 1);
    mpw_str(&pk, "type");
    mpw_str(&pk, type);
}

/* How the log names a worker: its slot, pid and address. */
void apool_worker_name(const worker *w, int slot, char *buf, size_t size)
{
    snprintf(buf, size, "worker %d (%s pid %" PRId64 "%s%s)", slot + 1,
             w->pid ? "local" : "remote", w->said_pid, w->peer[0] ? " at " : "", w->peer);
}

/* Each second, a ping to every busy worker: the send fails once the
 * ROUTER has dropped the peer, and apool_lose() hands its match out again. */
static void probe(arena_pool *p)
{
    int64_t now = clk_mono_ms();
    if (now - p->probed_ms < PROBE_MS)
        return;
    p->probed_ms = now;
    pack_type(p, "ping");
    for (int i = 0; i < p->nworkers; i++)
        if (!p->workers[i].gone && p->workers[i].nbusy)
            apool_send(p, &p->workers[i]);
}

static void send_job(arena_pool *p, worker *w, int j)
{
    p->sb.size = 0;
    ref_link_job_pack(&p->sb, &p->jobs[j]);
    if (apool_send(p, w) == 0) {
        w->fetched[w->nbusy] = 0;
        w->busy[w->nbusy++] = j;
        p->slot[j].state = RUNNING;
        p->slot[j].handed_ms = clk_wall_ms();
        free(p->slot[j].progress);        /* a match played again starts again */
        p->slot[j].progress = NULL;
    }
}

int arena_job_relays(const arena_job *job)
{
    for (int i = 0; i < job->nbots; i++)
        if (job->relay[i])
            return 1;
    return 0;
}

/* The queued job submitted first (the lowest id: ids follow the plan, and
 * a lost worker's job goes first again) that worker slot `w` may play (of
 * a game it said it plays, not one whose result it sent was refused, and
 * a remote bot's match only if it is a local worker); -1 if none is
 * queued. */
static int oldest_queued(const arena_pool *p, int w)
{
    int best = -1;
    for (int j = 0; j < p->njobs; j++)
        if (p->slot[j].state == QUEUED && p->slot[j].avoid != w &&
            ref_ready_plays(&p->workers[w].hello, p->jobs[j].game) &&
            (p->workers[w].pid || !arena_job_relays(&p->jobs[j])) &&
            (best < 0 || p->jobs[j].id < p->jobs[best].id))
            best = j;
    return best;
}

void arena_pool_limit(arena_pool *p, int jobs)
{
    p->limit = jobs > 0 ? jobs : 1;
}

/* Queued jobs to workers with room, one a worker at each pass, so that
 * the jobs spread over the workers before any fills its capacity. */
static void dispatch(arena_pool *p)
{
    int busy = 0;
    for (int i = 0; i < p->nworkers; i++)
        busy += p->workers[i].gone ? 0 : p->workers[i].nbusy;
    for (int sent = 1; sent;) {
        sent = 0;
        for (int i = 0; i < p->nworkers; i++) {
            worker *w = &p->workers[i];
            if (!w->ready || w->gone || w->nbusy >= w->capacity)
                continue;
            if (p->limit && busy >= p->limit)
                return;
            int next = oldest_queued(p, i);
            if (next < 0)
                continue;
            busy++;
            sent = 1;
            send_job(p, w, next);
        }
    }
}

static worker *find_worker(arena_pool *p, const void *id, size_t len)
{
    for (int i = 0; i < p->nworkers; i++)
        if (!p->workers[i].gone && p->workers[i].identity_len == len &&
            !memcmp(p->workers[i].identity, id, len))
            return &p->workers[i];
    return NULL;
}

/* 1 when `id` is a worker dropped for its records: it gets no job again on
 * that connection (a dropped worker's slot keeps its identity). */
static int was_dropped(const arena_pool *p, const void *id, size_t len)
{
    for (int i = 0; i < p->nworkers; i++)
        if (p->workers[i].dropped && p->workers[i].identity_len == len &&
            !memcmp(p->workers[i].identity, id, len))
            return 1;
    return 0;
}

/* A slot for a worker that just said ready: a lost worker's, or a new one,
 * so that workers coming and going for months never fill the table. */
static worker *new_worker(arena_pool *p)
{
    worker *w = NULL;
    for (int i = 0; i < p->nworkers && !w; i++)
        if (p->workers[i].gone && !p->workers[i].nbusy && !p->workers[i].dropped)
            w = &p->workers[i];
    if (!w && p->nworkers < MAX_WORKERS)
        w = &p->workers[p->nworkers++];
    if (w) {
        memset(w, 0, sizeof *w);
        w->capacity = 1;
    }
    return w;
}

/* A local worker that exited: its job goes back in the queue or is
 * judged (died()), and a new worker takes its place. */
static void check_local(arena_pool *p, char *err, size_t size)
{
    for (int k = 0; k < p->nlocal; k++) {
        int status;
        if (p->local[k] <= 0 || waitpid(p->local[k], &status, WNOHANG) != p->local[k])
            continue;
        fprintf(stderr, "arena: a worker stopped (%s %d); starting another\n",
                WIFSIGNALED(status) ? "signal" : "status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        for (int i = 0; i < p->nworkers; i++) {
            worker *w = &p->workers[i];
            if (w->pid != p->local[k])
                continue;
            w->gone = 1;
            for (int b = 0; b < w->nbusy; b++) {
                take_blame(p, w->busy[b], w->pid);
                died(p, w->busy[b], status);
            }
            w->nbusy = 0;
            w->pid = 0;
        }
        p->local[k] = p->local[--p->nlocal];
        k--;
        start_local(p, err, size);
    }
}

/* A judged job's verdict into *out: 1, or 0 if none is waiting. */
static int judged(arena_pool *p, arena_job_result *out)
{
    for (int j = 0; j < p->njobs; j++) {
        job_slot *s = &p->slot[j];
        if (s->state != JUDGED)
            continue;
        memset(out, 0, sizeof *out);
        out->worker = out->slot = -1;
        out->id = p->jobs[j].id;
        out->deaths = s->deaths;
        out->culprit = s->suspect;
        char how[64], why[400];
        snprintf(how, sizeof how, WIFSIGNALED(s->status) ? "signal %d" : "exit status %d",
                 WIFSIGNALED(s->status) ? WTERMSIG(s->status) : WEXITSTATUS(s->status));
        if (s->suspect >= 0)
            snprintf(why, sizeof why, "its referee died %d times (last by %s); seat %d %s",
                     s->deaths, how, s->suspect,
                     s->suspect_why[0] ? s->suspect_why : "was misbehaving");
        else
            snprintf(why, sizeof why, "its referee died %d times (last by %s)", s->deaths, how);
        out->error = strdup(why);
        out->finished_ms = out->started_ms = clk_wall_ms();
        s->state = RETURNED;
        p->pending--;
        return 1;
    }
    return 0;
}


/* A worker asks for a bot of one of the matches it holds (by the match's
 * id): the files, or the reason not, from arena_fetch. */
static void answer_fetch(arena_pool *p, worker *w, const msgpack_object *m)
{
    char name[128];
    int64_t id = -1;
    int b = 0, unused = 0;
    mps_get_int(m, "id", &id);
    while (b < w->nbusy && p->jobs[w->busy[b]].id != id)
        b++;
    apool_worker_name(w, (int)(w - p->workers), name, sizeof name);
    arena_fetch_answer(p->fetch, b < w->nbusy ? &p->jobs[w->busy[b]] : NULL, m, name,
                       b < w->nbusy ? &w->fetched[b] : &unused, &p->sb);
    apool_send(p, w);
}

/* A worker's record so far of one of the matches it holds (by the
 * match's id): kept for the web (arena_pool_playing); another's ignored. */
static void take_progress(arena_pool *p, worker *w, const msgpack_object *m)
{
    int64_t job_id;
    char *record = ref_link_progress_read(m, &job_id);
    int b = 0;
    while (record && b < w->nbusy && p->jobs[w->busy[b]].id != job_id)
        b++;
    if (!record || b == w->nbusy) {
        free(record);                     /* not its match: ignored */
        return;
    }
    free(p->slot[w->busy[b]].progress);
    p->slot[w->busy[b]].progress = record;
}

/* Handles one message from a worker; 1 when it was a result for *out. */
static int handle(arena_pool *p, const void *id, size_t idlen, const msgpack_object *m,
                  const char *peer, const char *key, arena_job_result *out)
{
    char type[16];
    if (mps_get_str(m, "type", type, sizeof type) < 0)
        return 0;
    worker *w = find_worker(p, id, idlen);
    if (w && w->key[0] && !apool_admitted(p, w->key)) {
        apool_refuse_revoked(p, w);       /* revoked since: its message is not heard */
        return 0;
    }
    if (w)
        w->heard_ms = clk_wall_ms();
    if (!strcmp(type, "ready") && !w && (was_dropped(p, id, idlen) ||
                                          apool_refuse_version(p, id, idlen, m)))
        return 0;
    if (!strcmp(type, "ready")) {
        if (!w && idlen <= sizeof w->identity && (w = new_worker(p)) != NULL) {
            memcpy(w->identity, id, idlen);
            w->identity_len = idlen;
            ref_ready_read(m, &w->hello);
            w->capacity = w->hello.capacity < ARENA_POOL_CAPACITY ? w->hello.capacity
                                                                  : ARENA_POOL_CAPACITY;
            int64_t pid = w->hello.pid;
            w->said_pid = pid;
            w->heard_ms = clk_wall_ms();
            snprintf(w->key, sizeof w->key, "%s", key ? key : "");
            snprintf(w->peer, sizeof w->peer, "%s", peer ? peer : "");
            for (int k = 0; k < p->nlocal; k++)
                if (p->local[k] == (pid_t)pid)
                    w->pid = (pid_t)pid;
        }
        if (w)
            w->ready = 1;
        if (w && w->key[0] && !apool_admitted(p, w->key))
            apool_refuse_revoked(p, w);   /* revoked between its handshake and now */
        return 0;
    }
    if (!strcmp(type, REF_LINK_FETCH) && w && (p->fetch || (p->fetch = arena_fetch_new()))) {
        answer_fetch(p, w, m);
        return 0;
    }
    if (!strcmp(type, REF_LINK_PROGRESS) && w) {
        take_progress(p, w, m);
        return 0;
    }
    if (strcmp(type, "result") || !w || !w->nbusy)
        return 0;
    int64_t job_id;
    int b = mps_get_int(m, "id", &job_id) == 0 ? 0 : w->nbusy;
    while (b < w->nbusy && p->jobs[w->busy[b]].id != job_id)
        b++;
    if (b == w->nbusy) {
        fprintf(stderr, "arena: a worker answered a match it was not given; ignored\n");
        return 0;
    }
    int j = w->busy[b];
    w->nbusy--;
    w->busy[b] = w->busy[w->nbusy];
    w->fetched[b] = w->fetched[w->nbusy];
    w->played++;
    p->slot[j].state = RETURNED;
    p->pending--;
    arena_job_result_read(m, out);
    out->worker = (int)(w - p->workers);
    out->slot = j;
    return 1;
}

/* `why` quotes the worker's record: its control bytes (a terminal's escape
 * sequences) become '?' before it reaches the log. */
static void printable(const char *why, char *buf, size_t size)
{
    snprintf(buf, size, "%s", why);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

int arena_pool_refuse(arena_pool *p, const arena_job_result *res, const char *why)
{
    if (res->worker < 0 || res->worker >= p->nworkers || res->slot < 0 ||
        res->slot >= p->njobs || p->slot[res->slot].state != RETURNED ||
        p->jobs[res->slot].id != res->id)
        return -1;
    worker *w = &p->workers[res->worker];
    job_slot *s = &p->slot[res->slot];
    char name[128], said[512];
    apool_worker_name(w, res->worker, name, sizeof name);
    printable(why, said, sizeof said);
    fprintf(stderr, "arena: refused the result of match %" PRId64 " from %s: %s\n",
            res->id + 1, name, said);
    w->played--;
    if (++w->refused >= REFUSALS_TO_DROP && !w->gone) {
        fprintf(stderr, "arena: dropped %s: %d of its records did not replay\n", name,
                w->refused);
        pack_type(p, "stop");
        apool_send(p, w);
        apool_lose(p, w, "a dropped worker");
        w->dropped = 1;
    }
    if (++s->refusals >= REFUSALS_PER_JOB)
        return -1;
    s->avoid = res->worker;
    s->state = QUEUED;
    p->pending++;
    fprintf(stderr, "arena: match %" PRId64 " goes to another worker\n", res->id + 1);
    return 0;
}

void arena_job_result_read(const msgpack_object *m, arena_job_result *out)
{
    ref_link_result r;
    ref_link_result_read(m, &r);
    memset(out, 0, sizeof *out);
    out->culprit = -1;
    out->worker = out->slot = -1;
    out->id = r.id;
    out->error = r.error;
    out->record = r.record;
    out->started_ms = r.started_ms;
    out->finished_ms = r.finished_ms;
    for (int i = 0; i < r.nlogs; i++)    /* the texts change hands */
        out->logs[out->nlogs++] = (arena_log){ .text = r.logs[i].text, .len = r.logs[i].len,
                                               .bytes = r.logs[i].bytes,
                                               .seat = r.log_seat[i] };
}

/* Waits up to `wait` ms for one message and handles it: 1 when it was a
 * result (in *out), 2 when it was something else, 0 when none came, -1
 * when the pool broke (err). */
static int receive(arena_pool *p, arena_job_result *out, long wait, char *err, size_t size)
{
    zmq_pollitem_t items[2] = { { p->sock, 0, ZMQ_POLLIN, 0 }, { p->zap, 0, ZMQ_POLLIN, 0 } };
    if (zmq_poll(items, p->zap ? 2 : 1, wait) < 0) {
        if (errno == EINTR)
            return 2;
        snprintf(err, size, "worker socket: %s", zmq_strerror(errno));
        return -1;
    }
    if (p->zap && (items[1].revents & ZMQ_POLLIN))
        zauth_handle_by(p->zap, apool_key_check, p, 1);
    if (!(items[0].revents & ZMQ_POLLIN))
        return p->zap && (items[1].revents & ZMQ_POLLIN) ? 2 : 0;
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    int got = 0;
    if (zmq_msg_recv(&id, p->sock, 0) >= 0 && zmq_msg_more(&id) &&
        zmq_msg_recv(&body, p->sock, 0) >= 0) {
        msgpack_unpacked m;
        if (mps_decode(zmq_msg_data(&body), zmq_msg_size(&body), &m) == 0) {
            got = handle(p, zmq_msg_data(&id), zmq_msg_size(&id), &m.data,
                         zmq_msg_gets(&body, "Peer-Address"), zmq_msg_gets(&body, "User-Id"),
                         out);
            msgpack_unpacked_destroy(&m);
        }
    }
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    if (got)
        return 1;
    if (p->fatal[0]) {
        snprintf(err, size, "%s", p->fatal);
        return -1;
    }
    return 2;
}

int arena_pool_next(arena_pool *p, arena_job_result *out, int timeout_ms, char *err,
                    size_t size)
{
    int64_t t0 = clk_mono_ms();
    for (;;) {
        check_local(p, err, size);
        if (judged(p, out))
            return 1;
        probe(p);
        dispatch(p);
        long spent = (long)(clk_mono_ms() - t0);
        if (spent >= timeout_ms)
            return 0;
        int got = receive(p, out, timeout_ms - spent < 100 ? timeout_ms - spent : 100, err,
                          size);
        if (got == 1 || got < 0)
            return got;
    }
}

int arena_pool_take(arena_pool *p, arena_job_result *out, char *err, size_t size)
{
    int got = 2;
    for (int i = 0; i < 256 && got == 2; i++)
        got = receive(p, out, 0, err, size);
    return got == 2 ? 0 : got;
}

void arena_pool_activity(arena_pool *p, arena_pool_activity_fn *fn, void *ctx)
{
    for (int i = 0; i < p->nworkers; i++) {
        worker *w = &p->workers[i];
        if (!w->key[0] || (!w->played && w->heard_ms == w->told_ms))
            continue;
        fn(ctx, w->key, w->heard_ms, w->played);
        w->played = 0;
        w->told_ms = w->heard_ms;
    }
}

int arena_pool_pending(const arena_pool *p) { return p->pending; }

const char *arena_pool_listening(const arena_pool *p) { return p->listening; }

int arena_pool_workers(const arena_pool *p)
{
    int n = 0;
    for (int i = 0; i < p->nworkers; i++)
        n += p->workers[i].ready && !p->workers[i].gone;
    return n;
}

void arena_pool_stop(arena_pool *p)
{
    if (!p)
        return;
    if (p->sock) {
        pack_type(p, "stop");
        for (int i = 0; i < p->nworkers; i++)
            if (!p->workers[i].gone)
                apool_send(p, &p->workers[i]);
    }
    /* Idle workers leave at once; busy ones (an interrupted tournament)
     * are killed with their bots. */
    for (int k = 0; k < p->nlocal; k++) {
        int waited = 0;
        while (waitpid(p->local[k], NULL, WNOHANG) == 0 && waited < 50) {
            usleep(10000);
            waited++;
        }
        if (waited == 50) {
            kill(p->local[k], SIGTERM);
            waitpid(p->local[k], NULL, 0);
        }
    }
    if (p->sock)
        zmq_close(p->sock);
    if (p->zap)
        zmq_close(p->zap);
    free(p->allowed);
    free(p->admitted);
    arena_fetch_free(p->fetch);
    if (p->ctx)
        zmq_ctx_term(p->ctx);
    ref_dir_remove(&p->dir);
    ref_dir_sweep();              /* what its killed workers left, now theirs are all gone */
    msgpack_sbuffer_destroy(&p->sb);
    for (int j = 0; j < p->njobs; j++)
        free(p->slot[j].progress);
    free(p->jobs);
    free(p->slot);
    free(p);
}

void arena_job_result_free(arena_job_result *r)
{
    free(r->error);
    free(r->record);
    r->error = r->record = NULL;
    for (int i = 0; i < r->nlogs; i++)
        free(r->logs[i].text);
    r->nlogs = 0;
}

void arena_pool_playing(const arena_pool *p, arena_pool_playing_fn *fn, void *ctx)
{
    for (int j = 0; j < p->njobs; j++)
        if (p->slot[j].state == RUNNING)
            fn(ctx, &p->jobs[j], p->slot[j].handed_ms, p->slot[j].progress);
}

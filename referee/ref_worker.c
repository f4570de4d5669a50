/*
 * ref_worker.c - the worker loop: ready, then job -> match -> result until
 * the arena says stop or goes away.
 *
 * A job carries everything a match needs (game options, seed, bot commands
 * and directories, time control); the result carries the whole match
 * record as text, the one source of truth the arena stores and verifies.
 * A job the referee cannot run at all (bad options, no sockets) comes back
 * as an error, never as a silently missing match.
 *
 * Every new connection to the arena hears `ready`: the first, and each one
 * after a restart of the arena or a broken network, since the arena on the
 * other side then knows nothing of this worker. A worker with --stay is a
 * service: a `stop` ends the tournament, not the worker, which waits for
 * the next arena at the same address.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <zmq.h>
#include "clk.h"
#include "ref_blame.h"
#include "ref_cache.h"
#include "ref_dir.h"
#include "ref_fetch.h"
#include "ref_ready.h"
#include "kv.h"
#include "mps.h"
#include "mpw.h"
#include "ref_job.h"
#include "ref_link.h"
#include "ref_log.h"
#include "ref_match.h"
#include "ref_record.h"
#include "ref_runs.h"
#include "ref_worker.h"
#include "zauth.h"

static int send_sb(void *sock, msgpack_sbuffer *sb)
{
    return zmq_send(sock, sb->data, sb->size, 0) < 0 ? -1 : 0;
}

static void send_ready(void *sock, msgpack_sbuffer *sb, const ref_ready *hello)
{
    sb->size = 0;
    ref_ready_pack(sb, hello);
    send_sb(sock, sb);
}

/* The record as text, for the result message. */
static char *record_text(const ref_record *rec, const game_api *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    ref_record_write(rec, g, f);
    fclose(f);
    return text;
}

/* A match in play, told to the arena as it goes (ref_link.h `progress`):
 * the first decision at once, then at most every REF_LINK_PROGRESS_MS. */
typedef struct progress {
    int      live_fd;             /* to the worker, which sends it on (ref_runs.h) */
    int64_t  id;
    const game_api *game;
    int64_t  sent_ms;             /* monotonic; 0: nothing sent yet */
    msgpack_sbuffer sb;
} progress;

static void send_progress(void *ctx, const ref_record *rec)
{
    progress *p = ctx;
    int64_t now = clk_mono_ms();
    if (p->sent_ms && now - p->sent_ms < REF_LINK_PROGRESS_MS)
        return;
    char *text = record_text(rec, p->game);
    if (!text)
        return;                   /* out of memory: the arena hears the end alone */
    p->sb.size = 0;
    ref_link_progress_pack(&p->sb, p->id, text);
    free(text);
    /* never waits: a match's clocks run meanwhile, and a progress lost on
     * a full queue is overtaken by the next */
    ref_runs_tell(p->live_fd, p->sb.data, p->sb.size);
    p->sent_ms = now;
}

/* Plays one job read into `job`, its bots' logs in log_dir, telling the
 * arena through live_fd how it goes. Returns 0, or -1 with `err` when it cannot
 * be run. */
static int play_job(ref_job *job, ref_sandbox_mode sandbox, const char *log_dir, int live_fd,
                    ref_record *rec, char *err, size_t size)
{
    progress p = { .live_fd = live_fd, .id = job->link.id, .game = job->cfg.game };
    msgpack_sbuffer_init(&p.sb);
    job->cfg.sandbox = sandbox;
    job->cfg.log_dir = log_dir;
    job->cfg.on_decision = send_progress;
    job->cfg.on_decision_ctx = &p;
    int rc = ref_match_play(&job->cfg, rec, err, size);
    msgpack_sbuffer_destroy(&p.sb);
    return rc;
}

typedef struct worker_opts {
    const char *endpoint;
    int         stay;       /* a stop ends this arena's session, not the worker */
    int         verbose;    /* one line per job on stderr */
    const char *curve_server, *curve_key;   /* key files, or NULL */
    ref_sandbox_mode sandbox;   /* how its bots are isolated */
    ref_ready   hello;      /* what it says at ready: the games it plays, its capacity */
    ref_cache   cache;      /* --cache: bots by hash fetched and kept here */
    int         cached;     /* ... given */
    ref_fetch_held held;    /* jobs the arena sent while a bot was fetched */
    int64_t     verified;   /* the job whose bots fetch_bots just checked, or -1 */
} worker_opts;

static const char worker_usage[] =
    "usage: referee worker --connect ENDPOINT [--stay] [--verbose] [--sandbox MODE]\n"
    "                      [--games LIST] [--capacity N]\n"
    "                      [--curve-server ARENA.pub --curve-key KEY]\n"
    "                      [--cache DIR [--cache-mb N]]\n"
    "  --connect ENDPOINT  the arena's worker address (arena tournament --listen ENDPOINT)\n"
    "  --stay              when the arena says stop, wait for the next one (a service)\n"
    "  --verbose           log each match on stderr\n"
    "  --sandbox MODE      auto, strict or none, as for referee play (default\n"
    "                      $ARENA_SANDBOX, else auto)\n"
    "  --games LIST        play only these games (comma-separated; default: every\n"
    "                      game this referee has); the arena hands out no other\n"
    "  --capacity N        play up to N matches at once (1 to 64; default 1)\n"
    "  --curve-server F    the arena's public key: encrypt the link, and prove who we are\n"
    "  --curve-key F       with this worker's secret key (arena keygen)\n"
    "  --cache DIR         run submitted bots (named by content hash) from DIR, fetched\n"
    "                      from the arena when missing or changed (without it: from\n"
    "                      their folder in the arena's store, as local workers do)\n"
    "  --cache-mb N        DIR's size, least recently used bots out (default 1024)\n";

static int parse_opts(int argc, char **argv, worker_opts *o)
{
    memset(o, 0, sizeof *o);
    o->verified = -1;
    const char *sandbox = NULL, *games = NULL, *capacity = "1", *cache = NULL,
               *cache_mb = NULL;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--connect") && i + 1 < argc)
            o->endpoint = argv[++i];
        else if (!strcmp(argv[i], "--stay"))
            o->stay = 1;
        else if (!strcmp(argv[i], "--verbose"))
            o->verbose = 1;
        else if (!strcmp(argv[i], "--curve-server") && i + 1 < argc)
            o->curve_server = argv[++i];
        else if (!strcmp(argv[i], "--curve-key") && i + 1 < argc)
            o->curve_key = argv[++i];
        else if (!strcmp(argv[i], "--sandbox") && i + 1 < argc)
            sandbox = argv[++i];
        else if (!strcmp(argv[i], "--games") && i + 1 < argc)
            games = argv[++i];
        else if (!strcmp(argv[i], "--capacity") && i + 1 < argc)
            capacity = argv[++i];
        else if (!strcmp(argv[i], "--cache") && i + 1 < argc)
            cache = argv[++i];
        else if (!strcmp(argv[i], "--cache-mb") && i + 1 < argc)
            cache_mb = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(worker_usage, stdout);
            return 1;
        } else {
            fprintf(stderr, "referee: worker: unknown option '%s' (see referee worker --help)\n",
                    argv[i]);
            return -1;
        }
    }
    if (!o->endpoint) {
        fprintf(stderr, "referee: worker needs --connect ENDPOINT (the arena's address)\n");
        return -1;
    }
    char err[160];
    if (ref_sandbox_mode_choose(sandbox, &o->sandbox, err, sizeof err) < 0 ||
        ref_ready_local(&o->hello, games, err, sizeof err) < 0) {
        fprintf(stderr, "referee: worker: %s\n", err);
        return -1;
    }
    int64_t n;
    if (kv_i64(capacity, 1, REF_RUNS_MAX, &n) < 0) {
        fprintf(stderr, "referee: worker: --capacity must be a number from 1 to %d\n",
                REF_RUNS_MAX);
        return -1;
    }
    o->hello.capacity = (int)n;
    int64_t mb = REF_CACHE_DEFAULT_MB;
    if (cache_mb && (!cache || kv_i64(cache_mb, 1, 1 << 20, &mb) < 0)) {
        fprintf(stderr, "referee: worker: --cache-mb needs --cache and a size from 1 to %d MB\n",
                1 << 20);
        return -1;
    }
    if (cache && ref_cache_open(&o->cache, cache, mb, err, sizeof err) < 0) {
        fprintf(stderr, "referee: worker: %s\n", err);
        return -1;
    }
    o->cached = cache != NULL;
    if (!o->curve_server != !o->curve_key) {
        fprintf(stderr, "referee: worker: --curve-server and --curve-key go together\n");
        return -1;
    }
    return 0;
}

/* Reads each seat's log excerpt from `dir` and removes the folder. */
static void collect_logs(ref_dir *dir, int n, size_t cap, ref_log *logs)
{
    for (int i = 0; i < n; i++) {
        char path[400];
        snprintf(path, sizeof path, "%s/seat%d.log", dir->path, i);
        if (ref_log_read(&logs[i], path, cap) < 0)
            memset(&logs[i], 0, sizeof logs[i]);   /* shipped as an empty log */
    }
    ref_dir_remove(dir);
}

/* Plays one job message and packs its answer into sb: in the match's own
 * process (ref_runs.h). Its bots by hash are in the cache already: the
 * worker fetched and checked them just before it forked this process
 * (start_job): found here, not hashed a second time. */
static void run_job(const msgpack_object *msg, msgpack_sbuffer *sb, int live_fd, void *ctx)
{
    const worker_opts *o = ctx;
    ref_job job;
    char err[512] = "";
    int read = ref_job_read(msg, &job, err, sizeof err), fetched = 0;
    if (read == 0 && o->cached)
        read = fetched = ref_fetch_job_bots((ref_cache *)&o->cache, NULL, NULL, NULL,
                                            o->verified == job.link.id, &job, err, sizeof err);
    int64_t id = job.link.id;
    uint64_t seed = job.link.seed;
    ref_record rec;
    ref_record_init(&rec);
    /* The bots' logs go in a locked folder like a match's: one this worker
     * leaves behind when it is killed is swept by the next to start. */
    ref_dir dir;
    ref_link_result res = { .id = id, .started_ms = clk_wall_ms() };
    int nbots = read == 0 ? job.cfg.nbots : 0, played = -1;
    if (fetched < 0)
        fprintf(stderr, "referee worker: job %" PRId64 ": %s\n", id, err);
    int made = read == 0 && ref_dir_make(&dir, err, sizeof err) == 0;
    ref_blame_job(id);
    if (made)
        played = play_job(&job, o->sandbox, dir.path, live_fd, &rec, err, sizeof err);
    ref_blame_job(-1);
    res.finished_ms = clk_wall_ms();
    if (made)
        collect_logs(&dir, nbots, (size_t)job.link.log_bytes, res.logs);
    res.record = played == 0 ? record_text(&rec, job.cfg.game) : NULL;
    char oom[] = "out of memory";
    res.error = played == 0 ? (res.record ? NULL : oom) : err;
    res.nlogs = played == 0 ? nbots : 0;
    /* Logged before it is sent: a job logged as unfinished was never
     * answered (the container test relies on it). */
    if (o->verbose)
        fprintf(stderr, "referee worker: job %" PRId64 " seed %" PRIu64 ": %s%s, %zu decisions,"
                " %.1f s\n", id, seed, played == 0 ? rec.reason : "not played: ",
                played == 0 ? "" : err, rec.ndecisions,
                (double)(res.finished_ms - res.started_ms) / 1000);
    ref_link_result_pack(sb, &res);
    for (int i = 0; i < nbots; i++)
        ref_log_free(&res.logs[i]);
    free(res.record);
    ref_record_free(&rec);
    ref_job_free(&job);
}

/* How long a worker refused at its handshake waits before it tries again. */
#define REFUSED_RETRY_MS 2000

/* Why the arena refused this worker, said in words on its side. */
static void say_refused(const char *why, int64_t arena_protocol, int stopped)
{
    if (!strcmp(why, "protocol_version"))
        fprintf(stderr, "referee worker: the arena stopped this worker: protocol_version: the "
                "arena speaks worker link protocol %" PRId64 ", this worker %d: run a referee "
                "of the arena's version\n", arena_protocol, REF_WORKER_PROTOCOL);
    else if (!strcmp(why, "key_revoked"))
        fprintf(stderr, "referee worker: the arena stopped this worker: key_revoked: its key "
                "was revoked (arena worker revoke): it is refused from now on\n");
    else
        fprintf(stderr, "referee worker: the arena stopped this worker: %s\n", why);
    fprintf(stderr, "referee worker: %d running match%s stopped; exiting\n", stopped,
            stopped == 1 ? "" : "es");
}

/* Fetches the bots by hash of job `m` that the cache lacks, here in the
 * worker's own process (the only one that speaks on the link): 0 when
 * they are all in the cache, -1 (why in err), -2 the arena said stop
 * meanwhile. The cache is trimmed only while no match runs, so no running
 * bot's files are taken away. */
static int fetch_bots(void *sock, msgpack_sbuffer *sb, const ref_runs *runs,
                      const msgpack_object *m, worker_opts *o, char *err, size_t size)
{
    ref_job job;
    o->verified = -1;
    if (!o->cached || ref_job_read(m, &job, err, size) != 0)
        return 0;                      /* its process says why it cannot be read */
    int rc = ref_fetch_job_bots(&o->cache, sock, sb, &o->held, 0, &job, err, size);
    if (rc == 0)
        o->verified = job.link.id;     /* the match's process, forked next, trusts it */
    if (rc == 0 && runs->n == 0) {
        const char *keep[GAME_MAX_SEATS];
        for (int i = 0; i < job.link.nbots; i++)
            keep[i] = job.link.hash[i];
        ref_cache_trim(&o->cache, keep, job.link.nbots);
    }
    ref_job_free(&job);
    return rc;
}

/* Starts job `m` in a match process of its own, or answers it with why it
 * cannot be played here: 1 when the arena said stop while its bots were
 * fetched, else 0. */
static int start_job(void *sock, msgpack_sbuffer *sb, ref_runs *runs, const msgpack_object *m,
                     worker_opts *o)
{
    int64_t id = -1;
    uint64_t seed = 0;
    mps_get_int(m, REF_LINK_ID, &id);
    mps_get_u64(m, REF_LINK_SEED, &seed);
    /* Said here, not in its process: a worker's log shows the matches it
     * took in the order it took them. */
    if (o->verbose)
        fprintf(stderr, "referee worker: job %" PRId64 " seed %" PRIu64 ": playing\n", id, seed);
    char err[512];
    int fetched = 0;
    if (runs->n >= o->hello.capacity)
        snprintf(err, sizeof err, "this worker plays %d match%s at once (its capacity)",
                 o->hello.capacity, o->hello.capacity == 1 ? "" : "es");
    else if ((fetched = fetch_bots(sock, sb, runs, m, o, err, sizeof err)) == -2)
        return 1;
    else if (fetched < 0)
        fprintf(stderr, "referee worker: job %" PRId64 ": %s\n", id, err);
    else if (ref_runs_start(runs, id, m, run_job, o, err, sizeof err) == 0)
        return 0;
    int64_t now = clk_wall_ms();
    ref_link_result res = { .id = id, .error = err, .started_ms = now, .finished_ms = now };
    sb->size = 0;
    ref_link_result_pack(sb, &res);
    send_sb(sock, sb);
    return 0;
}

/* Starts, in order, the jobs that arrived while a bot was fetched (more
 * may arrive while these fetch): 1 when the arena said stop meanwhile. */
static int start_held(void *sock, msgpack_sbuffer *sb, ref_runs *runs, worker_opts *o)
{
    int stop = 0;
    for (int k = 0; k < o->held.n; k++) {
        zmq_msg_t *m = &o->held.msg[k];
        msgpack_unpacked msg;
        if (!stop && mps_decode(zmq_msg_data(m), zmq_msg_size(m), &msg) == 0) {
            stop = start_job(sock, sb, runs, &msg.data, o);
            msgpack_unpacked_destroy(&msg);
        }
        zmq_msg_close(m);
    }
    o->held.n = 0;
    return stop;
}

/* Sends on what each match process told meanwhile, then the result of
 * each that has ended (polled in items: ref_runs_items). */
static void answer_ended(void *sock, ref_runs *runs, const zmq_pollitem_t *items)
{
    for (int k = 0; k < runs->n; k++)
        if (items[runs->n + k].revents & ZMQ_POLLIN)
            ref_runs_relay(runs, k, sock);
    for (int k = runs->n - 1; k >= 0; k--) {
        char *msg;
        size_t len;
        if ((items[k].revents & (ZMQ_POLLIN | ZMQ_POLLERR)) &&
            ref_runs_reap(runs, k, &msg, &len) == 1) {
            zmq_send(sock, msg, len, 0);
            free(msg);
        }
    }
}

/* Events of the link: each new connection (the first, or one after the
 * arena restarted or the network broke) must hear `ready`, because the
 * arena on the other side may never have heard of this worker. */
static void *watch_link(void *ctx, void *sock)
{
    char addr[64];
    snprintf(addr, sizeof addr, "inproc://worker-link-%p", sock);
    if (zmq_socket_monitor(sock, addr, ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
                                       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |
                                       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL) < 0)
        return NULL;
    void *mon = zmq_socket(ctx, ZMQ_PAIR);
    if (zmq_connect(mon, addr) < 0) {
        zmq_close(mon);
        return NULL;
    }
    return mon;
}

/* Reads one monitor event: its number, or -1. */
static int link_event(void *mon)
{
    zmq_msg_t m;
    zmq_msg_init(&m);
    int event = -1;
    if (zmq_msg_recv(&m, mon, 0) >= 0 && zmq_msg_size(&m) >= 6) {
        uint16_t e;
        memcpy(&e, zmq_msg_data(&m), sizeof e);
        event = e;
    }
    while (zmq_msg_more(&m) && zmq_msg_recv(&m, mon, 0) >= 0)
        ;   /* the endpoint frame */
    zmq_msg_close(&m);
    return event;
}

int ref_worker_main(int argc, char **argv)
{
    worker_opts o;
    int parsed = parse_opts(argc, argv, &o);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    /* A worker the arena started stops when the arena dies, however it
     * dies: SIGTERM, whose handler (referee.c) kills the bots first. */
    const char *parent = getenv("ARENA_WORKER_PARENT");
    int64_t parent_pid;
    if (parent) {
        prctl(PR_SET_PDEATHSIG, SIGTERM, 0L, 0L, 0L);
        /* Ctrl-C at a terminal reaches the whole process group: the arena
         * takes it, lets the running matches finish and stops its workers
         * itself (SIGTERM), so a worker dying of it would only lose them. */
        signal(SIGINT, SIG_IGN);
        if (kv_i64(parent, 1, INT32_MAX, &parent_pid) < 0 || getppid() != (pid_t)parent_pid)
            return 1;
        /* Its last words, if a bot makes its referee abort, go beside
         * the arena's ipc endpoint (ref_blame.h). */
        char dir[256];
        const char *slash = strrchr(o.endpoint, '/');
        if (!strncmp(o.endpoint, "ipc://", 6) && slash && slash - o.endpoint - 6 < 256) {
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - o.endpoint - 6), o.endpoint + 6);
            ref_blame_arm(dir);
        }
    }
    ref_dir_sweep();    /* what workers and referees killed here left */
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_DEALER);
    int linger = 1000, ivl = 2000, timeout = 10000, reconnect_max = 5000;
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(sock, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(sock, ZMQ_HEARTBEAT_TIMEOUT, &timeout, sizeof timeout);
    zmq_setsockopt(sock, ZMQ_RECONNECT_IVL_MAX, &reconnect_max, sizeof reconnect_max);
    int64_t max = REF_LINK_MAX_ARCHIVE + (1 << 20);     /* a fetched bot's archive, at most */
    zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    if (o.curve_key) {
        zauth_key server, secret;
        char err[512];
        if (zauth_load(o.curve_server, server, err, sizeof err) < 0 ||
            zauth_load(o.curve_key, secret, err, sizeof err) < 0 ||
            zauth_client(sock, server, secret, err, sizeof err) < 0) {
            fprintf(stderr, "referee: worker: %s\n", err);
            zmq_close(sock);
            zmq_ctx_term(ctx);
            return 2;
        }
    }
    void *mon = watch_link(ctx, sock);
    if (!mon || zmq_connect(sock, o.endpoint) < 0) {
        fprintf(stderr, "referee: cannot connect to %s: %s\n", o.endpoint, zmq_strerror(errno));
        if (mon)
            zmq_close(mon);
        zmq_close(sock);
        zmq_ctx_term(ctx);
        return 1;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    int rc = 0, refused = 0;      /* a refusal is told once, not at every retry */
    int64_t retry_ms = 0;         /* when to knock again after a refused handshake */
    ref_runs runs = { .n = 0 };   /* the matches in flight */
    for (;;) {
        zmq_pollitem_t items[2 + 2 * REF_RUNS_MAX] = { { sock, 0, ZMQ_POLLIN, 0 },
                                                   { mon, 0, ZMQ_POLLIN, 0 } };
        ref_runs_items(&runs, items + 2);
        long wait = retry_ms ? (long)(retry_ms - clk_mono_ms()) : -1;
        if (retry_ms && wait <= 0) {
            /* libzmq gives up a connection whose handshake was refused: the
             * key may be admitted later (arena worker add), so knock again. */
            zmq_disconnect(sock, o.endpoint);
            zmq_connect(sock, o.endpoint);
            retry_ms = 0;
            continue;
        }
        if (zmq_poll(items, 2 + 2 * runs.n, wait) < 0) {
            if (errno == EINTR)
                continue;
            rc = 1;
            break;
        }
        answer_ended(sock, &runs, items + 2);
        if (items[1].revents & ZMQ_POLLIN) {
            int event = link_event(mon);
            if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
                send_ready(sock, &sb, &o.hello);
                refused = 0;
            } else if (event > 0) {
                if (!refused++)
                    fprintf(stderr, "referee worker: the arena at %s refused this worker (%s)"
                            "\n", o.endpoint, event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
                                               ? "wrong or unknown key" : "protocol mismatch");
                retry_ms = clk_mono_ms() + REFUSED_RETRY_MS;
            }
            continue;
        }
        if (!(items[0].revents & ZMQ_POLLIN))
            continue;
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0) {
            zmq_msg_close(&m);
            if (errno == EINTR)
                continue;
            rc = 1;
            break;
        }
        msgpack_unpacked msg;
        int ok = mps_decode(zmq_msg_data(&m), zmq_msg_size(&m), &msg) == 0;
        zmq_msg_close(&m);
        char type[16] = "", why[32] = "";
        int64_t theirs = -1;
        if (ok) {
            mps_get_str(&msg.data, "type", type, sizeof type);
            mps_get_str(&msg.data, "reason", why, sizeof why);
            mps_get_int(&msg.data, "protocol", &theirs);
        }
        if (!strcmp(type, "job") && start_job(sock, &sb, &runs, &msg.data, &o))
            snprintf(type, sizeof type, "stop");
        else if (strcmp(type, "job") && strcmp(type, "ping") && strcmp(type, "stop"))
            fprintf(stderr, "referee worker: unexpected message from the arena\n");
        if (strcmp(type, "stop") && start_held(sock, &sb, &runs, &o))
            snprintf(type, sizeof type, "stop");
        if (ok)
            msgpack_unpacked_destroy(&msg);
        /* A stop is obeyed at once: the matches in flight are the arena's,
         * which no longer wants them (it handed them to another worker). */
        int stopped = !strcmp(type, "stop") ? ref_runs_stop(&runs) : 0;
        if (!strcmp(type, "stop") && why[0]) {     /* refused: staying cannot help */
            say_refused(why, theirs, stopped);
            rc = 1;
            break;
        }
        if (stopped)
            fprintf(stderr, "referee worker: the arena said stop: %d running match%s stopped\n",
                    stopped, stopped == 1 ? "" : "es");
        if (!strcmp(type, "stop") && !o.stay)
            break;
    }
    ref_runs_stop(&runs);
    for (int k = 0; k < o.held.n; k++)
        zmq_msg_close(&o.held.msg[k]);
    msgpack_sbuffer_destroy(&sb);
    zmq_socket_monitor(sock, NULL, 0);
    zmq_close(mon);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return rc;
}

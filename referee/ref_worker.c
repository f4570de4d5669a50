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
#include "ref_dir.h"
#include "ref_ready.h"
#include "kv.h"
#include "mps.h"
#include "mpw.h"
#include "ref_job.h"
#include "ref_link.h"
#include "ref_log.h"
#include "ref_match.h"
#include "ref_record.h"
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
    void    *sock;
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
    zmq_send(p->sock, p->sb.data, p->sb.size, ZMQ_DONTWAIT);
    p->sent_ms = now;
}

/* Plays one job read into `job`, its bots' logs in log_dir, telling the
 * arena on `sock` how it goes. Returns 0, or -1 with `err` when it cannot
 * be run. */
static int play_job(ref_job *job, ref_sandbox_mode sandbox, const char *log_dir, void *sock,
                    ref_record *rec, char *err, size_t size)
{
    progress p = { .sock = sock, .id = job->link.id, .game = job->cfg.game };
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
    ref_ready   hello;      /* what it says at ready: the games it plays */
} worker_opts;

static const char worker_usage[] =
    "usage: referee worker --connect ENDPOINT [--stay] [--verbose] [--sandbox MODE]\n"
    "                      [--games LIST] [--curve-server ARENA.pub --curve-key KEY]\n"
    "  --connect ENDPOINT  the arena's worker address (arena tournament --listen ENDPOINT)\n"
    "  --stay              when the arena says stop, wait for the next one (a service)\n"
    "  --verbose           log each match on stderr\n"
    "  --sandbox MODE      auto, strict or none, as for referee play (default\n"
    "                      $ARENA_SANDBOX, else auto)\n"
    "  --games LIST        play only these games (comma-separated; default: every\n"
    "                      game this referee has); the arena hands out no other\n"
    "  --curve-server F    the arena's public key: encrypt the link, and prove who we are\n"
    "  --curve-key F       with this worker's secret key (arena keygen)\n";

static int parse_opts(int argc, char **argv, worker_opts *o)
{
    memset(o, 0, sizeof *o);
    const char *sandbox = NULL, *games = NULL;
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

/* Plays one job message and answers it. */
static void run_job(void *sock, msgpack_sbuffer *sb, const msgpack_object *msg,
                    const worker_opts *o)
{
    ref_job job;
    char err[512] = "";
    int read = ref_job_read(msg, &job, err, sizeof err);
    int64_t id = job.link.id;
    uint64_t seed = job.link.seed;
    ref_record rec;
    ref_record_init(&rec);
    /* The bots' logs go in a locked folder like a match's: one this worker
     * leaves behind when it is killed is swept by the next to start. */
    ref_dir dir;
    ref_link_result res = { .id = id, .started_ms = clk_wall_ms() };
    int nbots = read == 0 ? job.cfg.nbots : 0, played = -1;
    if (o->verbose)
        fprintf(stderr, "referee worker: job %" PRId64 " seed %" PRIu64 ": playing\n", id, seed);
    int made = read == 0 && ref_dir_make(&dir, err, sizeof err) == 0;
    ref_blame_job(id);
    if (made)
        played = play_job(&job, o->sandbox, dir.path, sock, &rec, err, sizeof err);
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
    sb->size = 0;
    ref_link_result_pack(sb, &res);
    send_sb(sock, sb);
    for (int i = 0; i < nbots; i++)
        ref_log_free(&res.logs[i]);
    free(res.record);
    ref_record_free(&rec);
    ref_job_free(&job);
}

/* How long a worker refused at its handshake waits before it tries again. */
#define REFUSED_RETRY_MS 2000

/* Why the arena refused this worker, said in words on its side. */
static void say_refused(const char *why, int64_t arena_protocol)
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
    for (;;) {
        zmq_pollitem_t items[2] = { { sock, 0, ZMQ_POLLIN, 0 }, { mon, 0, ZMQ_POLLIN, 0 } };
        long wait = retry_ms ? (long)(retry_ms - clk_mono_ms()) : -1;
        if (retry_ms && wait <= 0) {
            /* libzmq gives up a connection whose handshake was refused: the
             * key may be admitted later (arena worker add), so knock again. */
            zmq_disconnect(sock, o.endpoint);
            zmq_connect(sock, o.endpoint);
            retry_ms = 0;
            continue;
        }
        if (zmq_poll(items, 2, wait) < 0) {
            if (errno == EINTR)
                continue;
            rc = 1;
            break;
        }
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
        if (!strcmp(type, "job"))
            run_job(sock, &sb, &msg.data, &o);
        else if (strcmp(type, "ping") && strcmp(type, "stop"))
            fprintf(stderr, "referee worker: unexpected message from the arena\n");
        if (ok)
            msgpack_unpacked_destroy(&msg);
        if (!strcmp(type, "stop") && why[0]) {     /* refused: staying cannot help */
            say_refused(why, theirs);
            rc = 1;
            break;
        }
        if (!strcmp(type, "stop") && !o.stay)
            break;
    }
    msgpack_sbuffer_destroy(&sb);
    zmq_socket_monitor(sock, NULL, 0);
    zmq_close(mon);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return rc;
}

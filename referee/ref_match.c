/*
 * ref_match.c - the match loop: start the bots, greet them, ask for each
 * decision, tell everyone what happened, end the match, clean up.
 *
 * Each seat has its own ROUTER socket on its own endpoint, so a seat's
 * traffic can only be its own, and a monitor on that socket, so a dropped
 * connection is seen at once. One poll loop (next_message) watches every
 * socket, monitor, process exit and bot output pipe together; everything a
 * bot can do wrong is judged there or by its caller, and turns into a
 * forfeit with a reason code. All waits are bounded by the time control.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>
#include "ref_match.h"
#include "ref_dir.h"
#include "ref_meter.h"
#include "ref_msg.h"
#include "ref_reply.h"

/* A dropped connection that comes back this fast, from a live bot, was
 * dropped by ZeroMQ for an oversized message: DEALER sockets reconnect on
 * their own. One that stays down was closed by the bot. */
#define DROP_GRACE_US 400000
/* A bot whose connection stays down is usually on its way out (a Python
 * traceback, then the interpreter's shutdown): its exit status says more
 * than "closed its connection", and it must read the same whichever seat
 * the bug sits in, however loaded the machine. */
#define EXIT_WAIT_US 3000000
#define END_GRACE_MS 500
#define KILL_GRACE_MS 200
/* How often the bots' control groups are checked for a limit hit while
 * the referee waits. */
#define LIMITS_EVERY_US 100000
/* Under the CPU clock, a decision ends at this many times its wall ceiling
 * however long the bot waited for a CPU (then `contended`). */
#define REF_STARVED 10

typedef struct seat {
    void    *sock, *monitor;
    char     endpoint[300];
    char     token[33];
    uint8_t  identity[256], last_identity[256];
    size_t   identity_len, last_identity_len;
    int      last_fd;           /* the connection of the last message */
    int      greeted;
    int      fd;                /* the seat's own connection (ZMQ_SRCFD), once greeted */
    char     rejected[32];      /* before the hello: the reason of the last message */
    char     rejected_why[160]; /* dropped, and why (for a handshake timeout) */
    int      dropped_msgs;      /* messages from other connections, dropped */
    ref_proc proc;
    int      spawned;
    int64_t  bank_us;
    int      strikes;
    int64_t  dropped_at;        /* a disconnect seen, not yet judged */
    int      came_back;
    uint32_t stale_below;       /* late replies to ids below this are dropped */
    size_t   told;              /* decisions this seat has had updates for */
    int      may_have_exited;   /* its pidfd fired (or there is none) */
    ref_meter meter;            /* its CPU time and CPU waiting so far */
    int      frozen;            /* its control group is frozen (not on move) */
    int      pondered;          /* it ran between its turns: frozen there from now on */
    uint64_t off_turn_ns;       /* CPU it ran between its turns, in all */
    uint64_t turn_end_ns;       /* its CPU time when its last turn ended */
} seat;

typedef struct match {
    const ref_config *cfg;
    const game_api *g;
    void    *ctx;
    seat     seats[GAME_MAX_SEATS];
    int      n;
    void    *state;
    game_action *legal;
    ref_record *rec;
    ref_dir  folder;
    const char *dir;            /* folder.path */
    const ref_sandbox *sandbox;
    int64_t  limits_checked;    /* when the cgroups were last looked at */
    int      cpus;              /* this process may run on so many */
    int      freeze;            /* bots are frozen between their turns */
    int      own_schedstat;     /* this thread's, open: its own wait for a CPU */
    int      mover;             /* the seat whose turn it is, -1 between turns */
    ref_clock_mode mode;        /* the config's, unless CPU time is unknown here */
    int      over;              /* a forfeit ended it */
    msgpack_sbuffer sb;
    uint32_t next_id;
    uint64_t substitute_rng;
    const char **decision_names;    /* per recorded decision, for updates */
    int64_t  spawned;           /* control clock when the bots were started */
} match;

/* The time control's clock (the config's); grace periods and polling
 * read the machine's monotonic clock. */
static int64_t control_now(const match *m)
{
    return clk_now_us(m->cfg->clock);
}

void ref_config_default(ref_config *c)
{
    memset(c, 0, sizeof *c);
    c->move_ms = 1000;
    c->bank_ms = 10000;
    c->clock_mode = REF_CLOCK_CPU;
    c->wall_ceiling = 3;
    c->handshake_ms = 10000;
    c->max_message = 1 << 20;
    c->limits.cpu_seconds = 600;
    c->limits.memory_bytes = (uint64_t)2 << 30;
    c->limits.max_processes = 512;     /* processes and threads of one bot */
    c->limits.max_open_files = 256;
    c->limits.log_bytes = 1 << 20;
    c->transport = "ipc";
}

int ref_clock_mode_parse(const char *text, ref_clock_mode *out)
{
    if (!strcmp(text, "cpu"))
        *out = REF_CLOCK_CPU;
    else if (!strcmp(text, "wall"))
        *out = REF_CLOCK_WALL;
    else
        return -1;
    return 0;
}

const char *ref_clock_mode_name(ref_clock_mode mode)
{
    return mode == REF_CLOCK_WALL ? "wall" : "cpu";
}

static void forfeit(match *m, int culprit, const char *reason, const char *fmt, ...)
{
    if (m->over)
        return;
    m->over = 1;
    ref_record *r = m->rec;
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    r->culprit = culprit;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
    int team = m->g->team_of(m->state, culprit), none = !strcmp(reason, REF_CONTENDED);
    for (int i = 0; i < m->n; i++)
        r->score[i] = none || m->g->team_of(m->state, i) == team ? 0 : 1;
}

/* ---- sockets ------------------------------------------------------------ */

static void unreachable(match *m, int i, int err);

static int send_msg(match *m, int i)
{
    seat *s = &m->seats[i];
    if (zmq_send(s->sock, s->identity, s->identity_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
        zmq_send(s->sock, m->sb.data, m->sb.size, ZMQ_DONTWAIT) < 0) {
        if (errno == EAGAIN)
            forfeit(m, i, REF_TIMEOUT, "seat %d stopped reading its messages", i);
        else
            unreachable(m, i, errno);
        return -1;
    }
    return 0;
}

static int open_seat(match *m, int i, char *err, size_t size)
{
    seat *s = &m->seats[i];
    int linger = 0, mandatory = 1, hwm = 100000;
    int64_t max = m->cfg->max_message;
    char addr[300], monitor[64];
    s->sock = zmq_socket(m->ctx, ZMQ_ROUTER);
    if (!s->sock)
        goto fail;
    zmq_setsockopt(s->sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(s->sock, ZMQ_ROUTER_MANDATORY, &mandatory, sizeof mandatory);
    zmq_setsockopt(s->sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s->sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    snprintf(monitor, sizeof monitor, "inproc://monitor-%d", i);
    if (zmq_socket_monitor(s->sock, monitor, ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED) < 0)
        goto fail;
    s->monitor = zmq_socket(m->ctx, ZMQ_PAIR);
    if (!s->monitor || zmq_connect(s->monitor, monitor) < 0)
        goto fail;
    if (strcmp(m->cfg->transport, "tcp") == 0) {
        snprintf(addr, sizeof addr, "tcp://127.0.0.1:*");
    } else {
        /* The seat's own folder: given to its bot's user alone, and all a
         * sandboxed bot sees of the referee. */
        snprintf(addr, sizeof addr, "%s/seat%d", m->dir, i);
        if (mkdir(addr, 0700) != 0)
            goto fail;
        snprintf(addr, sizeof addr, "ipc://%s/seat%d/" REF_SEAT_SOCKET, m->dir, i);
    }
    if (zmq_bind(s->sock, addr) < 0)
        goto fail;
    size_t len = sizeof s->endpoint;
    zmq_getsockopt(s->sock, ZMQ_LAST_ENDPOINT, s->endpoint, &len);

    uint8_t secret[16];
    if (getrandom(secret, sizeof secret, 0) != (ssize_t)sizeof secret)
        goto fail;
    for (int k = 0; k < 16; k++)
        snprintf(s->token + 2 * k, 3, "%02x", secret[k]);
    s->bank_us = m->cfg->bank_ms * 1000;
    return 0;
fail:
    snprintf(err, size, "seat %d: cannot set up its socket: %s", i, zmq_strerror(errno));
    return -1;
}

uint32_t ref_bot_seed(uint64_t match_seed, int seat_index)
{
    /* SplitMix64's finalizer over the seed and the seat: neighbouring
     * seeds and seats give unrelated values. */
    uint64_t z = match_seed + 0x9E3779B97F4A7C15ull * (uint64_t)(seat_index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(z % 0x7FFFFFFFu) + 1;
}

static void start_bot(match *m, int i)
{
    seat *s = &m->seats[i];
    const ref_config *c = m->cfg;
    int tcp = strcmp(c->transport, "tcp") == 0;
    char env_endpoint[340], env_token[64], env_seat[32], env_seed[32], log[400], err[512],
         share[128];
    /* Inside a sandbox the seat's folder is seen at REF_SANDBOX_SHARE. */
    if (!tcp && m->sandbox->namespaces)
        snprintf(env_endpoint, sizeof env_endpoint,
                 "ARENA_ENDPOINT=ipc://" REF_SANDBOX_SHARE "/" REF_SEAT_SOCKET);
    else
        snprintf(env_endpoint, sizeof env_endpoint, "ARENA_ENDPOINT=%s", s->endpoint);
    snprintf(env_token, sizeof env_token, "ARENA_TOKEN=%s", s->token);
    snprintf(env_seat, sizeof env_seat, "ARENA_SEAT=%d", i);
    snprintf(env_seed, sizeof env_seed, "ARENA_BOT_SEED=%" PRIu32, ref_bot_seed(c->seed, i));
    char *env[64] = { env_endpoint, env_token, env_seat, env_seed, "ARENA_PROTOCOL=1" };
    for (int k = 0, n = 5; c->bot_env[i] && c->bot_env[i][k] && n < 63; k++)
        env[n++] = c->bot_env[i][k];
    snprintf(log, sizeof log, "%s/seat%d.log", c->log_dir ? c->log_dir : m->dir, i);
    snprintf(share, sizeof share, "%s/seat%d", m->dir, i);
    ref_spawn spawn = { .cmd = c->bot_cmd[i], .cwd = c->bot_cwd[i], .env = env,
                        .lim = &c->limits, .log_path = log, .sandbox = m->sandbox,
                        .share_dir = tcp ? NULL : share, .share_net = tcp };
    if (ref_proc_start(&s->proc, &spawn, err, sizeof err) < 0) {
        forfeit(m, i, REF_CRASH, "seat %d could not start: %s", i, err);
        return;
    }
    s->spawned = 1;
    if (s->proc.shared_uid) {
        size_t len = strlen(m->rec->isolation);
        snprintf(m->rec->isolation + len, sizeof m->rec->isolation - len,
                 " referee-uid(seat %d)", i);
    }
}

/* A bot whose control group hit a limit loses for it, whatever it is
 * doing: the OOM killer may have ended only one of its processes, and a
 * refused fork may leave it running. */
static int judge_limits(match *m, int i)
{
    seat *s = &m->seats[i];
    ref_cg_usage u;
    if (!s->spawned)
        return 0;
    ref_proc_usage(&s->proc, &u);
    if (u.oom_kills)
        forfeit(m, i, REF_MEMORY, "seat %d went over its memory limit of %" PRIu64
                " MiB (the kernel killed %" PRIu64 " of its processes)", i,
                m->cfg->limits.memory_bytes >> 20, u.oom_kills);
    else if (u.task_limit_hits)
        forfeit(m, i, REF_PROCESSES, "seat %d went over its limit of %u processes and "
                "threads", i, m->cfg->limits.max_processes);
    else
        return 0;
    return 1;
}

static void watch_pondering(match *m, int j);

/* Every LIMITS_EVERY_US, or at once when `now` is set; the bots between
 * their turns are watched for pondering then too. */
static void check_limits(match *m, int now)
{
    int64_t t = clk_mono_us();
    if (!m->sandbox->cg.features || (!now && t - m->limits_checked < LIMITS_EVERY_US))
        return;
    m->limits_checked = t;
    for (int i = 0; i < m->n && !m->over; i++)
        judge_limits(m, i);
    for (int i = 0; i < m->n && !m->over; i++)
        watch_pondering(m, i);
}

/* ---- the poll loop ------------------------------------------------------ */

static void judge_exit(match *m, int i)
{
    if (judge_limits(m, i))
        return;
    char text[128];
    int st = m->seats[i].proc.status;
    ref_proc_exit_text(st, text, sizeof text);
    int clean = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    forfeit(m, i, clean ? REF_EXIT : REF_CRASH, "seat %d's bot %s", i, text);
}

static void read_monitor(match *m, int i)
{
    seat *s = &m->seats[i];
    zmq_msg_t ev, addr;
    zmq_msg_init(&ev);
    zmq_msg_init(&addr);
    if (zmq_msg_recv(&ev, s->monitor, ZMQ_DONTWAIT) >= 0 && zmq_msg_more(&ev) &&
        zmq_msg_recv(&addr, s->monitor, ZMQ_DONTWAIT) >= 0 && zmq_msg_size(&ev) >= 6) {
        uint16_t event;
        int32_t fd;
        memcpy(&event, zmq_msg_data(&ev), sizeof event);
        memcpy(&fd, (const char *)zmq_msg_data(&ev) + 2, sizeof fd);
        /* Only the seat's own connection can be lost: another process that
         * connects and leaves changes nothing. */
        if (event == ZMQ_EVENT_DISCONNECTED && s->greeted && fd == s->fd && !s->dropped_at)
            s->dropped_at = clk_mono_us();
        else if (event == ZMQ_EVENT_ACCEPTED && s->dropped_at)
            s->came_back = 1;
    }
    zmq_msg_close(&ev);
    zmq_msg_close(&addr);
}

/* ZeroMQ dropped the seat's connection for a message over the limit. */
static void forfeit_oversized(match *m, int i)
{
    forfeit(m, i, REF_OVERSIZED,
            "seat %d sent a message over %" PRId64 " bytes; its connection was dropped", i,
            m->cfg->max_message);
}

/* A seat ZeroMQ cannot reach: its connection went away. A bot that is
 * exiting gets EXIT_WAIT_US to do so, so that a crash reads `crash`, not
 * `disconnect`, whichever the referee notices first (one bug, one reason). */
static void unreachable(match *m, int i, int err)
{
    seat *s = &m->seats[i];
    int64_t until = clk_mono_us() + EXIT_WAIT_US;
    while (s->spawned && !ref_proc_exited(&s->proc) && clk_mono_us() < until)
        usleep(2000);
    if (s->spawned && ref_proc_exited(&s->proc))
        judge_exit(m, i);
    else
        forfeit(m, i, REF_DISCONNECT, "seat %d cannot be reached: %s", i, zmq_strerror(err));
}

/* A seat's bot exited, or its connection is judged gone. */
static void check_seat(match *m, int i)
{
    seat *s = &m->seats[i];
    if (s->spawned && (s->may_have_exited || s->proc.pidfd < 0) && ref_proc_exited(&s->proc)) {
        judge_exit(m, i);
        return;
    }
    if (s->dropped_at && clk_mono_us() - s->dropped_at > DROP_GRACE_US) {
        if (s->came_back) {
            forfeit_oversized(m, i);
            return;
        }
        /* Meanwhile a late reconnection still reads as an oversized message. */
        int64_t until = clk_mono_us() + EXIT_WAIT_US;
        while (s->spawned && !ref_proc_exited(&s->proc) && !s->came_back &&
               clk_mono_us() < until) {
            read_monitor(m, i);
            usleep(2000);
        }
        if (s->came_back)
            forfeit_oversized(m, i);
        else if (s->spawned && ref_proc_exited(&s->proc))
            judge_exit(m, i);
        else
            forfeit(m, i, REF_DISCONNECT, "seat %d closed its connection", i);
    }
}

/* Notes a message that is not the seat's own: dropped, and said once in
 * the seat's log and on stderr with --verbose, never held against it. */
static void drop(match *m, int i, const char *why)
{
    seat *s = &m->seats[i];
    if (s->dropped_msgs++ == 0 && m->cfg->verbose)
        fprintf(stderr, "referee: seat %d: dropped a message: %s\n", i, why);
    if (s->dropped_msgs <= 3 && s->spawned && s->proc.log_fd >= 0) {
        char line[300];
        int n = snprintf(line, sizeof line, "[arena: dropped a message on this seat's "
                         "endpoint: %s]\n", why);
        (void)!write(s->proc.log_fd, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
    }
}

/* Receives one message on seat i's socket: identity frame, one payload
 * frame. Returns 0 with *msg decoded, 1 when there was nothing for the
 * referee (a message from another connection is dropped), or -1 after a
 * forfeit, which only the seat's own connection can cause. */
static int receive(match *m, int i, msgpack_unpacked *msg)
{
    seat *s = &m->seats[i];
    zmq_msg_t id, body;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    int frames = 0, rc = -1;
    if (zmq_msg_recv(&id, s->sock, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&id);
        zmq_msg_close(&body);
        return 1;       /* nothing after all */
    }
    int more = zmq_msg_more(&id);
    if (more && zmq_msg_recv(&body, s->sock, 0) >= 0) {
        frames = 1;
        more = zmq_msg_more(&body);
    }
    while (more) {      /* extra frames: read them all, then complain */
        zmq_msg_t extra;
        zmq_msg_init(&extra);
        zmq_msg_recv(&extra, s->sock, 0);
        more = zmq_msg_more(&extra);
        zmq_msg_close(&extra);
        frames++;
    }
    size_t idlen = zmq_msg_size(&id);
    if (idlen > sizeof s->last_identity)
        idlen = sizeof s->last_identity;
    memcpy(s->last_identity, zmq_msg_data(&id), idlen);
    s->last_identity_len = idlen;
    s->last_fd = frames ? zmq_msg_get(&body, ZMQ_SRCFD) : -1;
    int own = s->greeted && idlen == s->identity_len && !memcmp(s->identity, s->last_identity,
                                                                 idlen);
    const char *bad = NULL;
    char why[160];
    if (frames != 1) {
        snprintf(why, sizeof why, "seat %d sent %d frames; one is expected", i, frames);
        bad = why;
    } else if (mps_decode(zmq_msg_data(&body), zmq_msg_size(&body), msg) < 0) {
        snprintf(why, sizeof why, "seat %d sent %zu bytes that are not one msgpack value", i,
                 zmq_msg_size(&body));
        bad = why;
    } else if (msg->data.type != MSGPACK_OBJECT_MAP) {
        msgpack_unpacked_destroy(msg);
        snprintf(why, sizeof why, "seat %d sent a message that is not a map", i);
        bad = why;
    } else {
        rc = 0;
    }
    if (s->greeted && !own) {
        if (rc == 0)
            msgpack_unpacked_destroy(msg);
        drop(m, i, "from a connection that is not the seat's own");
        rc = 1;
    } else if (bad && !s->greeted) {
        /* Before a valid hello nothing is the seat's own yet. */
        snprintf(s->rejected, sizeof s->rejected, "%s", REF_MALFORMED);
        snprintf(s->rejected_why, sizeof s->rejected_why, "%s", bad);
        drop(m, i, bad);
        rc = 1;
    } else if (bad) {
        forfeit(m, i, REF_MALFORMED, "%s", bad);
    }
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    return rc;
}

/* Waits until `until` (on the time control's clock) for a well-formed
 * message. Returns the seat it came from (with *msg decoded), -1 when time
 * ran out, -2 after a forfeit.
 *
 * Most answers come within a few milliseconds, so the first 5 ms of a wait
 * watch only the sockets, output pipes and exits; the monitors, which only
 * matter once a bot is slow to answer, join after that. Each socket in a
 * poll costs ZeroMQ several system calls. */
#define QUICK_US 5000

static int next_message(match *m, int64_t until, msgpack_unpacked *msg)
{
    zmq_pollitem_t items[GAME_MAX_SEATS * 4];
    int owner[GAME_MAX_SEATS * 4], kind[GAME_MAX_SEATS * 4];
    enum { SOCK, MONITOR, OUTPUT, EXIT };
    int64_t quick_until = clk_mono_us() + QUICK_US;
    for (;;) {
        if (m->over)
            return -2;
        int64_t mono = clk_mono_us(), left = until - control_now(m);
        if (left < 0)
            return -1;
        int full = mono >= quick_until;
        long wait_ms = full ? left / 1000 + 1 : (quick_until - mono) / 1000 + 1;
        int k = 0;
        for (int i = 0; i < m->n; i++) {
            seat *s = &m->seats[i];
            items[k] = (zmq_pollitem_t){ s->sock, 0, ZMQ_POLLIN, 0 };
            owner[k] = i, kind[k++] = SOCK;
            if (full || s->dropped_at) {
                items[k] = (zmq_pollitem_t){ s->monitor, 0, ZMQ_POLLIN, 0 };
                owner[k] = i, kind[k++] = MONITOR;
            }
            if (s->spawned && s->proc.out_fd >= 0) {
                items[k] = (zmq_pollitem_t){ NULL, s->proc.out_fd, ZMQ_POLLIN, 0 };
                owner[k] = i, kind[k++] = OUTPUT;
            }
            if (s->spawned && s->proc.pidfd >= 0 && !s->proc.exited) {
                items[k] = (zmq_pollitem_t){ NULL, s->proc.pidfd, ZMQ_POLLIN, 0 };
                owner[k] = i, kind[k++] = EXIT;
            }
            if (s->dropped_at || (s->spawned && s->proc.pidfd < 0))
                wait_ms = wait_ms < 20 ? wait_ms : 20;    /* judge without a wakeup */
        }
        if (m->sandbox->cg.features && wait_ms > LIMITS_EVERY_US / 1000)
            wait_ms = LIMITS_EVERY_US / 1000;
        check_limits(m, 0);
        if (m->over)
            return -2;
        if (zmq_poll(items, k, wait_ms) < 0 && errno != EINTR)
            return -1;
        /* Output and connection events first: they explain what follows. */
        for (int j = 0; j < k; j++) {
            if (!(items[j].revents & (ZMQ_POLLIN | ZMQ_POLLERR)))
                continue;
            if (kind[j] == OUTPUT)
                ref_proc_drain(&m->seats[owner[j]].proc);
            else if (kind[j] == MONITOR)
                read_monitor(m, owner[j]);
            else if (kind[j] == EXIT)
                m->seats[owner[j]].may_have_exited = 1;
        }
        for (int i = 0; i < m->n; i++)
            check_seat(m, i);
        if (m->over)
            return -2;
        for (int j = 0; j < k; j++)
            if (kind[j] == SOCK && (items[j].revents & ZMQ_POLLIN)) {
                int rc = receive(m, owner[j], msg);
                if (rc == 0)
                    return owner[j];
                if (rc < 0)
                    return -2;
            }
    }
}

/* ---- handshake ---------------------------------------------------------- */

/* Before a valid hello, a message is dropped and remembered: it may come
 * from any process that found the endpoint, not the seat's bot. */
static void reject(match *m, int i, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reject(match *m, int i, const char *reason, const char *fmt, ...)
{
    seat *s = &m->seats[i];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->rejected_why, sizeof s->rejected_why, fmt, ap);
    va_end(ap);
    snprintf(s->rejected, sizeof s->rejected, "%s", reason);
    drop(m, i, s->rejected_why);
}

static void greet(match *m, int i, const msgpack_object *hello)
{
    seat *s = &m->seats[i];
    ref_record *r = m->rec;
    char why[128];
    if (s->greeted) {
        forfeit(m, i, REF_OUT_OF_TURN, "seat %d: a second hello, or a message before its "
                "request", i);
        return;
    }
    const char *bad = ref_hello_read(hello, s->token, r->name[i], sizeof r->name[i],
                                     r->version[i], sizeof r->version[i], why, sizeof why);
    if (bad) {
        reject(m, i, bad, "seat %d: %s", i, why);
        return;
    }
    if (!r->name[i][0])
        snprintf(r->name[i], sizeof r->name[i], "seat%d", i);
    memcpy(s->identity, s->last_identity, s->last_identity_len);
    s->identity_len = s->last_identity_len;
    s->fd = s->last_fd;
    s->greeted = 1;
    int64_t took = control_now(m) - m->spawned;
    r->hello_micros[i] = took < 1 ? 1 : took > UINT32_MAX ? UINT32_MAX : (uint32_t)took;
    m->sb.size = 0;
    ref_msg_welcome(&m->sb, m->g, r->options, i, m->n, m->g->team_of(m->state, i),
                    (ref_clock){ m->cfg->move_ms, s->bank_us / 1000 });
    send_msg(m, i);
}

static void handshake(match *m)
{
    int64_t until = control_now(m) + m->cfg->handshake_ms * 1000;
    for (;;) {
        int waiting = -1;
        for (int i = m->n - 1; i >= 0; i--)
            if (!m->seats[i].greeted)
                waiting = i;
        if (waiting < 0 || m->over)
            return;
        msgpack_unpacked msg;
        int from = next_message(m, until, &msg);
        if (from == -1)
            check_limits(m, 1);
        seat *w = &m->seats[waiting];
        if (from == -1 && w->rejected[0])
            forfeit(m, waiting, w->rejected, "%s, and no valid hello came within %" PRId64
                    " ms", w->rejected_why, m->cfg->handshake_ms);
        else if (from == -1)
            forfeit(m, waiting, REF_TIMEOUT, "seat %d sent no hello within %" PRId64 " ms",
                    waiting, m->cfg->handshake_ms);
        if (from < 0)
            return;
        greet(m, from, &msg.data);
        msgpack_unpacked_destroy(&msg);
    }
}

/* ---- decisions ---------------------------------------------------------- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* An illegal action or a timeout: a strike and a random legal action, or
 * the forfeit. Returns 0 with *chosen set, or -1. */
static int strike(match *m, int i, int nlegal, const char *reason, const char *detail,
                  game_action *chosen)
{
    seat *s = &m->seats[i];
    if (++s->strikes >= m->cfg->strikes) {
        if (m->cfg->strikes > 0)
            forfeit(m, i, reason, "seat %d: %s (strike %d of %d)", i, detail, s->strikes,
                    m->cfg->strikes);
        else
            forfeit(m, i, reason, "seat %d: %s", i, detail);
        return -1;
    }
    *chosen = m->legal[splitmix(&m->substitute_rng) % (uint64_t)nlegal];
    return 0;
}

/* Reads a reply's action (ref_reply.c). Returns 0 with *out, 1 for an
 * illegal action (why says what), or -1 after a malformed one's forfeit. */
static int resolve(match *m, int i, const msgpack_object *reply, int nlegal, game_action *out,
                   char *why, size_t size)
{
    int index;
    int rc = ref_action_read(reply, m->g, m->legal, nlegal, &index, why, size);
    if (rc < 0)
        forfeit(m, i, REF_MALFORMED, "seat %d's action %s", i, why);
    else if (rc == 0)
        *out = m->legal[index];
    return rc;
}

/* Sends seat i the updates it has not had. They go out in a burst just
 * before its next request (or the end) rather than after each decision,
 * so a decision wakes only the bot that makes it. */
static int tell(match *m, int i)
{
    seat *s = &m->seats[i];
    for (; s->told < m->rec->ndecisions && !m->over; s->told++) {
        const ref_decision *d = &m->rec->decisions[s->told];
        m->sb.size = 0;
        ref_msg_update(&m->sb, m->g, (uint32_t)s->told + 1, d->seat,
                       m->decision_names[s->told], d->action, i);
        if (send_msg(m, i) < 0)
            return -1;
    }
    return m->over ? -1 : 0;
}

/* ---- charging decisions (ref_match.h: the clocks) ---------------------- */

/* Brings seat s's meter up to now, unless the match is unmetered (its
 * figures then stay unknown). */
static void sample(const match *m, seat *s)
{
    if (!m->cfg->unmetered)
        ref_meter_sample(&s->meter, &s->proc);
}

/* Freezes or thaws seat i, where bots are frozen between their turns. */
static void hold(match *m, int i, int frozen)
{
    seat *s = &m->seats[i];
    if (!m->freeze || !s->spawned || !s->proc.live || s->frozen == frozen)
        return;
    if (ref_cg_freeze(&s->proc.cg, frozen) == 0)
        s->frozen = frozen;
}

/* Bots are frozen between their turns only once they are seen to think
 * there: freezing and thawing at every turn wakes every thread of the bot
 * twice, which for a fast bot costs more than its decision; a bot that
 * sleeps between its turns never needs it. A bot seen running more than
 * PONDER_NS of CPU between its turns, in all, is frozen between them from
 * then on. It is seen when a turn ends and at each limits check (every
 * LIMITS_EVERY_US), so what it takes from other matches is bounded; what it
 * ran is charged to its next decision (decide: cpu0) all the same. */
#define PONDER_NS 10000000ULL

/* Marks seat j pondering if it has run more than PONDER_NS between turns. */
static void watch_pondering(match *m, int j)
{
    seat *s = &m->seats[j];
    if (!m->freeze || s->pondered || j == m->mover || !s->spawned || !s->proc.live)
        return;
    uint64_t cpu = ref_cg_cpu_ns(&s->proc.cg);
    if (cpu > s->turn_end_ns)
        s->off_turn_ns += cpu - s->turn_end_ns;
    s->turn_end_ns = cpu > s->turn_end_ns ? cpu : s->turn_end_ns;
    if (s->off_turn_ns > PONDER_NS) {
        s->pondered = 1;
        hold(m, j, 1);
    }
}

/* Seat i's turn begins (its request is sent): thawed if it was frozen.
 * Done after the send, a thawed bot finds its request waiting instead of
 * being woken twice. */
static void begin_turn(match *m, int i)
{
    m->mover = i;
    hold(m, i, 0);
}

/* Seat i's turn has ended: it is frozen if it ponders; the others are
 * looked at, having waited through its turn. */
static void end_turn(match *m, int i)
{
    seat *s = &m->seats[i];
    m->mover = -1;
    s->turn_end_ns = s->meter.cpu_ns;
    if (s->pondered)
        hold(m, i, 1);
    for (int j = 0; j < m->n; j++)
        if (j != i)
            watch_pondering(m, j);
}

/* After the handshake: every bot's meter started and every bot frozen,
 * where the freezer lets a frozen bot die with its referee; the clock line. */
static void start_clocks(match *m)
{
    const ref_config *c = m->cfg;
    int measured = 1;
    m->freeze = !c->ponder && !c->unmetered;
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        if (!s->spawned || !s->proc.cg.sys || !ref_cg_freeze_kills(s->proc.cg.sys))
            m->freeze = 0;
        sample(m, s);
        measured &= s->meter.cpu_known || !s->spawned;
    }
    cpu_set_t set;
    m->cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    m->mode = measured ? c->clock_mode : REF_CLOCK_WALL;
    m->mover = -1;
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        s->turn_end_ns = s->meter.cpu_ns;
        /* Without the group's CPU time, pondering cannot be seen: frozen
         * between turns from the start. */
        s->pondered = s->spawned && s->proc.cg.cpu_fd < 0;
        if (s->pondered)
            hold(m, i, 1);
    }
    char ceiling[40] = "";
    if (m->mode == REF_CLOCK_CPU)
        snprintf(ceiling, sizeof ceiling, " ceiling=%g", c->wall_ceiling);
    snprintf(m->rec->clock, sizeof m->rec->clock, "%s%s between=%s%s",
             ref_clock_mode_name(m->mode), ceiling,
             c->ponder || c->unmetered ? "ponder" : m->freeze ? "frozen" : "charged",
             c->unmetered                 ? " (unmetered)"
             : m->mode != c->clock_mode   ? " (no CPU time here)" : "");
}

static uint32_t clamp_us(int64_t us)
{
    return us < 0 ? 0 : us >= REF_UNMEASURED ? REF_UNMEASURED - 1 : (uint32_t)us;
}

/* The wait before the next look at a bot's CPU time: it cannot use the
 * rest of its budget faster than on every CPU at once. */
static int64_t cpu_look(const match *m, int64_t left_us)
{
    int64_t step = left_us / (m->cpus > 0 ? m->cpus : 1);
    return step < 1000 ? 1000 : step > 50000 ? 50000 : step;
}

/* A decision that timed out: contended (ends the match, nobody charged),
 * or a strike against the seat. */
static int timed_out(match *m, int i, int nlegal, int64_t budget, int64_t cpu_used,
                     int64_t own_wait, ref_decision *d)
{
    seat *s = &m->seats[i];
    int cpu = m->mode == REF_CLOCK_CPU;
    /* The machine's share: the bot's wait for a CPU, and the referee's own
     * over the decision (a starved referee reads an answer late). */
    int64_t wait = s->meter.wait_known ? (int64_t)d->wait_us : -1;
    if (own_wait > 0)
        wait = (wait > 0 ? wait : 0) + own_wait;
    int starved = cpu && d->micros >= (uint64_t)(budget * m->cfg->wall_ceiling) * REF_STARVED;
    if ((!cpu || starved) &&
        ref_meter_contended(budget, d->micros, s->meter.cpu_known ? cpu_used : -1, wait)) {
        forfeit(m, i, REF_CONTENDED, "seat %d had no action within %u ms, having used %"
                PRId64 " ms of CPU and waited %" PRId64 " ms for one: the machine is "
                "overloaded", i, d->micros / 1000, cpu_used / 1000, wait / 1000);
        return -1;
    }
    s->bank_us = 0;
    d->substituted = 1;
    char detail[128];
    if (cpu && cpu_used > budget)
        snprintf(detail, sizeof detail, "used %" PRId64 " ms of CPU, over its %" PRId64
                 " ms", cpu_used / 1000, budget / 1000);
    else
        snprintf(detail, sizeof detail, "no action within %u ms%s", d->micros / 1000,
                 cpu ? " (the wall ceiling, not counting its wait for a CPU)" : "");
    return strike(m, i, nlegal, REF_TIMEOUT, detail, &d->action);
}

/* Asks the seat to move for one decision; 0 with d filled, -1 if it ended. */
static int decide(match *m, int i, int nlegal, uint32_t id, ref_decision *d)
{
    seat *s = &m->seats[i];
    const ref_config *c = m->cfg;
    if (tell(m, i) < 0)
        return -1;
    m->sb.size = 0;
    ref_msg_request(&m->sb, m->g, m->state, i, id, m->legal, nlegal,
                    (ref_clock){ c->move_ms, s->bank_us / 1000 });
    /* Without pondering, what the bot used since its last decision ended
     * (nothing when it was frozen) is charged to this one. */
    if (c->ponder)
        sample(m, s);
    uint64_t cpu0 = s->meter.cpu_ns, wait0 = s->meter.wait_ns;
    int cpu = m->mode == REF_CLOCK_CPU;
    int64_t budget = c->move_ms * 1000 + s->bank_us, sent = control_now(m);
    /* The wall ceiling counts the time the bot was not waiting for a CPU
     * (sleeping, blocked, or running), so that a starved bot is never
     * charged; a hard limit, REF_STARVED times that, ends even one the
     * machine starves for good (contended). */
    int64_t ceiling = (int64_t)((double)budget * c->wall_ceiling);
    int64_t until = sent + (cpu ? ceiling * REF_STARVED : budget);
    int64_t own0 = ref_meter_own_wait_us(m->own_schedstat);
    if (send_msg(m, i) < 0)
        return -1;
    begin_turn(m, i);
    d->seat = (uint8_t)i;
    d->substituted = 0;
    for (;;) {
        msgpack_unpacked msg;
        int64_t wake = until;
        if (cpu) {
            int64_t look = control_now(m) +
                           cpu_look(m, budget - (int64_t)(s->meter.cpu_ns - cpu0) / 1000);
            wake = look < wake ? look : wake;
        }
        int from = next_message(m, wake, &msg);
        int64_t wall = control_now(m) - sent;
        sample(m, s);
        int64_t cpu_used = (int64_t)(s->meter.cpu_ns - cpu0) / 1000;
        int64_t used = cpu ? cpu_used : wall;
        d->micros = clamp_us(wall);
        d->cpu_us = s->meter.cpu_known ? clamp_us(cpu_used) : REF_UNMEASURED;
        d->wait_us = s->meter.wait_known ? clamp_us((int64_t)(s->meter.wait_ns - wait0) / 1000)
                                         : REF_UNMEASURED;
        if (from == -2)
            return -1;
        int64_t waited = d->wait_us == REF_UNMEASURED ? 0 : d->wait_us;
        int late = used > budget || sent + wall > until ||
                   (cpu && wall - (waited < wall ? waited : wall) > ceiling);
        if (from == -1 && !late)
            continue;                          /* a look at its CPU time */
        if (from >= 0 && late) {
            msgpack_unpacked_destroy(&msg);    /* it came, but after the deadline */
            from = -1;
        }
        if (from == -1)
            check_limits(m, 1);
        if (m->over)
            return -1;
        if (from == -1) {
            s->stale_below = id + 1;
            int64_t own = own0 >= 0 ? ref_meter_own_wait_us(m->own_schedstat) - own0 : -1;
            return timed_out(m, i, nlegal, budget, cpu_used, own, d);
        }
        char type[16];
        int64_t got_id = -1;
        int typed = mps_get_str(&msg.data, "type", type, sizeof type) == 0 &&
                    strcmp(type, "action") == 0;
        mps_get_int(&msg.data, "id", &got_id);
        if (typed && got_id >= 0 && got_id < m->seats[from].stale_below) {
            msgpack_unpacked_destroy(&msg);     /* a late answer to a past timeout */
            continue;
        }
        if (from != i || !typed || got_id != id) {
            msgpack_unpacked_destroy(&msg);
            forfeit(m, from, REF_OUT_OF_TURN, "seat %d sent %s out of turn", from,
                    typed ? "an action" : "a message");
            return -1;
        }
        char why[160];
        int bad = resolve(m, i, &msg.data, nlegal, &d->action, why, sizeof why);
        msgpack_unpacked_destroy(&msg);
        if (bad < 0)
            return -1;
        int64_t over = used - c->move_ms * 1000;
        if (over > 0)
            s->bank_us = s->bank_us > over ? s->bank_us - over : 0;
        if (bad) {
            d->substituted = 1;
            return strike(m, i, nlegal, REF_ILLEGAL, why, &d->action);
        }
        return 0;
    }
}

static void play(match *m)
{
    const game_api *g = m->g;
    size_t capacity = 0;
    while (!m->over) {
        int i = g->to_move(m->state);
        if (i < 0)
            return;
        int nlegal = g->legal(m->state, m->legal);
        uint32_t id = ++m->next_id;
        const char *decision = g->decision_name(m->state);
        ref_decision d;
        if (decide(m, i, nlegal, id, &d) < 0)
            return;
        end_turn(m, i);
        if (m->rec->ndecisions == capacity) {
            capacity = capacity ? 2 * capacity : 512;
            const char **names = realloc(m->decision_names, capacity * sizeof *names);
            if (!names) {
                forfeit(m, i, REF_CRASH, "referee out of memory");
                return;
            }
            m->decision_names = names;
        }
        m->decision_names[m->rec->ndecisions] = decision;
        if (ref_record_add(m->rec, &d) < 0) {
            forfeit(m, i, REF_CRASH, "referee out of memory");
            return;
        }
        g->apply(m->state, d.action);
        if (m->cfg->verbose && m->next_id % 100 == 0)
            fprintf(stderr, "referee: %u decisions\n", m->next_id);
    }
}

/* ---- start and finish --------------------------------------------------- */

static void finish(match *m)
{
    ref_record *r = m->rec;
    if (!m->over && m->g->result(m->state, r->score, r->reason, sizeof r->reason, r->detail,
                                 sizeof r->detail)) {
        r->culprit = -1;
    }
    for (int i = 0; i < m->n; i++)
        hold(m, i, 0);
    /* Everyone hears the last decisions before the end. */
    for (int i = 0; i < m->n; i++)
        if (m->seats[i].greeted && !m->over)
            tell(m, i);
    m->over = 1;
    r->hash = m->g->hash(m->state);
    /* The culprit hears why first; then everyone hears the end. Sends
     * here are best effort: the match is decided whatever happens. */
    for (int pass = 0; pass < 2; pass++) {
        m->sb.size = 0;
        if (pass == 0)
            ref_msg_error(&m->sb, r->reason, r->detail);
        else
            ref_msg_end(&m->sb, r->score, m->n, r->reason, r->culprit, r->detail);
        for (int i = 0; i < m->n; i++) {
            seat *s = &m->seats[i];
            if (s->greeted && (pass == 1 || i == r->culprit)) {
                zmq_send(s->sock, s->identity, s->identity_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
                zmq_send(s->sock, m->sb.data, m->sb.size, ZMQ_DONTWAIT);
            }
        }
    }
    /* Bots may leave on their own; then whatever is left is killed. */
    int64_t until = clk_mono_us() + END_GRACE_MS * 1000;
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        while (s->spawned && !ref_proc_exited(&s->proc) && clk_mono_us() < until) {
            ref_proc_drain(&s->proc);
            usleep(2000);
        }
        if (s->spawned)
            ref_proc_kill(&s->proc, KILL_GRACE_MS);
    }
    ref_proc_reap_orphans(KILL_GRACE_MS);
}

static void release(match *m)
{
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        ref_meter_close(&s->meter);
        if (s->spawned)
            ref_proc_close(&s->proc);
        /* Stop the monitor first. A closed socket is torn down later, in
         * libzmq's threads, and an event it sends then into a monitor we
         * have closed is a message libzmq never frees (LeakSanitizer saw
         * it under load). */
        if (s->sock && s->monitor)
            zmq_socket_monitor(s->sock, NULL, 0);
        if (s->sock)
            zmq_close(s->sock);
        if (s->monitor)
            zmq_close(s->monitor);
    }
    if (m->ctx)
        zmq_ctx_term(m->ctx);
    if (m->own_schedstat >= 0)
        close(m->own_schedstat);
    ref_dir_remove(&m->folder);
    msgpack_sbuffer_destroy(&m->sb);
    free(m->decision_names);
    free(m->state);
    free(m->legal);
}

int ref_match_play(const ref_config *c, ref_record *rec, char *err, size_t size)
{
    match m;
    memset(&m, 0, sizeof m);
    m.folder.lock_fd = -1;
    m.own_schedstat = ref_meter_own_open();
    m.dir = m.folder.path;
    m.cfg = c;
    m.g = c->game;
    m.n = c->nbots;
    m.rec = rec;
    m.substitute_rng = c->seed ^ 0x5ab571707e5ULL;
    msgpack_sbuffer_init(&m.sb);
    m.state = calloc(1, m.g->state_size);
    m.legal = malloc(GAME_MAX_ACTIONS * sizeof *m.legal);
    int rc = -1;
    if (!m.state || !m.legal) {
        snprintf(err, size, "out of memory");
        goto out;
    }
    const char *why = m.g->init(m.state, c->options, c->seed);
    if (why) {
        snprintf(err, size, "%s", why);
        goto out;
    }
    if (m.g->seats(m.state) != m.n) {
        snprintf(err, size, "this game needs %d bots, %d given", m.g->seats(m.state), m.n);
        goto out;
    }
    snprintf(rec->game, sizeof rec->game, "%s", m.g->name);
    if (game_options_format(c->options, rec->options, sizeof rec->options) >= sizeof rec->options) {
        snprintf(err, size, "the game's options are too long for a record");
        goto out;
    }
    rec->seed = c->seed;
    rec->seats = m.n;
    m.sandbox = ref_sandbox_get(c->sandbox, err, size);
    if (!m.sandbox)
        goto out;
    if (!strcmp(c->transport, "tcp") && m.sandbox->namespaces && c->sandbox == REF_SANDBOX_STRICT) {
        snprintf(err, size, "--transport tcp needs the network, which --sandbox strict takes "
                 "from bots: use ipc");
        goto out;
    }
    snprintf(rec->isolation, sizeof rec->isolation, "%.230s%s", m.sandbox->isolation,
             !strcmp(c->transport, "tcp") && m.sandbox->namespaces ? " net-shared(tcp)" : "");
    static int swept;
    if (!swept++)
        ref_dir_sweep();
    if (ref_dir_make(&m.folder, err, size) < 0)
        goto out;
    m.ctx = zmq_ctx_new();
    for (int i = 0; i < m.n; i++)
        if (open_seat(&m, i, err, size) < 0)
            goto out;
    ref_proc_init_supervisor();
    m.spawned = control_now(&m);
    for (int i = 0; i < m.n; i++)
        start_bot(&m, i);
    handshake(&m);
    start_clocks(&m);
    int64_t started = control_now(&m);
    play(&m);
    rec->play_micros = (uint64_t)(control_now(&m) - started);
    finish(&m);
    rc = 0;
out:
    release(&m);
    return rc;
}

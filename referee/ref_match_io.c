/*
 * ref_match_io.c - a match's seats on the wire (ref_match_internal.h):
 * each seat's socket and its monitor, the bots' start, the one poll loop
 * that watches every socket, monitor, process exit and output pipe
 * together, and the handshake. Whatever a bot does wrong there turns into
 * a forfeit with its reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>
#include "ref_match_internal.h"
#include "ref_msg.h"
#include "ref_relay.h"
#include "ref_reply.h"

/* ---- sockets ------------------------------------------------------------ */

static void unreachable(match *m, int i, int err);

int match_send(match *m, int i)
{
    seat *s = &m->seats[i];
    if (zmq_send(s->sock, s->identity, s->identity_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
        zmq_send(s->sock, m->sb.data, m->sb.size, ZMQ_DONTWAIT) < 0) {
        if (errno == EAGAIN)
            match_forfeit(m, i, REF_TIMEOUT, "seat %d stopped reading its messages", i);
        else
            unreachable(m, i, errno);
        return -1;
    }
    return 0;
}

int match_open_seat(match *m, int i, char *err, size_t size)
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
    size_t fd_len = sizeof s->monitor_fd;
    if (!s->monitor || zmq_connect(s->monitor, monitor) < 0 ||
        zmq_getsockopt(s->monitor, ZMQ_FD, &s->monitor_fd, &fd_len) < 0)
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
    m->clocks.seat[i].bank_us = m->cfg->terms.bank_ms * 1000;
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

void match_start_bot(match *m, int i)
{
    match_watch_endpoints(m);        /* the bots started before may flood */
    if (m->over)
        return;
    seat *s = &m->seats[i];
    const ref_config *c = m->cfg;
    int tcp = strcmp(c->transport, "tcp") == 0;
    char env_endpoint[340], env_token[64], env_seat[32], env_seed[32], log[400], err[512],
         share[128];
    /* Inside a sandbox the seat's folder is seen at REF_SANDBOX_SHARE. */
    int relay = c->bot_relay[i];     /* the arena's own program: no sandbox */
    if (!tcp && m->sandbox->namespaces && !relay)
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
    /* The relay is no bot: a bot's memory limit, an address space without
     * a control group, would stop a sanitizer build of it at its start. */
    ref_limits relay_limits = m->limits;
    relay_limits.memory_bytes = 0;
    ref_spawn spawn = { .cmd = c->bot_cmd[i], .cwd = c->bot_cwd[i], .env = env,
                        .lim = relay ? &relay_limits : &m->limits, .log_path = log,
                        .sandbox = relay ? NULL : m->sandbox,
                        .share_dir = tcp || relay ? NULL : share, .share_net = tcp };
    if (ref_proc_start(&s->proc, &spawn, err, sizeof err) < 0) {
        match_forfeit(m, i, REF_CRASH, "seat %d could not start: %s", i, err);
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
        match_forfeit(m, i, REF_MEMORY,
                      "seat %d went over its memory limit of %" PRIu64
                      " MiB (the kernel killed %" PRIu64 " of its processes)",
                      i, m->limits.memory_bytes >> 20, u.oom_kills);
    else if (u.task_limit_hits)
        match_forfeit(m, i, REF_PROCESSES,
                      "seat %d went over its limit of %u processes and "
                      "threads",
                      i, m->limits.max_processes);
    else
        return 0;
    return 1;
}

/* Every LIMITS_EVERY_US, or at once when `now` is set; the bots between
 * their turns are watched for pondering then too. */
void match_check_limits(match *m, int now)
{
    int64_t t = clk_mono_us();
    if (!m->sandbox->cg.features || (!now && t - m->limits_checked < LIMITS_EVERY_US))
        return;
    m->limits_checked = t;
    for (int i = 0; i < m->n && !m->over; i++)
        judge_limits(m, i);
    for (int i = 0; i < m->n && !m->over; i++)
        ref_clocks_watch(&m->clocks, i);
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
    if (m->cfg->bot_relay[i] && WIFEXITED(st) && WEXITSTATUS(st) == REF_RELAY_GONE) {
        match_forfeit(m, i, REF_DISCONNECTED, "seat %d's remote bot disconnected", i);
        return;
    }
    if (m->cfg->bot_relay[i] && WIFEXITED(st) && WEXITSTATUS(st) == REF_RELAY_ENDED) {
        match_forfeit(m, i, REF_CRASH, "seat %d's remote bot ended at its participant's machine "
                      "(its log says how)", i);
        return;
    }
    match_forfeit(m, i, clean ? REF_EXIT : REF_CRASH, "seat %d's bot %s", i, text);
}

/* A connection to seat i's endpoint was accepted. Each is a file of the
 * referee's: past REF_SEAT_CONNECTIONS the seat loses, and its endpoint is
 * unbound, which stops its listener and closes every connection it
 * accepted (the seat's own too: it hears no `end`), long before the
 * referee's file table could fill (libzmq aborts when an ipc accept finds
 * it full). Only the flooding seat's socket is touched. */
static void accepted(match *m, int i)
{
    seat *s = &m->seats[i];
    if (s->dropped_at)
        s->came_back = 1;
    if (++s->connections <= REF_SEAT_CONNECTIONS || s->closed)
        return;
    zmq_unbind(s->sock, s->endpoint);
    s->closed = 1;
    if (!m->over)
        match_forfeit(m, i, REF_FLOOD, "seat %d opened more than %d connections to its endpoint",
                      i, REF_SEAT_CONNECTIONS);
}

/* Reads every event seat i's monitor holds. */
static void read_monitor(match *m, int i)
{
    seat *s = &m->seats[i];
    for (int more = 1; more;) {
        zmq_msg_t ev, addr;
        zmq_msg_init(&ev);
        zmq_msg_init(&addr);
        more = zmq_msg_recv(&ev, s->monitor, ZMQ_DONTWAIT) >= 0 && zmq_msg_more(&ev) &&
               zmq_msg_recv(&addr, s->monitor, ZMQ_DONTWAIT) >= 0;
        if (more && zmq_msg_size(&ev) >= 6) {
            uint16_t event;
            int32_t fd;
            memcpy(&event, zmq_msg_data(&ev), sizeof event);
            memcpy(&fd, (const char *)zmq_msg_data(&ev) + 2, sizeof fd);
            /* Only the seat's own connection can be lost: another process
             * that connects and leaves changes nothing. */
            if (event == ZMQ_EVENT_DISCONNECTED && s->greeted && fd == s->fd && !s->dropped_at)
                s->dropped_at = clk_mono_us();
            else if (event == ZMQ_EVENT_ACCEPTED)
                accepted(m, i);
        }
        zmq_msg_close(&ev);
        zmq_msg_close(&addr);
    }
}

void match_watch_endpoints(match *m)
{
    for (int i = 0; i < m->n; i++)
        if (m->seats[i].monitor)
            read_monitor(m, i);
}

/* ZeroMQ dropped the seat's connection for a message over the limit. */
static void forfeit_oversized(match *m, int i)
{
    match_forfeit(m, i, REF_OVERSIZED,
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
        match_forfeit(m, i, REF_DISCONNECT, "seat %d cannot be reached: %s", i, zmq_strerror(err));
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
        while (s->spawned && !ref_proc_exited(&s->proc) && !s->came_back && !m->over &&
               clk_mono_us() < until) {
            read_monitor(m, i);
            usleep(2000);
        }
        if (m->over)
            return;
        if (s->came_back)
            forfeit_oversized(m, i);
        else if (s->spawned && ref_proc_exited(&s->proc))
            judge_exit(m, i);
        else
            match_forfeit(m, i, REF_DISCONNECT, "seat %d closed its connection", i);
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

/* A note of seat i's relay (ref_relay.h), from its own connection: its
 * link's round trip kept for its clock, or its bot's end at its
 * participant's machine judged as a local bot's exit is. 1, or -1 after
 * that forfeit. A note that does not read is dropped: the relay is the
 * arena's own program. */
static int relay_note(match *m, int i, zmq_msg_t *frame)
{
    ref_relay_note n;
    if (ref_relay_note_read(zmq_msg_data(frame), zmq_msg_size(frame), &n) < 0)
        return 1;
    if (n.rtt_us >= 0)
        m->clocks.seat[i].link_us = n.rtt_us;
    if (n.ended == 1)
        match_forfeit(m, i, n.status ? REF_CRASH : REF_EXIT, "seat %d's remote bot exited with "
                      "status %" PRId64 " at its participant's machine", i, n.status);
    else if (n.ended == 2)
        match_forfeit(m, i, REF_CRASH, "seat %d's remote bot was killed by signal %" PRId64
                      " at its participant's machine", i, n.status);
    return n.ended ? -1 : 1;
}

/* Receives one message on seat i's socket: identity frame, one payload
 * frame (a relay's seat: or its note, two). Returns 0 with *msg decoded, 1
 * when there was nothing for the referee (a message from another
 * connection is dropped), or -1 after a forfeit, which only the seat's own
 * connection can cause. */
static int receive(match *m, int i, msgpack_unpacked *msg)
{
    seat *s = &m->seats[i];
    zmq_msg_t id, body, second;
    zmq_msg_init(&id);
    zmq_msg_init(&body);
    zmq_msg_init(&second);
    int frames = 0, rc = -1;
    if (zmq_msg_recv(&id, s->sock, ZMQ_DONTWAIT) < 0) {
        zmq_msg_close(&id);
        zmq_msg_close(&body);
        zmq_msg_close(&second);
        return 1;       /* nothing after all */
    }
    int more = zmq_msg_more(&id);
    if (more && zmq_msg_recv(&body, s->sock, 0) >= 0) {
        frames = 1;
        more = zmq_msg_more(&body);
    }
    if (more && zmq_msg_recv(&second, s->sock, 0) >= 0) {
        frames = 2;
        more = zmq_msg_more(&second);
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
    if (frames == 2 && m->cfg->bot_relay[i] && zmq_msg_size(&body) == strlen(REF_RELAY_MARK) &&
        !memcmp(zmq_msg_data(&body), REF_RELAY_MARK, zmq_msg_size(&body))) {
        rc = own ? relay_note(m, i, &second) : 1;
        zmq_msg_close(&id);
        zmq_msg_close(&body);
        zmq_msg_close(&second);
        return rc;
    }
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
        match_forfeit(m, i, REF_MALFORMED, "%s", bad);
    }
    zmq_msg_close(&id);
    zmq_msg_close(&body);
    zmq_msg_close(&second);
    return rc;
}

/* Waits until `until` (on the time control's clock) for a well-formed
 * message. Returns the seat it came from (with *msg decoded), -1 when time
 * ran out, -2 after a forfeit.
 *
 * A monitor is watched by its ZMQ_FD, a plain file in the poll: ZeroMQ
 * signals it when an event arrives in a monitor that read_monitor left
 * empty, and only read_monitor touches a monitor, always reading it dry.
 * So a connection (a flood) wakes the loop at once, and a decision costs no
 * look into the monitors, where a ZeroMQ socket in the poll costs several
 * system calls each time round. */
int match_next_message(match *m, int64_t until, msgpack_unpacked *msg)
{
    zmq_pollitem_t items[GAME_MAX_SEATS * 4];
    int owner[GAME_MAX_SEATS * 4], kind[GAME_MAX_SEATS * 4];
    enum { SOCK, MONITOR, OUTPUT, EXIT };
    for (;;) {
        if (m->over)
            return -2;
        int64_t left = until - match_now(m);
        if (left < 0)
            return -1;
        long wait_ms = left / 1000 + 1;
        int k = 0;
        for (int i = 0; i < m->n; i++) {
            seat *s = &m->seats[i];
            items[k] = (zmq_pollitem_t){ s->sock, 0, ZMQ_POLLIN, 0 };
            owner[k] = i, kind[k++] = SOCK;
            if (s->monitor) {
                items[k] = (zmq_pollitem_t){ NULL, s->monitor_fd, ZMQ_POLLIN, 0 };
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
        match_check_limits(m, 0);
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
        match_forfeit(m, i, REF_OUT_OF_TURN,
                      "seat %d: a second hello, or a message before its "
                      "request",
                      i);
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
    int64_t took = match_now(m) - m->spawned;
    r->hello_micros[i] = took < 1 ? 1 : took > UINT32_MAX ? UINT32_MAX : (uint32_t)took;
    m->sb.size = 0;
    ref_msg_welcome(&m->sb, m->g, r->options, i, m->n, m->g->team_of(m->state, i),
                    (ref_clock){ m->cfg->terms.move_ms, m->clocks.seat[i].bank_us / 1000 });
    match_send(m, i);
}

void match_handshake(match *m)
{
    int64_t until = match_now(m) + m->cfg->terms.handshake_ms * 1000;
    for (;;) {
        int waiting = -1;
        for (int i = m->n - 1; i >= 0; i--)
            if (!m->seats[i].greeted)
                waiting = i;
        if (waiting < 0 || m->over)
            return;
        msgpack_unpacked msg;
        int from = match_next_message(m, until, &msg);
        if (from == -1)
            match_check_limits(m, 1);
        seat *w = &m->seats[waiting];
        if (from == -1 && w->rejected[0])
            match_forfeit(m, waiting, w->rejected,
                          "%s, and no valid hello came within %" PRId64 " ms", w->rejected_why,
                          m->cfg->terms.handshake_ms);
        else if (from == -1)
            match_forfeit(m, waiting, REF_TIMEOUT, "seat %d sent no hello within %" PRId64 " ms",
                          waiting, m->cfg->terms.handshake_ms);
        if (from < 0)
            return;
        greet(m, from, &msg.data);
        msgpack_unpacked_destroy(&msg);
    }
}

/*
 * gw_server.c - `arena gateway`: the loop (gw.h).
 *
 * One ROUTER socket with CURVE; the ZAP handler admits a connection whose
 * public key is a participant's (revoked or not: a revoked participant is
 * told so at each request rather than left to time out). Each request is
 * read whole (libzmq refuses a frame over max_bytes + 1 MB: memory stays
 * bounded), its participant read again from the database (a revoke holds
 * from the next request), checked, then answered: a list at once, a
 * submission by a child process that stores and checks it (gw_submit.c)
 * and writes its reply to a pipe the loop polls with the socket. Limits:
 * `concurrent` children at once, one per participant, `rate` submissions
 * per participant in the last hour; each refusal a reply and a log line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "arena_db.h"
#include "clk.h"
#include "gw.h"
#include "txt.h"

#define MAX_CHILDREN 64
#define ROUTING_MAX 256
#define HOUR_MS (3600 * 1000)
#define HEAD_MAX 65536            /* a request's header: its fields are short */
#define DRAIN_MAX 256             /* messages read before the silence tick, at most: a
                                   * ping from each of as many connections */

typedef struct gw_child {
    pid_t pid;
    int fd;                       /* the reply, read until end of file */
    int64_t user_id;
    char user[64], label[160];
    unsigned char routing[ROUTING_MAX];
    size_t routing_len;
    char *buf;
    size_t len, cap;
} gw_child;

typedef struct gw_state {
    const gw_config *c;
    arena_db *db;
    void *sock;
    gw_child child[MAX_CHILDREN];
    int nchildren;
    gw_remote *remote;            /* remote bots' connections and sessions */
    zauth_key arena_public;       /* the arena's own key: its relays' */
    int64_t strangers_ms;         /* the last unknown key's log line */
    int strangers;                /* unknown keys refused since, not logged */
} gw_state;

void gw_say(const gw_config *c, const char *who, const char *fmt, ...)
{
    if (!c->log)
        return;
    char when[32], line[1400];
    time_t now = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    va_list ap;
    va_start(ap, fmt);
    txt_vset(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *p = line; *p; p++)             /* a participant's text stays on its line */
        if ((unsigned char)*p < 0x20)
            *p = '?';
    fprintf(c->log, "%s gateway: %s: %s\n", when, who, line);
    fflush(c->log);
}

/* ZAP: a participant's key, revoked or not, is admitted; its User-Id is
 * the key, read again at each request. */
static int admit(const char *key, void *ctx, char *user_id, size_t size)
{
    gw_state *s = ctx;
    arena_user u;
    if (!strcmp(key, s->arena_public)) {     /* the arena's relays */
        txt_set(user_id, size, "%s", key);
        return 1;
    }
    if (arena_db_user_by_key(s->db, key, &u) != 0) {
        int64_t now = clk_mono_ms();         /* a stranger retrying: a line a second */
        if (now - s->strangers_ms >= 1000) {
            gw_say(s->c, "?", "a connection with an unknown key refused (%d more since the last "
                "line)", s->strangers);
            s->strangers_ms = now;
            s->strangers = 0;
        } else {
            s->strangers++;
        }
        txt_set(user_id, size, "not a participant's key");
        return 0;
    }
    txt_set(user_id, size, "%s", key);
    return 1;
}

static void send_reply(gw_state *s, const void *routing, size_t rlen, const void *bytes,
                       size_t len)
{
    zmq_send(s->sock, routing, rlen, ZMQ_SNDMORE | ZMQ_DONTWAIT);
    zmq_send(s->sock, bytes, len, ZMQ_DONTWAIT);
}

/* A reply sent to the routing id and logged. */
static void answer_to(gw_state *s, const void *routing, size_t rlen, const char *who,
                      const gw_reply *r)
{
    void *bytes;
    size_t len;
    gw_say(s->c, who, "%s", r->message);
    if (gw_reply_write(r, &bytes, &len) == 0) {
        send_reply(s, routing, rlen, bytes, len);
        free(bytes);
    }
}

static void answer(gw_state *s, const zmq_msg_t *routing, const char *who, const gw_reply *r)
{
    answer_to(s, zmq_msg_data((zmq_msg_t *)routing), zmq_msg_size((zmq_msg_t *)routing), who,
              r);
}

/* A refusal said to the participant and logged. */
static void refuse(gw_state *s, const zmq_msg_t *routing, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void refuse(gw_state *s, const zmq_msg_t *routing, const char *who, const char *fmt, ...)
{
    gw_reply r = { 0 };
    va_list ap;
    va_start(ap, fmt);
    char why[900];
    txt_vset(why, sizeof why, fmt, ap);
    va_end(ap);
    txt_set(r.message, sizeof r.message, "refused: %s", why);
    answer(s, routing, who, &r);
}

/* A submission handed to a child: 0, or -1 with why (refused). */
static int start_child(gw_state *s, const arena_user *u, const zmq_msg_t *routing,
                       const gw_request *r, size_t sent, char *why, size_t size)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        txt_set(why, size, "the gateway cannot start a check now; try again later");
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        gw_reply reply;
        gw_submit(s->c, u->id, r, sent, &reply);
        void *bytes;
        size_t len, at = 0;
        if (gw_reply_write(&reply, &bytes, &len) == 0)
            while (at < len) {
                ssize_t n = write(fds[1], (char *)bytes + at, len - at);
                if (n <= 0 && errno != EINTR)
                    break;
                at += n > 0 ? (size_t)n : 0;
            }
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        txt_set(why, size, "the gateway cannot start a check now; try again later");
        return -1;
    }
    gw_child *ch = &s->child[s->nchildren++];
    memset(ch, 0, sizeof *ch);
    ch->pid = pid;
    ch->fd = fds[0];
    ch->user_id = u->id;
    snprintf(ch->user, sizeof ch->user, "%s", u->name);
    snprintf(ch->label, sizeof ch->label, "%s@%s", r->name, r->version);
    ch->routing_len = zmq_msg_size((zmq_msg_t *)routing);
    memcpy(ch->routing, zmq_msg_data((zmq_msg_t *)routing), ch->routing_len);
    gw_say(s->c, u->name, "checking %s (%zu bytes sent)", ch->label, sent);
    return 0;
}

/* Under the participant's submissions an hour: 1, else 0 (refused). */
static int rate_ok(gw_state *s, const arena_user *u, const zmq_msg_t *routing)
{
    int recent = arena_db_submissions_since(s->db, u->id, clk_wall_ms() - HOUR_MS);
    if (recent >= 0 && recent < s->c->rate)
        return 1;
    refuse(s, routing, u->name, "at most %d submissions an hour each; try again later",
           s->c->rate);
    return 0;
}

/* One request, its frames read: the participant, the limits, the answer. */
static void serve_request(gw_state *s, zmq_msg_t *routing, zmq_msg_t *head, zmq_msg_t *archive,
                          int frames)
{
    const char *key = zmq_msg_gets(head, "User-Id");
    arena_user u;
    char why[512];
    gw_rmsg m;
    int remote = frames <= 3 && zmq_msg_size(head) <= HEAD_MAX &&
                 gw_rmsg_read(zmq_msg_data(head), zmq_msg_size(head), &m, why, sizeof why) == 0;
    const void *rid = zmq_msg_data(routing), *payload = archive ? zmq_msg_data(archive) : NULL;
    size_t rlen = zmq_msg_size(routing), plen = archive ? zmq_msg_size(archive) : 0;
    if (key && !strcmp(key, s->arena_public)) {
        if (remote)
            gw_remote_relay(s->remote, rid, rlen, &m, payload, plen);
        return;
    }
    if (!key || arena_db_user_by_key(s->db, key, &u) != 0) {
        refuse(s, routing, "?", "not a participant's key");
        return;
    }
    if (u.revoked_ms) {
        txt_set(why, sizeof why, "refused: the access of %s was revoked; ask the organizer",
                u.name);
        if (remote)
            gw_remote_refuse(s->remote, rid, rlen, why);
        else
            refuse(s, routing, u.name, "%s", why + 9);
        gw_say(s->c, u.name, "%s", why);
        return;
    }
    if (remote) {
        gw_remote_participant(s->remote, &u, rid, rlen, &m, payload, plen);
        return;
    }
    gw_request r;
    if (zmq_msg_size(head) > HEAD_MAX) {
        refuse(s, routing, u.name, "a bad request: its header is over %d bytes", HEAD_MAX);
        return;
    }
    if (frames > 3 || gw_request_read(zmq_msg_data(head), zmq_msg_size(head), &r, why,
                                      sizeof why) < 0) {
        refuse(s, routing, u.name, "a bad request: %s", frames > 3 ? "too many frames" : why);
        return;
    }
    if (r.op != GW_SUBMIT) {
        gw_reply reply;
        if (r.op == GW_LIST)
            gw_list(s->c->db_path, u.id, &reply);
        else if (r.op == GW_REMOTE && !rate_ok(s, &u, routing))
            return;
        else if (r.op == GW_REMOTE)
            gw_register_remote(s->db, u.id, &r, &reply);
        else
            gw_change(s->db, u.id, &r, &reply);
        answer(s, routing, u.name, &reply);
        gw_reply_free(&reply);
        return;
    }
    if (frames != 3 || zmq_msg_size(archive) == 0) {
        refuse(s, routing, u.name, "a submission without its files");
        return;
    }
    for (int i = 0; i < s->nchildren; i++)
        if (s->child[i].user_id == u.id) {
            refuse(s, routing, u.name, "your submission %s is still being checked: one at a "
                   "time", s->child[i].label);
            return;
        }
    if (s->nchildren >= s->c->concurrent) {
        refuse(s, routing, u.name, "the gateway is checking %d submissions already; try again "
               "in a minute", s->nchildren);
        return;
    }
    if (!rate_ok(s, &u, routing))
        return;
    r.archive = zmq_msg_data(archive);
    r.archive_len = zmq_msg_size(archive);
    if (start_child(s, &u, routing, &r, r.archive_len, why, sizeof why) < 0)
        refuse(s, routing, u.name, "%s", why);
}

/* Reads every frame of one message from the socket: routing id, header
 * and the archive kept, any more counted and dropped. 0 when none was
 * waiting. */
static int read_request(gw_state *s)
{
    zmq_msg_t f[3];
    int n = 0, more = 1;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s->sock, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&m);
            break;
        }
        more = zmq_msg_more(&m);
        if (n < 3)
            f[n] = m;
        else
            zmq_msg_close(&m);
        n++;
    }
    if (n >= 2 && zmq_msg_size(&f[0]) <= ROUTING_MAX)
        serve_request(s, &f[0], &f[1], n >= 3 ? &f[2] : NULL, n);
    for (int i = 0; i < n && i < 3; i++)
        zmq_msg_close(&f[i]);
    return n > 0;
}

/* A child's pipe readable: more of its reply, or its end (then the reply
 * goes out and the child is reaped). */
static void read_child(gw_state *s, int i)
{
    gw_child *ch = &s->child[i];
    char buf[65536];
    ssize_t got = read(ch->fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR)
        return;
    if (got > 0 && ch->len + (size_t)got <= (4u << 20)) {
        if (ch->len + (size_t)got > ch->cap) {
            size_t cap = (ch->len + (size_t)got) * 2;
            char *grown = realloc(ch->buf, cap);
            if (grown)
                ch->buf = grown, ch->cap = cap;
        }
        if (ch->len + (size_t)got <= ch->cap) {
            memcpy(ch->buf + ch->len, buf, (size_t)got);
            ch->len += (size_t)got;
        }
        return;
    }
    close(ch->fd);
    int status = 0;
    while (waitpid(ch->pid, &status, 0) < 0 && errno == EINTR)
        ;
    gw_reply r;
    char why[256];
    if (gw_reply_read(ch->buf, ch->len, &r, why, sizeof why) == 0) {
        gw_say(s->c, ch->user, "%s", r.message);
        send_reply(s, ch->routing, ch->routing_len, ch->buf, ch->len);
        gw_reply_free(&r);
    } else {
        memset(&r, 0, sizeof r);
        txt_set(r.message, sizeof r.message, "refused: the check of %s stopped (%s %d); "
                "tell the organizer", ch->label, WIFSIGNALED(status) ? "signal" : "status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        answer_to(s, ch->routing, ch->routing_len, ch->user, &r);
    }
    free(ch->buf);
    s->child[i] = s->child[--s->nchildren];
}

static void *open_socket(gw_state *s, void *ctx, char *err, size_t size)
{
    zauth_key pub, secret;
    if (gw_arena_keys(s->c->db_path, 0, pub, secret, err, size) < 0)
        return NULL;
    void *sock = zmq_socket(ctx, ZMQ_ROUTER);
    int linger = 0;
    int64_t max = (int64_t)s->c->max_bytes + (1 << 20);
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    if (zauth_server(sock, secret, err, size) < 0 || zmq_bind(sock, s->c->listen) < 0) {
        if (!err[0] || errno)
            txt_set(err, size, "cannot listen on %s: %s", s->c->listen, zmq_strerror(errno));
        zmq_close(sock);
        return NULL;
    }
    char where[256];
    size_t wlen = sizeof where;
    zmq_getsockopt(sock, ZMQ_LAST_ENDPOINT, where, &wlen);
    gw_say(s->c, "-", "listening on %s (key %s)", where, pub);
    memcpy(s->arena_public, pub, sizeof s->arena_public);
    /* The arena's relays, on this machine, reach a wildcard address here. */
    char relay[300];
    if (!strncmp(where, "tcp://0.0.0.0:", 14))
        snprintf(relay, sizeof relay, "tcp://127.0.0.1:%s", where + 14);
    else
        snprintf(relay, sizeof relay, "%s", where);
    if (!(s->remote = gw_remote_new(s->db, sock, s->c, relay))) {
        txt_set(err, size, "out of memory");
        zmq_close(sock);
        return NULL;
    }
    return sock;
}

int gw_serve(const gw_config *c, char *err, size_t size)
{
    gw_state s = { .c = c, .strangers_ms = -1000000 };
    if (arena_db_open(&s.db, c->db_path, 0, err, size) < 0)
        return -1;
    void *ctx = zmq_ctx_new();
    void *zap = zauth_handler_open(ctx, err, size);
    err[0] = 0;
    s.sock = zap ? open_socket(&s, ctx, err, size) : NULL;
    int rc = s.sock ? 0 : -1;
    while (rc == 0 && (!*c->stop || s.nchildren)) {
        zmq_pollitem_t items[MAX_CHILDREN + 2] = {
            { .socket = zap, .events = ZMQ_POLLIN },
            { .socket = s.sock, .events = *c->stop ? 0 : ZMQ_POLLIN },
        };
        for (int i = 0; i < s.nchildren; i++)
            items[2 + i] = (zmq_pollitem_t){ .fd = s.child[i].fd, .events = ZMQ_POLLIN };
        if (zmq_poll(items, 2 + s.nchildren, 500) < 0 && errno != EINTR)
            break;
        if (items[0].revents & ZMQ_POLLIN)
            zauth_handle_by(zap, admit, &s, 0);
        /* Everything waiting is read before the silence tick: after a
         * stall (a slow request, the database busy, the machine loaded) a
         * connection's pings may wait behind others', and judged after only
         * one message it would be dropped as silent though it was heard.
         * Bounded, so that a flood cannot starve the children's pipes. */
        if (items[1].revents & ZMQ_POLLIN)
            for (int taken = 0; taken < DRAIN_MAX && read_request(&s); taken++)
                continue;
        for (int i = s.nchildren - 1; i >= 0; i--)
            if (items[2 + i].revents & (ZMQ_POLLIN | ZMQ_POLLERR))
                read_child(&s, i);
        gw_remote_tick(s.remote, clk_mono_ms());
    }
    gw_remote_free(s.remote);
    if (s.sock)
        zmq_close(s.sock);
    if (zap)
        zmq_close(zap);
    zmq_ctx_term(ctx);
    arena_db_close(s.db);
    return rc;
}

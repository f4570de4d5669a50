/*
 * gw_remote.c - the gateway's side of remote bots (gw.h).
 *
 * Connections: a participant's `arena connect`, bound by its attach to one
 * bot of theirs (a remote bot they own); a newer connection for the same
 * bot replaces the older, which is told why. Sessions: one seat of one
 * match, opened by the arena's relay (the referee's stand-in for the seat,
 * authenticated with the arena's own key) for a connected bot. Every data
 * frame names its session: from a relay it must be a session that relay
 * opened, from a participant a session of its connection's own bot; any
 * other is refused, said to the sender and logged, and goes nowhere. A
 * side silent GW_SILENT_MS is gone: a connection's bot is marked so in the
 * database and its sessions closed (the relay then loses the seat by
 * `disconnected`); a relay's sessions are closed at the participant.
 *
 * Each attach is numbered (its `attached` answer's session field, larger
 * than any before); a connection coming back after a fault attaches again
 * with its number, and if another connection for the bot attached since,
 * the one coming back is refused: the newer one wins, whatever order the
 * network puts them in.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "clk.h"
#include "gw.h"
#include "txt.h"

#define MAX_CONNS 256
#define MAX_SESSIONS 512
#define ROUTING_MAX 256
#define DB_EVERY_MS 2000              /* a connection's heard time, written at most */
#define MAX_ATTACHED 4096             /* bots whose last attach number is kept */
/* What a connection replaced by a newer one for its bot (%s) is told. */
#define TOOK_OVER "closed: another connection for %s took over (the newer one wins)"

typedef struct gw_conn {
    unsigned char routing[ROUTING_MAX];
    size_t rlen;
    int64_t user_id, bot_id;          /* bot_id 0: not attached yet */
    char who[64], label[160];
    int64_t heard_ms, written_ms;
    int refused;                      /* frames refused since the last log line */
    int64_t refused_said_ms;
} gw_conn;

typedef struct gw_session {
    uint64_t id;
    unsigned char relay[ROUTING_MAX];
    size_t rlen;
    int64_t bot_id, heard_ms;
    int seat;
} gw_session;

struct gw_remote {
    arena_db *db;
    void *sock;
    const gw_config *c;
    char endpoint[256];
    gw_conn conn[MAX_CONNS];
    int nconn;
    gw_session sess[MAX_SESSIONS];
    int nsess;
    struct { int64_t bot_id; uint64_t number; } attached[MAX_ATTACHED];
    int nattached;
    uint64_t last_number;             /* the last attach number given */
};

gw_remote *gw_remote_new(arena_db *db, void *sock, const gw_config *c,
                         const char *relay_endpoint)
{
    gw_remote *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->db = db;
    g->sock = sock;
    g->c = c;
    snprintf(g->endpoint, sizeof g->endpoint, "%s", relay_endpoint);
    return g;
}

static void send_to(gw_remote *g, const void *routing, size_t rlen, const gw_rmsg *m,
                    const void *frame, size_t flen)
{
    if (zmq_send(g->sock, routing, rlen, ZMQ_SNDMORE | ZMQ_DONTWAIT) >= 0)
        gw_rmsg_send(g->sock, m, frame, flen);
}

static void say_to(gw_remote *g, const void *routing, size_t rlen, const char *type,
                   uint64_t session, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void say_to(gw_remote *g, const void *routing, size_t rlen, const char *type,
                   uint64_t session, const char *fmt, ...)
{
    gw_rmsg m = { .session = session };
    snprintf(m.type, sizeof m.type, "%s", type);
    va_list ap;
    va_start(ap, fmt);
    txt_vset(m.message, sizeof m.message, fmt, ap);
    va_end(ap);
    send_to(g, routing, rlen, &m, NULL, 0);
}

static gw_conn *conn_by_routing(gw_remote *g, const void *routing, size_t rlen)
{
    for (int i = 0; i < g->nconn; i++)
        if (g->conn[i].rlen == rlen && !memcmp(g->conn[i].routing, routing, rlen))
            return &g->conn[i];
    return NULL;
}

static gw_conn *conn_by_bot(gw_remote *g, int64_t bot_id)
{
    for (int i = 0; i < g->nconn; i++)
        if (g->conn[i].bot_id == bot_id)
            return &g->conn[i];
    return NULL;
}

static gw_session *session(gw_remote *g, uint64_t id)
{
    for (int i = 0; i < g->nsess; i++)
        if (g->sess[i].id == id)
            return &g->sess[i];
    return NULL;
}

static void forget_session(gw_remote *g, gw_session *s)
{
    *s = g->sess[--g->nsess];
}

/* Closes every session of the bot at its relays: the seat is lost. */
static void end_sessions(gw_remote *g, int64_t bot_id, const char *why)
{
    for (int i = g->nsess - 1; i >= 0; i--) {
        gw_session *s = &g->sess[i];
        if (s->bot_id != bot_id)
            continue;
        say_to(g, s->relay, s->rlen, "close", s->id, "disconnected: %s", why);
        gw_say(g->c, "relay", "session %016" PRIx64 " closed: the remote bot %s", s->id, why);
        forget_session(g, s);
    }
}

/* A connection let go: its bot absent in the database, its matches lost. */
static void drop_conn(gw_remote *g, gw_conn *c, const char *why)
{
    if (c->bot_id) {
        arena_db_remote_state(g->db, c->bot_id, 0, NULL, clk_wall_ms());
        end_sessions(g, c->bot_id, why);
        gw_say(g->c, c->who, "%s disconnected: %s", c->label, why);
    }
    *c = g->conn[--g->nconn];
}

/* A new attach number for bot_id: the wall clock's microseconds, or one more
 * than the last (numbers grow across the gateway's restarts too, clock
 * permitting). Past MAX_ATTACHED bots, the oldest number is forgotten (its
 * connection, coming back, is then let in). */
static uint64_t number_attach(gw_remote *g, int64_t bot_id)
{
    uint64_t now = (uint64_t)clk_wall_ms() * 1000;
    g->last_number = now > g->last_number ? now : g->last_number + 1;
    int k = 0;
    while (k < g->nattached && g->attached[k].bot_id != bot_id)
        k++;
    if (k == MAX_ATTACHED) {
        k = 0;
        for (int i = 1; i < g->nattached; i++)
            if (g->attached[i].number < g->attached[k].number)
                k = i;
    } else if (k == g->nattached) {
        g->nattached++;
    }
    g->attached[k].bot_id = bot_id;
    g->attached[k].number = g->last_number;
    return g->last_number;
}

/* 1 when a connection coming back with attach number `number` was
 * overtaken: another attached bot_id since. */
static int overtaken(const gw_remote *g, int64_t bot_id, uint64_t number)
{
    for (int i = 0; number && i < g->nattached; i++)
        if (g->attached[i].bot_id == bot_id)
            return g->attached[i].number > number;
    return 0;
}

/* attach: the bot named must be this participant's, and remote; one coming
 * back (m->session, its last attach number) must not have been overtaken. */
static void attach(gw_remote *g, const arena_user *u, const void *routing, size_t rlen,
                   gw_conn *c, const gw_rmsg *m)
{
    arena_bot b;
    arena_remote_bot r;
    const char *why = NULL;
    char line[400];
    if (arena_db_bot_by_name(g->db, m->bot, &b) != 0)
        why = "no such bot (register it with `arena submit --remote`)";
    else if (b.owner_id != u->id)
        why = "that bot is not yours";
    else if (arena_db_remote_get(g->db, b.id, &r) != 0)
        why = "that version is not a remote bot (it was submitted with its files; "
              "register a version with --remote)";
    else if (!c && g->nconn == MAX_CONNS)
        why = "the gateway holds too many connections; try again later";
    if (why) {
        txt_set(line, sizeof line, "refused: %s: %s", m->bot[0] ? m->bot : "?", why);
        gw_say(g->c, u->name, "%s", line);
        say_to(g, routing, rlen, "refused", 0, "%s", line);
        if (c)
            drop_conn(g, c, "it attached to a bot it may not");
        return;
    }
    char label[sizeof c->label];
    snprintf(label, sizeof label, "%s@%s", b.name, b.version);
    if (overtaken(g, b.id, m->session)) {
        gw_say(g->c, u->name, "%s: a connection coming back refused: another attached since",
               label);
        say_to(g, routing, rlen, "refused", 0, TOOK_OVER, label);
        if (c)
            drop_conn(g, c, "another connection took over");
        return;
    }
    gw_conn *older = conn_by_bot(g, b.id);
    if (older && older != c) {
        say_to(g, older->routing, older->rlen, "refused", 0, TOOK_OVER, older->label);
        drop_conn(g, older, "another connection took over");
        c = conn_by_routing(g, routing, rlen);   /* drop_conn moves the last one */
    }
    if (c && c->bot_id && c->bot_id != b.id) {
        drop_conn(g, c, "it attached to another bot");
        c = NULL;
    }
    if (!c) {
        c = &g->conn[g->nconn++];
        memset(c, 0, sizeof *c);
        memcpy(c->routing, routing, rlen);
        c->rlen = rlen;
    }
    c->user_id = u->id;
    c->bot_id = b.id;
    snprintf(c->who, sizeof c->who, "%s", u->name);
    snprintf(c->label, sizeof c->label, "%s", label);
    c->heard_ms = c->written_ms = clk_mono_ms();
    arena_db_remote_state(g->db, b.id, 1, g->endpoint, clk_wall_ms());
    gw_say(g->c, u->name, "%s connected", c->label);
    say_to(g, routing, rlen, "attached", number_attach(g, b.id),
           "connected as %s: it plays while this runs%s",
           c->label, strcmp(b.status, "active") ? " (it is not active now: no matches)" : "");
}

/* A frame for a session that is not this connection's: refused, said, and
 * logged (a line a second at most, with the count since). */
static void refuse_frame(gw_remote *g, gw_conn *c, const gw_rmsg *m)
{
    say_to(g, c->routing, c->rlen, "error", m->session,
           "refused: session %016" PRIx64 " is not a match of %s", m->session, c->label);
    int64_t now = clk_mono_ms();
    if (now - c->refused_said_ms < 1000) {
        c->refused++;
        return;
    }
    gw_say(g->c, c->who, "refused a %s frame of %s for session %016" PRIx64 ": not one of its "
           "matches (%d more since the last line)", m->type, c->label, m->session, c->refused);
    c->refused = 0;
    c->refused_said_ms = now;
}

void gw_remote_participant(gw_remote *g, const arena_user *u, const void *routing, size_t rlen,
                           const gw_rmsg *m, const void *payload, size_t plen)
{
    if (rlen > ROUTING_MAX)
        return;
    gw_conn *c = conn_by_routing(g, routing, rlen);
    if (!strcmp(m->type, "attach")) {
        attach(g, u, routing, rlen, c, m);
        return;
    }
    if (!c) {   /* never attached, or let go (silent too long): attach again */
        say_to(g, routing, rlen, "detached", 0, "this connection is not attached: attach first");
        return;
    }
    c->heard_ms = clk_mono_ms();
    if (c->heard_ms - c->written_ms >= DB_EVERY_MS) {
        arena_db_remote_state(g->db, c->bot_id, 1, g->endpoint, clk_wall_ms());
        c->written_ms = c->heard_ms;
    }
    if (!strcmp(m->type, "ping")) {
        gw_rmsg pong = { .type = "pong", .t = m->t };
        send_to(g, routing, rlen, &pong, NULL, 0);
        return;
    }
    int data = !strcmp(m->type, "data"), pong = !strcmp(m->type, "pong");
    if (!data && !pong && strcmp(m->type, "close")) {
        say_to(g, routing, rlen, "error", 0, "refused: a %s message is not a participant's",
               m->type);
        return;
    }
    gw_session *s = session(g, m->session);
    if (pong && (!s || s->bot_id != c->bot_id))
        return;                       /* a late answer to a closed session's ping */
    if (!s || s->bot_id != c->bot_id) {
        refuse_frame(g, c, m);
        return;
    }
    if (data && (!payload || plen > GW_FRAME_MAX)) {
        say_to(g, routing, rlen, "error", m->session, "refused: a data message needs one frame "
               "of at most %d bytes", GW_FRAME_MAX);
        return;
    }
    gw_rmsg fwd = { .session = s->id };
    snprintf(fwd.type, sizeof fwd.type, "%s", m->type);
    if (data || pong) {               /* a pong: its relay's clock, echoed */
        fwd.t = pong ? m->t : 0;
        send_to(g, s->relay, s->rlen, &fwd, data ? payload : NULL, data ? plen : 0);
        return;
    }
    fwd.ended = m->ended;
    fwd.status = m->status;
    txt_set(fwd.message, sizeof fwd.message, "disconnected: the remote side closed the seat: %s",
            m->message);
    send_to(g, s->relay, s->rlen, &fwd, NULL, 0);
    gw_say(g->c, c->who, "session %016" PRIx64 " of %s closed by its side", s->id, c->label);
    forget_session(g, s);
}

/* open: a session to a connected bot, announced to its connection. */
static void open_session(gw_remote *g, const void *routing, size_t rlen, const gw_rmsg *m)
{
    gw_conn *c = m->bot_id ? conn_by_bot(g, m->bot_id) : NULL;
    if (!c || !m->session || session(g, m->session) || g->nsess == MAX_SESSIONS) {
        say_to(g, routing, rlen, "absent", m->session, "%s",
               !c ? "the remote bot is not connected" : "the session cannot be opened");
        gw_say(g->c, "relay", "session %016" PRIx64 " for bot %" PRId64 " refused: %s",
               m->session, m->bot_id, c ? "a taken id or too many" : "not connected");
        return;
    }
    gw_session *s = &g->sess[g->nsess++];
    memset(s, 0, sizeof *s);
    s->id = m->session;
    memcpy(s->relay, routing, rlen);
    s->rlen = rlen;
    s->bot_id = m->bot_id;
    s->seat = (int)m->seat;
    s->heard_ms = clk_mono_ms();
    gw_rmsg start = { .type = "start", .session = s->id, .seat = m->seat, .seed = m->seed };
    snprintf(start.token, sizeof start.token, "%s", m->token);
    txt_set(start.message, sizeof start.message, "%s seat %d", c->label, s->seat);
    send_to(g, c->routing, c->rlen, &start, NULL, 0);
    gw_rmsg opened = { .type = "opened", .session = s->id };
    send_to(g, routing, rlen, &opened, NULL, 0);
    gw_say(g->c, c->who, "session %016" PRIx64 " opened: %s seat %d", s->id, c->label, s->seat);
}

void gw_remote_relay(gw_remote *g, const void *routing, size_t rlen, const gw_rmsg *m,
                     const void *payload, size_t plen)
{
    if (rlen > ROUTING_MAX)
        return;
    if (!strcmp(m->type, "open")) {
        open_session(g, routing, rlen, m);
        return;
    }
    if (!strcmp(m->type, "ping")) {
        int64_t now = clk_mono_ms();
        gw_session *s = m->session ? session(g, m->session) : NULL;
        gw_conn *c = s && s->rlen == rlen && !memcmp(s->relay, routing, rlen)
                         ? conn_by_bot(g, s->bot_id) : NULL;
        for (int i = 0; i < g->nsess; i++)
            if (g->sess[i].rlen == rlen && !memcmp(g->sess[i].relay, routing, rlen))
                g->sess[i].heard_ms = now;
        /* A session's ping goes through to its participant, whose connect
         * answers: the relay measures the link its seat plays over. */
        gw_rmsg fwd = { .type = "pong", .t = m->t, .session = c ? m->session : 0 };
        if (c)
            snprintf(fwd.type, sizeof fwd.type, "ping");
        send_to(g, c ? c->routing : routing, c ? c->rlen : rlen, &fwd, NULL, 0);
        return;
    }
    gw_session *s = session(g, m->session);
    if (!s || s->rlen != rlen || memcmp(s->relay, routing, rlen)) {
        say_to(g, routing, rlen, "close", m->session, "disconnected: no such session");
        return;
    }
    s->heard_ms = clk_mono_ms();
    gw_conn *c = conn_by_bot(g, s->bot_id);
    gw_rmsg fwd = { .session = s->id };
    snprintf(fwd.type, sizeof fwd.type, "%s", m->type);
    if (!strcmp(m->type, "data") && payload && c) {
        send_to(g, c->routing, c->rlen, &fwd, payload, plen);
    } else if (!strcmp(m->type, "close")) {
        snprintf(fwd.message, sizeof fwd.message, "%s", m->message);
        if (c)
            send_to(g, c->routing, c->rlen, &fwd, NULL, 0);
        forget_session(g, s);
    } else if (!c) {
        say_to(g, routing, rlen, "close", s->id, "disconnected: the remote bot is gone");
        forget_session(g, s);
    }
}

void gw_remote_refuse(gw_remote *g, const void *routing, size_t rlen, const char *line)
{
    gw_conn *c = rlen <= ROUTING_MAX ? conn_by_routing(g, routing, rlen) : NULL;
    say_to(g, routing, rlen, "refused", 0, "%s", line);
    if (c)
        drop_conn(g, c, line);
}

void gw_remote_tick(gw_remote *g, int64_t now_ms)
{
    for (int i = g->nconn - 1; i >= 0; i--)
        if (now_ms - g->conn[i].heard_ms > GW_SILENT_MS)
            drop_conn(g, &g->conn[i], "not heard for a while (network or machine down)");
    for (int i = g->nsess - 1; i >= 0; i--) {
        gw_session *s = &g->sess[i];
        if (now_ms - s->heard_ms <= GW_SILENT_MS)
            continue;
        gw_conn *c = conn_by_bot(g, s->bot_id);
        if (c)
            say_to(g, c->routing, c->rlen, "close", s->id, "the match's relay is gone");
        forget_session(g, s);
    }
}

void gw_remote_free(gw_remote *g)
{
    if (!g)
        return;
    for (int i = g->nconn - 1; i >= 0; i--)
        drop_conn(g, &g->conn[i], "the gateway stopped");
    free(g);
}

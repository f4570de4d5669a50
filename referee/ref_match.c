/*
 * ref_match.c - the match loop: start the bots, greet them, ask for each
 * decision, tell everyone what happened, end the match, clean up. The
 * sockets, the poll loop and the handshake are in ref_match_io.c, what
 * the two share in ref_match_internal.h; the clocks a decision is charged
 * to (its deadlines, its charge, a timeout's judgment) in ref_turn.c.
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
#include <unistd.h>
#include <zmq.h>
#include "ref_match_internal.h"
#include "ref_sandbox_probe.h"
#include "ref_msg.h"
#include "ref_reply.h"

void ref_config_default(ref_config *c)
{
    memset(c, 0, sizeof *c);
    ref_terms_default(&c->terms);
    c->max_message = 1 << 20;
    c->limits.cpu_seconds = 600;
    c->limits.memory_bytes = (uint64_t)2 << 30;
    c->limits.max_processes = 512;     /* processes and threads of one bot */
    c->limits.max_open_files = 256;
    c->limits.log_bytes = 1 << 20;
    c->transport = "ipc";
}

void match_forfeit(match *m, int culprit, const char *reason, const char *fmt, ...)
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
    if (++s->strikes >= m->cfg->terms.strikes) {
        if (m->cfg->terms.strikes > 0)
            match_forfeit(m, i, reason, "seat %d: %s (strike %d of %d)", i, detail, s->strikes,
                          m->cfg->terms.strikes);
        else
            match_forfeit(m, i, reason, "seat %d: %s", i, detail);
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
        match_forfeit(m, i, REF_MALFORMED, "seat %d's action %s", i, why);
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
        if (match_send(m, i) < 0)
            return -1;
    }
    return m->over ? -1 : 0;
}
/* Where the seat's log file ends now, once what waits in its output pipe
 * is in: what the bot printed while deciding ends there (a bot that
 * flushes before it answers). */
static uint64_t log_mark(seat *s)
{
    if (!s->spawned || s->proc.log_fd < 0)
        return REF_LOG_UNMARKED;
    ref_proc_drain(&s->proc);
    off_t at = lseek(s->proc.log_fd, 0, SEEK_CUR);
    return at < 0 ? REF_LOG_UNMARKED : (uint64_t)at;
}

/* A message from seat `from` while seat i decides `id`, in time: 0 with
 * d->action, 1 to wait on (a late answer to a past timeout), -1 ended. */
static int answer(match *m, int i, int nlegal, uint32_t id, int from, msgpack_unpacked *msg,
                  const ref_turn *t, ref_decision *d)
{
    char type[16];
    int64_t got_id = -1;
    int typed = mps_get_str(&msg->data, "type", type, sizeof type) == 0 &&
                strcmp(type, "action") == 0;
    mps_get_int(&msg->data, "id", &got_id);
    if (typed && got_id >= 0 && got_id < m->seats[from].stale_below) {
        msgpack_unpacked_destroy(msg);      /* a late answer to a past timeout */
        return 1;
    }
    if (from != i || !typed || got_id != id) {
        msgpack_unpacked_destroy(msg);
        match_forfeit(m, from, REF_OUT_OF_TURN, "seat %d sent %s out of turn", from,
                      typed ? "an action" : "a message");
        return -1;
    }
    char why[160];
    int bad = resolve(m, i, &msg->data, nlegal, &d->action, why, sizeof why);
    msgpack_unpacked_destroy(msg);
    if (bad < 0)
        return -1;
    ref_turn_charge(&m->clocks, t);
    if (bad) {
        d->substituted = 1;
        return strike(m, i, nlegal, REF_ILLEGAL, why, &d->action);
    }
    return 0;
}

/* Seat i timed out: the match ends if the machine caused it (contended),
 * else a strike. 0 with d->action, or -1 when the match ended. */
static int timed_out(match *m, int i, int nlegal, const ref_turn *t, ref_decision *d)
{
    char why[200];
    if (ref_turn_timed_out(&m->clocks, t, d, why, sizeof why)) {
        match_forfeit(m, i, REF_CONTENDED, "%s", why);
        return -1;
    }
    return strike(m, i, nlegal, REF_TIMEOUT, why, &d->action);
}

/* Asks seat i to move for decision `id`, its clock running (ref_turn.h):
 * 0 with d filled, -1 when the match ended. */
static int decide(match *m, int i, int nlegal, uint32_t id, ref_decision *d)
{
    seat *s = &m->seats[i];
    ref_clocks *k = &m->clocks;
    if (tell(m, i) < 0)
        return -1;
    m->sb.size = 0;
    ref_msg_request(&m->sb, m->g, m->state, i, id, m->legal, nlegal,
                    (ref_clock){ m->cfg->terms.move_ms, k->seat[i].bank_us / 1000 });
    ref_turn t;
    ref_turn_open(k, i, &t);
    if (match_send(m, i) < 0)
        return -1;
    ref_turn_begin(k, &t);
    d->seat = (uint8_t)i;
    d->substituted = 0;
    d->log_end = REF_LOG_UNMARKED;
    for (;;) {
        msgpack_unpacked msg;
        int from = match_next_message(m, ref_turn_wake(k, &t), &msg);
        ref_turn_measure(k, &t, d);
        if (from == i)
            d->log_end = log_mark(s);
        if (from == -2)
            return -1;
        ref_turn_verdict v = ref_turn_judge(k, &t, d, from >= 0);
        if (v == REF_TURN_WAIT)
            continue;
        if (from >= 0 && v == REF_TURN_LATE) {
            msgpack_unpacked_destroy(&msg);    /* it came, but after the deadline */
            from = -1;
        }
        if (from == -1)
            match_check_limits(m, 1);
        if (m->over)
            return -1;
        if (from == -1) {
            s->stale_below = id + 1;
            d->log_end = log_mark(s);
            return timed_out(m, i, nlegal, &t, d);
        }
        int rc = answer(m, i, nlegal, id, from, &msg, &t, d);
        if (rc <= 0)
            return rc;
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
        ref_clocks_turn_end(&m->clocks, i);
        if (m->rec->ndecisions == capacity) {
            capacity = capacity ? 2 * capacity : 512;
            const char **names = realloc(m->decision_names, capacity * sizeof *names);
            if (!names) {
                match_forfeit(m, i, REF_CRASH, "referee out of memory");
                return;
            }
            m->decision_names = names;
        }
        m->decision_names[m->rec->ndecisions] = decision;
        if (ref_record_add(m->rec, &d) < 0) {
            match_forfeit(m, i, REF_CRASH, "referee out of memory");
            return;
        }
        g->apply(m->state, d.action);
        if (m->cfg->on_decision)
            m->cfg->on_decision(m->cfg->on_decision_ctx, m->rec);
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
        ref_clocks_hold(&m->clocks, i, 0);
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
        while (s->spawned && !ref_proc_exited(&s->proc) && clk_mono_us() < until &&
               !s->closed) {
            ref_proc_drain(&s->proc);
            match_watch_endpoints(m);     /* a flood now still costs its seat */
            usleep(2000);
        }
        if (s->spawned)
            ref_proc_kill(&s->proc, KILL_GRACE_MS);
    }
    ref_proc_reap_orphans(KILL_GRACE_MS);
}

/* After the handshake: the clocks start (ref_turn.h) with the seats' bots. */
static void start_clocks(match *m)
{
    for (int i = 0; i < m->n; i++) {
        m->clocks.seat[i].proc = &m->seats[i].proc;
        m->clocks.seat[i].spawned = m->seats[i].spawned;
        m->clocks.seat[i].remote = m->cfg->bot_relay[i];
        m->clocks.seat[i].link_us = -1;
    }
    ref_clocks_start(&m->clocks, m->rec->clock, sizeof m->rec->clock);
}

static void release(match *m)
{
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        ref_meter_close(&m->clocks.seat[i].meter);
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
    ref_meter_own_close(&m->clocks.own);
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
    m.dir = m.folder.path;
    m.cfg = c;
    m.limits = c->limits;
    m.limits.memory_bytes = ref_terms_memory_bytes(&c->terms, c->limits.memory_bytes);
    m.g = c->game;
    m.n = c->nbots;
    m.rec = rec;
    m.substitute_rng = c->seed ^ 0x5ab571707e5ULL;
    m.clocks = (ref_clocks){ .want = c->terms.clock, .move_ms = c->terms.move_ms,
                             .wall_ceiling = ref_terms_wall_ceiling(&c->terms),
                             .ponder = c->terms.ponder,
                             .unmetered = c->unmetered, .clock = c->clock, .n = c->nbots };
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
        if (match_open_seat(&m, i, err, size) < 0)
            goto out;
    ref_meter_own_open(&m.clocks.own);     /* libzmq's threads are running now */
    ref_proc_init_supervisor();
    m.spawned = match_now(&m);
    for (int i = 0; i < m.n; i++)
        match_start_bot(&m, i);
    match_handshake(&m);
    start_clocks(&m);
    int64_t started = match_now(&m);
    play(&m);
    rec->play_micros = (uint64_t)(match_now(&m) - started);
    finish(&m);
    rc = 0;
out:
    release(&m);
    return rc;
}

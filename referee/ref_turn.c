/*
 * ref_turn.c - one decision and its clocks (ref_match.h: the clocks): the
 * request, the wait for its answer under the CPU or the wall clock, the
 * charge, a timeout judged as the bot's or the machine's (contended), and
 * the freezer between turns for a bot seen pondering.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <zmq.h>
#include "ref_match_internal.h"
#include "ref_msg.h"

/* Brings seat s's meter up to now, unless the match is unmetered (its
 * figures then stay unknown). */
static void sample(const match *m, seat *s)
{
    if (!m->cfg->unmetered)
        ref_meter_sample(&s->meter, &s->proc);
}

/* Freezes or thaws seat i, where bots are frozen between their turns. */
void turn_hold(match *m, int i, int frozen)
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
 * ran is charged to its next decision (turn_decide: cpu0) all the same. */
#define PONDER_NS 10000000ULL

/* Marks seat j pondering if it has run more than PONDER_NS between turns. */
void turn_watch(match *m, int j)
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
        turn_hold(m, j, 1);
    }
}

/* Seat i's turn begins (its request is sent): thawed if it was frozen.
 * Done after the send, a thawed bot finds its request waiting instead of
 * being woken twice. */
static void begin_turn(match *m, int i)
{
    m->mover = i;
    turn_hold(m, i, 0);
}

/* Seat i's turn has ended: it is frozen if it ponders; the others are
 * looked at, having waited through its turn. */
void turn_end(match *m, int i)
{
    seat *s = &m->seats[i];
    m->mover = -1;
    s->turn_end_ns = s->meter.cpu_ns;
    if (s->pondered)
        turn_hold(m, i, 1);
    for (int j = 0; j < m->n; j++)
        if (j != i)
            turn_watch(m, j);
}

/* After the handshake: every bot's meter started and every bot frozen,
 * where the freezer lets a frozen bot die with its referee; the clock line. */
void turn_start_clocks(match *m)
{
    const ref_config *c = m->cfg;
    int measured = 1;
    m->freeze = !c->terms.ponder && !c->unmetered;
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        if (!s->spawned || !s->proc.cg.sys || !ref_cg_freeze_kills(s->proc.cg.sys))
            m->freeze = 0;
        sample(m, s);
        measured &= s->meter.cpu_known || !s->spawned;
    }
    cpu_set_t set;
    m->cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    m->mode = measured ? c->terms.clock : REF_CLOCK_WALL;
    m->mover = -1;
    for (int i = 0; i < m->n; i++) {
        seat *s = &m->seats[i];
        s->turn_end_ns = s->meter.cpu_ns;
        /* Without the group's CPU time, pondering cannot be seen: frozen
         * between turns from the start. */
        s->pondered = s->spawned && s->proc.cg.cpu_fd < 0;
        if (s->pondered)
            turn_hold(m, i, 1);
    }
    char ceiling[24] = "";      /* " ceiling=" and a %g: at most 22 */
    if (m->mode == REF_CLOCK_CPU)
        snprintf(ceiling, sizeof ceiling, " ceiling=%g", ref_terms_wall_ceiling(&c->terms));
    snprintf(m->rec->clock, sizeof m->rec->clock, "%s%s between=%s%s",
             ref_clock_mode_name(m->mode), ceiling,
             c->terms.ponder || c->unmetered ? "ponder" : m->freeze ? "frozen" : "charged",
             c->unmetered                 ? " (unmetered)"
             : m->mode != c->terms.clock   ? " (no CPU time here)" : "");
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

/* A decision that timed out, having cost `charged` (under the CPU clock)
 * while the machine kept it `wait` (the bot's and the referee's waits for
 * a CPU, -1 unknown): contended (ends the match, nobody charged), or a
 * strike against the seat. */
static int timed_out(match *m, int i, int nlegal, int64_t budget, int64_t cpu_used,
                     int64_t charged, int64_t wait, ref_decision *d)
{
    seat *s = &m->seats[i];
    int cpu = m->mode == REF_CLOCK_CPU;
    double ceiling = ref_terms_wall_ceiling(&m->cfg->terms);
    int starved = cpu && d->micros >= (uint64_t)(budget * ceiling) * REF_STARVED;
    if ((!cpu || starved) &&
        ref_meter_contended(budget, d->micros, s->meter.cpu_known ? cpu_used : -1, wait)) {
        match_forfeit(m, i, REF_CONTENDED,
                      "seat %d had no action within %u ms, having used %" PRId64
                      " ms of CPU and waited %" PRId64 " ms for one: the machine is "
                      "overloaded",
                      i, d->micros / 1000, cpu_used / 1000, wait / 1000);
        return -1;
    }
    s->bank_us = 0;
    d->substituted = 1;
    char detail[160];
    if (cpu && cpu_used > budget)
        snprintf(detail, sizeof detail, "used %" PRId64 " ms of CPU, over its %" PRId64
                 " ms", cpu_used / 1000, budget / 1000);
    else if (cpu && !starved)
        snprintf(detail, sizeof detail, "no action within %u ms, %" PRId64 " ms of them not "
                 "waiting for a CPU, over its %" PRId64 " ms", d->micros / 1000,
                 charged / 1000, budget / 1000);
    else
        snprintf(detail, sizeof detail, "no action within %u ms", d->micros / 1000);
    return match_strike(m, i, nlegal, REF_TIMEOUT, detail, &d->action);
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

/* How soon a decision late by its wall time, while a thread was runnable,
 * is looked at again. */
#define RECHECK_US 1000

/* Asks the seat to move for one decision; 0 with d filled, -1 if it ended. */
int turn_decide(match *m, int i, int nlegal, uint32_t id, ref_decision *d)
{
    seat *s = &m->seats[i];
    const ref_config *c = m->cfg;
    if (match_tell(m, i) < 0)
        return -1;
    m->sb.size = 0;
    ref_msg_request(&m->sb, m->g, m->state, i, id, m->legal, nlegal,
                    (ref_clock){ c->terms.move_ms, s->bank_us / 1000 });
    /* Without pondering, what the bot used since its last decision ended
     * (nothing when it was frozen) is charged to this one. */
    if (c->terms.ponder)
        sample(m, s);
    uint64_t cpu0 = s->meter.cpu_ns, wait0 = s->meter.wait_ns;
    int cpu = m->mode == REF_CLOCK_CPU;
    int64_t budget = c->terms.move_ms * 1000 + s->bank_us, sent = match_now(m);
    /* Under the CPU clock a decision is charged its CPU time or the wall
     * time it was not waiting for a CPU (sleeping, blocked, or running),
     * whichever is more (ref_meter_charge), so that a starved bot is never
     * charged and a sleeping one is; a hard limit, REF_STARVED times the
     * wall ceiling, ends even one the machine starves for good
     * (contended). */
    int64_t ceiling = (int64_t)((double)budget * ref_terms_wall_ceiling(&c->terms));
    int64_t until = sent + (cpu ? ceiling * REF_STARVED : budget);
    /* The referee's threads' waits: libzmq's from the request on, its own
     * (this thread's) only over the last wait for a message, the one that
     * read the answer: its waits at earlier looks delayed nobody. */
    int64_t self0, self_last, others0 = ref_meter_own_wait_us(&m->own, &self0), waits = 0;
    self_last = self0;
    if (match_send(m, i) < 0)
        return -1;
    begin_turn(m, i);
    d->seat = (uint8_t)i;
    d->substituted = 0;
    d->log_end = REF_LOG_UNMARKED;
    for (;;) {
        msgpack_unpacked msg;
        int64_t wake = until;
        if (cpu) {
            /* Its CPU time is looked at; its time not waiting for a CPU
             * runs out, at the earliest, if it waits no more. */
            int64_t look = match_now(m) +
                           cpu_look(m, budget - (int64_t)(s->meter.cpu_ns - cpu0) / 1000);
            int64_t awake_out = sent + budget + waits + 1;
            wake = look < wake ? look : wake;
            wake = awake_out < wake ? awake_out : wake;
        }
        int from = match_next_message(m, wake, &msg);
        int64_t wall = match_now(m) - sent;
        if (from == i)
            d->log_end = log_mark(s);
        sample(m, s);
        int64_t cpu_used = (int64_t)(s->meter.cpu_ns - cpu0) / 1000;
        d->micros = clamp_us(wall);
        d->cpu_us = s->meter.cpu_known ? clamp_us(cpu_used) : REF_UNMEASURED;
        d->wait_us = s->meter.wait_known ? clamp_us((int64_t)(s->meter.wait_ns - wait0) / 1000)
                                         : REF_UNMEASURED;
        if (from == -2)
            return -1;
        /* The machine's share of the wall time (-1 unknown): the bot's
         * threads' wait for a CPU, and the referee's (see self0). */
        int64_t self, others = ref_meter_own_wait_us(&m->own, &self);
        int64_t own = (others0 >= 0 ? others - others0 : 0) +
                      (self_last >= 0 && self >= 0 ? self - self_last : 0);
        self_last = self;
        int64_t wait = d->wait_us == REF_UNMEASURED ? -1 : (int64_t)d->wait_us;
        if (own > 0)
            wait = (wait > 0 ? wait : 0) + own;
        waits = wait > 0 ? wait : 0;
        int64_t used = cpu ? ref_meter_charge(cpu_used, wall, wait) : wall;
        int late = used > budget || sent + wall > until;
        /* Late by its time not waiting for a CPU alone, while a thread of
         * its or the referee's is runnable: that thread's wait so far is
         * not counted yet. Judged again once it has run (its CPU time
         * still counts), up to the wall ceiling: a bot that keeps a thread
         * runnable without running (nice, SCHED_IDLE) gains no more. */
        if (from == -1 && late && cpu && cpu_used <= budget && used <= ceiling &&
            sent + wall <= until && ref_meter_runnable(&s->meter, &m->own)) {
            waits = wall - budget + RECHECK_US;     /* awake_out: in RECHECK_US */
            continue;
        }
        if (from == -1 && !late)
            continue;                          /* a look at its CPU time */
        if (from >= 0 && late) {
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
            return timed_out(m, i, nlegal, budget, cpu_used, used, wait, d);
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
            match_forfeit(m, from, REF_OUT_OF_TURN, "seat %d sent %s out of turn", from,
                          typed ? "an action" : "a message");
            return -1;
        }
        char why[160];
        int bad = match_resolve(m, i, &msg.data, nlegal, &d->action, why, sizeof why);
        msgpack_unpacked_destroy(&msg);
        if (bad < 0)
            return -1;
        int64_t over = used - c->terms.move_ms * 1000;
        if (over > 0)
            s->bank_us = s->bank_us > over ? s->bank_us - over : 0;
        if (bad) {
            d->substituted = 1;
            return match_strike(m, i, nlegal, REF_ILLEGAL, why, &d->action);
        }
        return 0;
    }
}

/*
 * ref_turn.c - the time control's clocks (ref_turn.h): each seat's bank
 * and meter, one decision's deadlines and charge under the CPU or the wall
 * clock, a timeout judged as the bot's or the machine's (contended), and
 * the freezer between turns for a bot seen pondering.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include "ref_turn.h"

/* Brings seat s's meter up to now, unless the match is unmetered (its
 * figures then stay unknown). */
static void sample(const ref_clocks *k, ref_seat_clock *s)
{
    if (!k->unmetered)
        ref_meter_sample(&s->meter, s->proc);
}

void ref_clocks_hold(ref_clocks *k, int i, int frozen)
{
    ref_seat_clock *s = &k->seat[i];
    if (!k->freeze || !s->spawned || !s->proc->live || s->frozen == frozen)
        return;
    if (ref_cg_freeze(&s->proc->cg, frozen) == 0)
        s->frozen = frozen;
}

/* Bots are frozen between their turns only once they are seen to think
 * there: freezing and thawing at every turn wakes every thread of the bot
 * twice, which for a fast bot costs more than its decision; a bot that
 * sleeps between its turns never needs it. A bot seen running more than
 * PONDER_NS of CPU between its turns, in all, is frozen between them from
 * then on. It is seen when a turn ends and at each limits check (every
 * LIMITS_EVERY_US of ref_match_io.c), so what it takes from other matches
 * is bounded; what it ran is charged to its next decision (ref_turn_open:
 * cpu0) all the same. */
#define PONDER_NS 10000000ULL

void ref_clocks_watch(ref_clocks *k, int j)
{
    ref_seat_clock *s = &k->seat[j];
    if (!k->freeze || s->pondered || j == k->mover || !s->spawned || !s->proc->live)
        return;
    uint64_t cpu = ref_cg_cpu_ns(&s->proc->cg);
    if (cpu > s->turn_end_ns)
        s->off_turn_ns += cpu - s->turn_end_ns;
    s->turn_end_ns = cpu > s->turn_end_ns ? cpu : s->turn_end_ns;
    if (s->off_turn_ns > PONDER_NS) {
        s->pondered = 1;
        ref_clocks_hold(k, j, 1);
    }
}

/* Seat i's turn has ended: it is frozen if it ponders; the others are
 * looked at, having waited through its turn. */
void ref_clocks_turn_end(ref_clocks *k, int i)
{
    ref_seat_clock *s = &k->seat[i];
    k->mover = -1;
    s->turn_end_ns = s->meter.cpu_ns;
    if (s->pondered)
        ref_clocks_hold(k, i, 1);
    for (int j = 0; j < k->n; j++)
        if (j != i)
            ref_clocks_watch(k, j);
}

void ref_clocks_start(ref_clocks *k, char *line, size_t size)
{
    int measured = 1;
    k->freeze = !k->ponder && !k->unmetered;
    for (int i = 0; i < k->n; i++) {
        ref_seat_clock *s = &k->seat[i];
        if (!s->spawned || !s->proc->cg.sys || !ref_cg_freeze_kills(s->proc->cg.sys))
            k->freeze = 0;
        sample(k, s);
        measured &= s->meter.cpu_known || !s->spawned;
    }
    cpu_set_t set;
    k->cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    k->mode = measured ? k->want : REF_CLOCK_WALL;
    k->mover = -1;
    for (int i = 0; i < k->n; i++) {
        ref_seat_clock *s = &k->seat[i];
        s->turn_end_ns = s->meter.cpu_ns;
        /* Without the group's CPU time, pondering cannot be seen: frozen
         * between turns from the start. */
        s->pondered = s->spawned && s->proc->cg.cpu_fd < 0;
        if (s->pondered)
            ref_clocks_hold(k, i, 1);
    }
    char ceiling[24] = "";      /* " ceiling=" and a %g: at most 22 */
    if (k->mode == REF_CLOCK_CPU)
        snprintf(ceiling, sizeof ceiling, " ceiling=%g", k->wall_ceiling);
    /* A remote seat's: the bound of its link's allowance, ms. */
    char link[24] = "";
    for (int i = 0; i < k->n && !link[0]; i++)
        if (k->seat[i].remote)
            snprintf(link, sizeof link, " link<=%g", ref_link_bound_us(k->move_ms) / 1000.0);
    snprintf(line, size, "%s%s between=%s%s%s", ref_clock_mode_name(k->mode), ceiling,
             k->ponder || k->unmetered ? "ponder" : k->freeze ? "frozen" : "charged", link,
             k->unmetered           ? " (unmetered)"
             : k->mode != k->want   ? " (no CPU time here)" : "");
}

/* ---- a remote seat's link ---------------------------------------------- */

int64_t ref_link_bound_us(int64_t move_ms)
{
    int64_t half = move_ms * 1000 / 2;
    return half < REF_LINK_BOUND_MS * 1000 ? half : REF_LINK_BOUND_MS * 1000;
}

int64_t ref_link_allowance_us(int64_t rtt_us, int64_t bound_us)
{
    return rtt_us <= 0 ? 0 : rtt_us < bound_us ? rtt_us : bound_us;
}

int64_t ref_link_charge_us(int64_t wall_us, int64_t rtt_us, int64_t bound_us)
{
    int64_t left = wall_us - ref_link_allowance_us(rtt_us, bound_us);
    return left > 0 ? left : 0;
}

/* ---- one decision ------------------------------------------------------- */

/* A seat's allowance for its link now (0 for a local seat). */
static int64_t link_allowance(const ref_clocks *k, const ref_seat_clock *s)
{
    return s->remote ? ref_link_allowance_us(s->link_us, ref_link_bound_us(k->move_ms)) : 0;
}

static uint32_t clamp_us(int64_t us)
{
    return us < 0 ? 0 : us >= REF_UNMEASURED ? REF_UNMEASURED - 1 : (uint32_t)us;
}

void ref_turn_open(ref_clocks *k, int i, ref_turn *t)
{
    ref_seat_clock *s = &k->seat[i];
    memset(t, 0, sizeof *t);
    t->seat = i;
    /* Without pondering, what the bot used since its last decision ended
     * (nothing when it was frozen) is charged to this one. */
    if (k->ponder)
        sample(k, s);
    t->cpu0 = s->meter.cpu_ns;
    t->wait0 = s->meter.wait_ns;
    t->cpu = k->mode == REF_CLOCK_CPU;
    t->budget = k->move_ms * 1000 + s->bank_us;
    t->allow = link_allowance(k, s);
    t->sent = clk_now_us(k->clock);
    /* Under the CPU clock a decision is charged its CPU time or the wall
     * time it was not waiting for a CPU (sleeping, blocked, or running),
     * whichever is more (ref_meter_charge), so that a starved bot is never
     * charged and a sleeping one is; a hard limit, REF_STARVED times the
     * wall ceiling, ends even one the machine starves for good
     * (contended). */
    t->ceiling = (int64_t)((double)t->budget * k->wall_ceiling);
    t->until = t->sent + (t->cpu ? t->ceiling * REF_STARVED : t->budget);
    /* The referee's threads' waits: libzmq's from the request on, its own
     * (this thread's) only over the last wait for a message, the one that
     * read the answer: its waits at earlier looks delayed nobody. */
    int64_t self0;
    t->others0 = ref_meter_own_wait_us(&k->own, &self0);
    t->self_last = self0;
}

/* Seat i's turn begins (its request is sent): thawed if it was frozen.
 * Done after the send, a thawed bot finds its request waiting instead of
 * being woken twice. */
void ref_turn_begin(ref_clocks *k, ref_turn *t)
{
    k->mover = t->seat;
    ref_clocks_hold(k, t->seat, 0);
}

/* The wait before the next look at a bot's CPU time: it cannot use the
 * rest of its budget faster than on every CPU at once. */
static int64_t cpu_look(const ref_clocks *k, int64_t left_us)
{
    int64_t step = left_us / (k->cpus > 0 ? k->cpus : 1);
    return step < 1000 ? 1000 : step > 50000 ? 50000 : step;
}

int64_t ref_turn_wake(const ref_clocks *k, const ref_turn *t)
{
    int64_t wake = t->until + t->allow;
    if (t->cpu) {
        /* Its CPU time is looked at; its time not waiting for a CPU runs
         * out, at the earliest, if it waits no more. */
        const ref_seat_clock *s = &k->seat[t->seat];
        int64_t look = clk_now_us(k->clock) +
                       cpu_look(k, t->budget - (int64_t)(s->meter.cpu_ns - t->cpu0) / 1000);
        int64_t awake_out = t->sent + t->budget + t->allow + t->waits + 1;
        wake = look < wake ? look : wake;
        wake = awake_out < wake ? awake_out : wake;
    }
    return wake;
}

void ref_turn_measure(ref_clocks *k, ref_turn *t, ref_decision *d)
{
    ref_seat_clock *s = &k->seat[t->seat];
    t->wall = clk_now_us(k->clock) - t->sent;
    sample(k, s);
    t->cpu_used = (int64_t)(s->meter.cpu_ns - t->cpu0) / 1000;
    d->micros = clamp_us(t->wall);
    d->cpu_us = s->meter.cpu_known ? clamp_us(t->cpu_used) : REF_UNMEASURED;
    d->wait_us = s->meter.wait_known ? clamp_us((int64_t)(s->meter.wait_ns - t->wait0) / 1000)
                                     : REF_UNMEASURED;
    /* A remote seat's allowance: its link as its relay last said. */
    t->allow = link_allowance(k, s);
    d->remote = (uint8_t)s->remote;
    d->link_us = clamp_us(t->allow < t->wall ? t->allow : t->wall);     /* what it takes off */
}

/* How soon a decision late by its wall time, while a thread was runnable,
 * is looked at again. */
#define RECHECK_US 1000

ref_turn_verdict ref_turn_judge(ref_clocks *k, ref_turn *t, const ref_decision *d,
                                int answered)
{
    int64_t wall = t->wall, cpu_used = t->cpu_used, budget = t->budget;
    int cpu = t->cpu;
    /* The machine's share of the wall time (-1 unknown): the bot's
     * threads' wait for a CPU, and the referee's (see ref_turn_open). */
    int64_t self, others = ref_meter_own_wait_us(&k->own, &self);
    int64_t own = (t->others0 >= 0 ? others - t->others0 : 0) +
                  (t->self_last >= 0 && self >= 0 ? self - t->self_last : 0);
    t->self_last = self;
    int64_t wait = d->wait_us == REF_UNMEASURED ? -1 : (int64_t)d->wait_us;
    if (own > 0)
        wait = (wait > 0 ? wait : 0) + own;
    t->wait = wait;
    t->waits = wait > 0 ? wait : 0;
    /* The wall time less a remote seat's link (ref_link_charge_us). */
    int64_t awake_wall = wall - t->allow;
    int64_t used = cpu ? ref_meter_charge(cpu_used, awake_wall, wait)
                       : awake_wall > 0 ? awake_wall : 0;
    t->used = used;
    int late = used > budget || t->sent + wall > t->until + t->allow;
    /* Late by its time not waiting for a CPU alone, while a thread of
     * its or the referee's is runnable: that thread's wait so far is
     * not counted yet. Judged again once it has run (its CPU time
     * still counts), up to the wall ceiling: a bot that keeps a thread
     * runnable without running (nice, SCHED_IDLE) gains no more. */
    if (!answered && late && cpu && cpu_used <= budget && used <= t->ceiling &&
        t->sent + wall <= t->until + t->allow &&
        ref_meter_runnable(&k->seat[t->seat].meter, &k->own)) {
        t->waits = awake_wall - budget + RECHECK_US;     /* awake_out: in RECHECK_US */
        return REF_TURN_WAIT;
    }
    if (!answered)
        return late ? REF_TURN_LATE : REF_TURN_WAIT;   /* or a look at its CPU time */
    return late ? REF_TURN_LATE : REF_TURN_IN_TIME;    /* it came after the deadline */
}

int ref_turn_timed_out(ref_clocks *k, const ref_turn *t, ref_decision *d, char *why,
                       size_t size)
{
    ref_seat_clock *s = &k->seat[t->seat];
    int64_t budget = t->budget, cpu_used = t->cpu_used, charged = t->used, wait = t->wait;
    int cpu = t->cpu;
    int starved = cpu && d->micros >= (uint64_t)(budget * k->wall_ceiling) * REF_STARVED;
    if ((!cpu || starved) &&
        ref_meter_contended(budget, d->micros, s->meter.cpu_known ? cpu_used : -1, wait)) {
        snprintf(why, size,
                 "seat %d had no action within %u ms, having used %" PRId64
                 " ms of CPU and waited %" PRId64 " ms for one: the machine is overloaded",
                 t->seat, d->micros / 1000, cpu_used / 1000, wait / 1000);
        return 1;
    }
    s->bank_us = 0;
    d->substituted = 1;
    if (cpu && cpu_used > budget)
        snprintf(why, size, "used %" PRId64 " ms of CPU, over its %" PRId64 " ms",
                 cpu_used / 1000, budget / 1000);
    else if (cpu && !starved)
        snprintf(why, size, "no action within %u ms, %" PRId64 " ms of them not "
                 "waiting for a CPU, over its %" PRId64 " ms", d->micros / 1000,
                 charged / 1000, budget / 1000);
    else if (t->allow > 0)
        snprintf(why, size, "no action within %u ms, less %" PRId64 " ms for its link, over "
                 "its %" PRId64 " ms", d->micros / 1000, t->allow / 1000, budget / 1000);
    else
        snprintf(why, size, "no action within %u ms", d->micros / 1000);
    return 0;
}

void ref_turn_charge(ref_clocks *k, const ref_turn *t)
{
    ref_seat_clock *s = &k->seat[t->seat];
    int64_t used = t->used;
    int64_t over = used - k->move_ms * 1000;
    if (over > 0)
        s->bank_us = s->bank_us > over ? s->bank_us - over : 0;
}

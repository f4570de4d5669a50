/*
 * ref_turn.h - the time control's clocks: every seat's bank and meter, the
 * freezer between turns for a bot seen pondering, and one decision's time
 * (its deadlines, its charge, a timeout judged as the bot's or the
 * machine's). It knows no socket and no match: the match (ref_match.c)
 * asks a seat for its decision and reads the answer; ref_turn.c keeps the
 * time. The clock modes (what a decision is charged):
 *   cpu:  the CPU time the bot used (its control group: every process and
 *         thread) or its wall time less the time it (and the referee)
 *         waited for a CPU, whichever is more (ref_meter_charge): a
 *         sleeping or blocked bot spends its time as a thinking one does;
 *         a bot is never charged for waiting for a CPU.
 *   wall: the time from request to answer, whatever the machine did.
 * A remote seat (the arena's relay to a bot played from its participant's
 * machine) is charged either less its link's allowance (ref_link_charge_us).
 */
#ifndef REF_TURN_H
#define REF_TURN_H

#include <stddef.h>
#include <stdint.h>
#include "clk.h"
#include "game.h"
#include "ref_meter.h"
#include "ref_proc.h"
#include "ref_record.h"
#include "ref_terms.h"

/* Under the CPU clock, a decision ends at this many times its wall ceiling
 * however long the bot waited for a CPU (then `contended`). */
#define REF_STARVED 10

/* A remote seat's link: each of its decisions' wall time is its bot's
 * time plus the round trip between the referee's machine and its
 * participant's, which the relay measures on the seat's own connection
 * (a ping through the gateway to `arena connect` and back) and tells the
 * referee (ref_relay.h). That round trip is not charged, up to a bound:
 * REF_LINK_BOUND_MS, and never more than half the move time. The relay
 * cannot tell a slow link from a participant's program that holds its
 * pongs back; the bound is what such a program can gain at most. */
#define REF_LINK_BOUND_MS 250

/* The bound under a move time: min(REF_LINK_BOUND_MS, move_ms / 2), us. */
int64_t ref_link_bound_us(int64_t move_ms);
/* A decision's allowance: its link's round trip (-1: not measured yet, 0),
 * at most the bound. */
int64_t ref_link_allowance_us(int64_t rtt_us, int64_t bound_us);
/* The rule: the wall time measured at the referee less the allowance,
 * never below 0. */
int64_t ref_link_charge_us(int64_t wall_us, int64_t rtt_us, int64_t bound_us);

/* One seat's clock. */
typedef struct ref_seat_clock {
    ref_proc *proc;             /* its bot's process (the match's seat) */
    int      spawned;           /* that bot was started */
    int64_t  bank_us;
    ref_meter meter;            /* its CPU time and CPU waiting so far */
    int      frozen;            /* its control group is frozen (not on move) */
    int      pondered;          /* it ran between its turns: frozen there from now on */
    uint64_t off_turn_ns;       /* CPU it ran between its turns, in all */
    uint64_t turn_end_ns;       /* its CPU time when its last turn ended */
    int      remote;            /* a remote bot's relay: its link is allowed for */
    int64_t  link_us;           /* remote: the link's round trip its relay last
                                   said, -1 none yet */
} ref_seat_clock;

/* The match's clocks. The time control's fields are the match terms', and
 * each seat's proc and spawned the match's, set before ref_clocks_start;
 * the rest is kept here. */
typedef struct ref_clocks {
    ref_clock_mode want;        /* the terms' clock */
    int64_t  move_ms;
    double   wall_ceiling;
    int      ponder, unmetered;
    const clk_source *clock;    /* NULL: the monotonic clock */
    int      n;
    ref_seat_clock seat[GAME_MAX_SEATS];
    ref_own  own;               /* the referee's threads: their wait for a CPU */
    ref_clock_mode mode;        /* `want`, unless CPU time is unknown here */
    int      freeze;            /* bots are frozen between their turns */
    int      cpus;              /* this process may run on so many */
    int      mover;             /* the seat whose turn it is, -1 between turns */
} ref_clocks;

/* After the handshake: every bot's meter started and, where the freezer
 * lets a frozen bot die with its referee, frozen between turns; the clock
 * line of the record into `line`. */
void ref_clocks_start(ref_clocks *k, char *line, size_t size);
/* Freezes or thaws seat i, where bots are frozen between their turns. */
void ref_clocks_hold(ref_clocks *k, int i, int frozen);
/* Marks seat j pondering (frozen between its turns from then on) if it has
 * run too long between them. */
void ref_clocks_watch(ref_clocks *k, int j);
/* Seat i's turn has ended. */
void ref_clocks_turn_end(ref_clocks *k, int i);

/* One decision's time. */
typedef struct ref_turn {
    int      seat;
    int      cpu;               /* under the CPU clock */
    int64_t  budget;            /* move time and bank left, us */
    int64_t  ceiling;           /* the wall ceiling's share of it */
    int64_t  sent, until;       /* the request's time; the hard deadline */
    uint64_t cpu0, wait0;       /* the seat's meter at the request */
    int64_t  others0, self_last;    /* the referee's threads' waits */
    int64_t  waits;             /* the machine's share of the wall time so far */
    int64_t  wall, cpu_used, used, wait;    /* at the last look */
    int64_t  allow;             /* the seat's link's allowance at the last look */
} ref_turn;

typedef enum { REF_TURN_WAIT, REF_TURN_LATE, REF_TURN_IN_TIME } ref_turn_verdict;

/* Before seat i's request is sent: its deadlines. */
void ref_turn_open(ref_clocks *k, int i, ref_turn *t);
/* Once the request is out: its turn begins (it is thawed). */
void ref_turn_begin(ref_clocks *k, ref_turn *t);
/* How long to wait for its answer before looking at its clock again. */
int64_t ref_turn_wake(const ref_clocks *k, const ref_turn *t);
/* After a wait: the seat's meter sampled, d's times filled. */
void ref_turn_measure(ref_clocks *k, ref_turn *t, ref_decision *d);
/* After ref_turn_measure: a message came (`answered`) or the wait ended.
 * WAIT: look again; LATE: it timed out (whatever came); IN_TIME. */
ref_turn_verdict ref_turn_judge(ref_clocks *k, ref_turn *t, const ref_decision *d,
                                int answered);
/* A decision that timed out: 1 when the machine caused it (contended: why
 * says so, nobody is charged), else 0 with its bank spent, d substituted
 * and why the strike's detail. */
int  ref_turn_timed_out(ref_clocks *k, const ref_turn *t, ref_decision *d, char *why,
                        size_t size);
/* An answer in time: what it used beyond its move time comes off its bank. */
void ref_turn_charge(ref_clocks *k, const ref_turn *t);

#endif

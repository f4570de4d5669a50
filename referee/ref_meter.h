/*
 * ref_meter.h - what a bot's decisions cost it: CPU time and time spent
 * runnable but waiting for a CPU, for the fair clocks of the time control.
 *
 * CPU time comes from the bot's control group (every process and thread
 * it ever ran, exited ones included); waiting comes from the kernel's
 * scheduler statistics of each of the bot's threads (/proc/TID/schedstat,
 * its run_delay), summed, thread by thread, as deltas between samples:
 * a thread that appears counts from zero, one that exits keeps what was
 * counted before it went. Without a control group, the threads of the
 * bot's leader are all there is (their schedstat gives CPU time too);
 * without schedstat, the group's CPU pressure (v2 PSI) gives the waiting.
 *
 * A meter holds running totals; the referee samples it when a decision
 * starts and ends, and while it waits under the CPU clock, and charges the
 * differences. Sampling is on the path of every decision, so a meter keeps
 * each thread's schedstat open, and lists the group's threads again only
 * when one it follows is gone or the group ran CPU time that none of them
 * did (a new thread); without a group, when one is gone or the leader's
 * thread count (its /proc/PID/stat, kept open) differs from the last
 * listing's.
 */
#ifndef REF_METER_H
#define REF_METER_H

#include <stdint.h>
#include <sys/types.h>
#include "ref_proc.h"

#define REF_METER_TASKS 64       /* threads followed one by one; more still
                                    count in CPU time through the group */

/* A zeroed meter is an empty one; ref_meter_close ends any. */
typedef struct ref_meter {
    uint64_t cpu_ns;             /* CPU time so far */
    uint64_t wait_ns;            /* runnable, not running, so far */
    int      cpu_known;          /* 0: nothing here measures CPU time */
    int      wait_known;         /* 0: nothing here measures CPU waiting */
    int      n;                  /* threads followed: */
    pid_t    tid[REF_METER_TASKS];
    int      fd[REF_METER_TASKS];                            /* its schedstat, open */
    uint64_t run[REF_METER_TASKS], delay[REF_METER_TASKS];   /* last seen */
    int      stat_fd1;           /* without a group: the leader's /proc/PID/stat,
                                    open, + 1 (0: not open), for its thread count */
    int      listed;             /* threads the last listing found */
} ref_meter;

/* Brings the totals up to now. */
void ref_meter_sample(ref_meter *m, const ref_proc *p);

/* Closes the files a meter keeps open; it is empty again. */
void ref_meter_close(ref_meter *m);

/* The referee's own threads: its own and libzmq's, which carry every
 * message to and from the bots. While one of them waits for a CPU, a
 * request is late to reach its bot or an answer to be read, and the bot
 * can do nothing about it. */
#define REF_OWN_THREADS 16
typedef struct ref_own {
    int n;
    int fd[REF_OWN_THREADS];     /* each thread's schedstat, open */
    pid_t tid[REF_OWN_THREADS];
    int self;                    /* the opener's (the match's thread), or -1 */
} ref_own;

/* Opens the schedstat of every thread this process has now (up to
 * REF_OWN_THREADS; none where the kernel keeps none). */
void ref_meter_own_open(ref_own *o);

/* How long those threads but the opener have waited for a CPU in all
 * (microseconds, summed), or -1 unknown; the opener's own in *self_us (-1
 * unknown). The opener's matters only while an answer waits for it; the
 * others (libzmq's) carry every message. */
int64_t ref_meter_own_wait_us(const ref_own *o, int64_t *self_us);

void ref_meter_own_close(ref_own *o);

/* 1 when one of the bot's threads, or of the referee's but the caller, is
 * runnable now. The kernel adds a thread's wait for a CPU to its figures
 * only once it runs: one runnable now may be waiting, and its wait is not
 * counted yet. */
int ref_meter_runnable(const ref_meter *m, const ref_own *o);

/* 1 when this kernel keeps per-task scheduler statistics. */
int  ref_meter_schedstat(void);

/* What a decision costs under the CPU clock: its CPU time (every thread),
 * or its wall time minus the time it was runnable but waiting for a CPU,
 * whichever is more. Sleeping and blocking cost as much as thinking; the
 * machine's load costs nothing. An unknown wait (negative) is none. */
int64_t ref_meter_charge(int64_t cpu_us, int64_t wall_us, int64_t wait_us);

/* A timeout the machine caused rather than the bot: it used well under
 * its budget of CPU (under three quarters) and was runnable but waiting
 * for a CPU for a large share (a quarter or more) of the wall time.
 * Unknown figures (negative) never make one. */
int  ref_meter_contended(int64_t budget_us, int64_t wall_us, int64_t cpu_us, int64_t wait_us);

#endif

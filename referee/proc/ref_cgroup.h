/*
 * ref_cgroup.h - a control group per bot: real limits on memory, process
 * count and CPU for the bot and everything it starts, its CPU use, and a
 * sure way to freeze or kill all of it.
 *
 * Works with cgroup v2, v1, and hybrid machines (v1 resource controllers
 * beside a v2 hierarchy): each feature is taken from the hierarchy that
 * offers it, v1 first for the resource controllers a v1 mount holds.
 *
 *   feature        v1 controller (file)              v2 (file)
 *   memory limit   memory (memory.limit_in_bytes)    memory.max
 *   OOM kills      memory (memory.oom_control)       memory.events oom_kill
 *   process limit  pids (pids.max, pids.events)      pids.max, pids.events
 *   CPU quota      cpu (cpu.cfs_quota_us)            cpu.max
 *   CPU used       cpuacct (cpuacct.usage)           cpu.stat usage_usec
 *   CPU waited     -                                 cpu.pressure (PSI)
 *   freeze         freezer (freezer.state)           cgroup.freeze (v2 first)
 *   kill all       freeze, then kill each task       cgroup.kill
 *   tasks          tasks                             cgroup.threads
 *
 * Layout: under a parent (the referee's own cgroup in each hierarchy, or
 * one the operator names), each referee process makes `arena-PID`, and
 * each bot `arena-PID/botN` in it. Every process a referee starts lives in
 * such a group from before its exec, so nothing it starts can escape the
 * kill at the end: at the referee's exit (ref_cg_release), or, when it was
 * killed with SIGKILL, at the start of the next referee (ref_cg_clean_stale,
 * which kills what is left in the groups of referees that no longer run,
 * then removes them).
 *
 * Thread use: one thread at a time (the referee's main one).
 */
#ifndef REF_CGROUP_H
#define REF_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a machine offers; bit flags. */
enum {
    REF_CG_MEMORY  = 1 << 0,   /* memory limit and OOM-kill count */
    REF_CG_PIDS    = 1 << 1,   /* process (task) limit and its hits */
    REF_CG_CPU     = 1 << 2,   /* CPU quota */
    REF_CG_CPUACCT = 1 << 3,   /* CPU time used */
    REF_CG_FREEZE  = 1 << 4,   /* freeze and thaw */
    REF_CG_KILL    = 1 << 5,   /* atomic kill of every task (v2) */
    REF_CG_WAIT    = 1 << 6    /* time runnable but waiting for a CPU (v2 PSI) */
};

/* The machine's cgroups as this process may use them. Filled once by
 * ref_cg_probe; read-only afterwards. */
#define REF_CG_MAX_HIER 6
typedef struct ref_cg_system {
    unsigned features;          /* REF_CG_* usable here */
    int      nhier;
    struct ref_cg_hier {
        int  version;           /* 1 or 2 */
        char path[1200];        /* this referee's group: parent + arena-PID */
        unsigned features;      /* what this hierarchy serves */
    } hier[REF_CG_MAX_HIER];
    char     summary[160];      /* "v1: memory pids cpu cpuacct freezer; v2: kill wait" */
    char     missing[600];      /* why a feature is missing, "" when none is */
} ref_cg_system;

/* Probes the machine: for each feature, finds the hierarchy that offers
 * it, under `parent` (a cgroup path relative to each hierarchy's root,
 * such as "/arena"; NULL: this process's own cgroup), checks that a
 * child group can be made there, and makes this referee's `arena-PID`
 * group. Never fails: what cannot be used is left out of `features` and
 * explained in `missing`. Removes stale groups of dead referees first. */
void ref_cg_probe(ref_cg_system *sys, const char *parent);

/* Limits for one bot; 0 = no limit. */
typedef struct ref_cg_limits {
    uint64_t memory_bytes;      /* real memory (RSS + page cache + tmpfs) */
    unsigned max_tasks;         /* processes and threads together */
    unsigned cpu_millis;        /* CPU quota in thousandths of a core */
} ref_cg_limits;

/* One bot's group (a directory in each hierarchy used). A zeroed
 * ref_cg holds nothing and every function treats it as a no-op. */
typedef struct ref_cg {
    const ref_cg_system *sys;
    int  ndirs;
    int  dirfd[REF_CG_MAX_HIER];   /* open group directories, -1 unused */
    /* The files used at every decision, kept open (-1: none): opening
     * one costs several times reading it. */
    int  cpu_fd;                   /* cpuacct.usage (v1) or cpu.stat (v2) */
    int  freeze_fd;                /* freezer.state (v1) or cgroup.freeze (v2) */
    int  cpu_v2, freeze_v1;        /* which of the two each is */
    char name[32];                 /* "arena-PID/botN" */
} ref_cg;

/* Usage and limit hits so far. */
typedef struct ref_cg_usage {
    uint64_t cpu_ns;            /* CPU time of all tasks, ever (CPUACCT) */
    uint64_t wait_ns;           /* some-task-waiting time (WAIT) */
    uint64_t memory_peak;       /* bytes (MEMORY), 0 when unknown */
    uint64_t oom_kills;         /* tasks the OOM killer ended (MEMORY) */
    uint64_t task_limit_hits;   /* forks refused at max_tasks (PIDS) */
} ref_cg_usage;

/* Makes a bot's group with these limits. 0, or -1 with a message. */
int  ref_cg_create(ref_cg *cg, const ref_cg_system *sys, const ref_cg_limits *lim,
                   char *err, size_t size);
/* Moves process pid (not yet running the bot: its children follow it)
 * into every directory of the group. 0, or -1 with a message. */
int  ref_cg_attach(const ref_cg *cg, pid_t pid, char *err, size_t size);
/* Moves the calling process into every directory of the group: for a
 * child between fork and exec (async-signal-safe). 0, or an errno. */
int  ref_cg_enter(const ref_cg *cg);
/* Fills *u with what the group's features can tell (the rest 0). */
void ref_cg_usage_read(const ref_cg *cg, ref_cg_usage *u);
/* CPU time of all the group's tasks so far, ns (0 without CPUACCT): the
 * one file ref_cg_usage_read reads for it, for a caller that samples it at
 * every decision. */
uint64_t ref_cg_cpu_ns(const ref_cg *cg);
/* 1 when a frozen task still dies of SIGKILL (the v2 freezer), so that a
 * bot frozen between its turns cannot outlive a referee killed by -9. */
int  ref_cg_freeze_kills(const ref_cg_system *sys);
/* Freezes (1) or thaws (0) every task. 0, or -1 without REF_CG_FREEZE. */
int  ref_cg_freeze(const ref_cg *cg, int frozen);
/* Lists up to cap thread ids of the group's tasks; returns how many there
 * are (possibly more than cap), -1 when unknown. */
int  ref_cg_tasks(const ref_cg *cg, pid_t *out, int cap);
/* SIGKILLs every task, again and again until none is left (a fork bomb
 * races the kill; a frozen one cannot), for at most about a second.
 * Returns how many tasks remain (0 = empty). */
int  ref_cg_kill(const ref_cg *cg);
/* Kills what is left and removes the group; idempotent. */
void ref_cg_destroy(ref_cg *cg);

/* Kills whatever is left in this referee's own groups and removes them:
 * at exit, after the last bot. */
void ref_cg_release(const ref_cg_system *sys);

/* Kills every task left in the groups of referees that are no longer
 * running (a referee whose id another process now has included), in
 * every hierarchy of sys, and removes the groups. Returns how many
 * referees' groups were removed. Called by ref_cg_probe; for tests. */
int  ref_cg_clean_stale(const ref_cg_system *sys);

#endif /* REF_CGROUP_H */

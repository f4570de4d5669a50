/*
 * ref_proc_reap.c - finding processes through /proc and making them go
 * away: the members of a killed bot's group that became our children, and
 * the orphans (setsid, double fork) that the subreaper setting hands us.
 *
 * /proc/[pid]/stat is the only portable way on Linux to ask "who are my
 * children" and "who is in group G" about processes we did not fork.
 */
#define _GNU_SOURCE
#include "ref_proc_internal.h"
#include "ref_procfs.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    SCAN_CAP = 256,       /* processes handled per sweep */
    SEEN_CAP = 1024,      /* distinct pids remembered for the count */
    ORPHAN_KILL_MS = 5000 /* after the grace: how long to keep sweeping */
};

/* Reads state, ppid and pgrp of one process; -1 when it is gone. */
static int read_stat(pid_t pid, ref_proc_entry *e)
{
    char buf[512];
    if (ref_procfs_read(pid, "stat", buf, sizeof buf) < 0)
        return -1;
    char *rp = ref_procfs_stat_fields(buf);
    int ppid, pgrp;
    char state;
    if (!rp || sscanf(rp + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
        return -1;
    e->pid = pid;
    e->ppid = (pid_t)ppid;
    e->pgrp = (pid_t)pgrp;
    e->state = state;
    return 0;
}

int ref_proc_list(pid_t ppid, pid_t pgrp, ref_proc_entry *out, int cap)
{
    assert(cap >= 0 && (out || cap == 0));
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        ref_proc_entry e;
        if (read_stat((pid_t)pid, &e) != 0)
            continue;
        if ((ppid > 0 && e.ppid != ppid) || (pgrp > 0 && e.pgrp != pgrp))
            continue;
        if (n < cap)
            out[n] = e;
        n++;
    }
    closedir(d);
    return n;
}

int ref_proc_group_pass(pid_t pgid, int sig, int *live)
{
    assert(pgid > 0 && live);
    pid_t self = getpid();
    ref_proc_entry e[SCAN_CAP];
    *live = 0;
    int n = ref_proc_list(0, pgid, e, SCAN_CAP);
    if (n < 0)
        return -1;
    int left = n > SCAN_CAP ? n - SCAN_CAP : 0; /* unseen: assume alive */
    *live = left;
    for (int i = 0; i < n && i < SCAN_CAP; i++) {
        if (e[i].pid == pgid)
            continue;
        /* A dead member whose parent died too is ours now (we are the
         * subreaper); one with a live parent waits for that parent. */
        if (e[i].state == 'Z') {
            if (e[i].ppid == self &&
                waitpid(e[i].pid, NULL, WNOHANG) == e[i].pid)
                continue;
        } else {
            ++*live;
            if (sig)
                kill(e[i].pid, sig);
        }
        left++;
    }
    return left;
}

/* ---- orphans ------------------------------------------------------------ */

struct sweep_state {
    pid_t seen[SEEN_CAP];
    int nseen;
    int killed;
};

/* Counts a pid the first time it is signalled; 1 when it is new. */
static int note_victim(struct sweep_state *s, pid_t pid)
{
    for (int i = 0; i < s->nseen; i++)
        if (s->seen[i] == pid)
            return 0;
    if (s->nseen < SEEN_CAP)
        s->seen[s->nseen++] = pid;
    s->killed++;
    return 1;
}

static void signal_proc(const ref_proc_entry *e, int sig)
{
    kill(e->pid, sig);
    if (e->pgrp == e->pid)   /* an escaped group leader: its whole group */
        kill(-e->pid, sig);
    if (sig == SIGTERM) {    /* a stopped process must be able to act */
        kill(e->pid, SIGCONT);
        if (e->pgrp == e->pid)
            kill(-e->pid, SIGCONT);
    }
}

/* One pass over our children: reaps the zombies, sends sig to the live
 * ones (SIGTERM only to those not signalled before, so a process shutting
 * down cleanly is not interrupted again). Sets *found to how many children
 * there were; returns how many were alive, or -1 without /proc. */
static int sweep(pid_t self, int sig, struct sweep_state *s, int *found)
{
    ref_proc_entry e[SCAN_CAP];
    int n = ref_proc_list(self, 0, e, SCAN_CAP);
    *found = n;
    if (n < 0)
        return -1;
    int live = n > SCAN_CAP ? n - SCAN_CAP : 0; /* unseen: assume alive */
    for (int i = 0; i < n && i < SCAN_CAP; i++) {
        if (e[i].state == 'Z') {
            (void)waitpid(e[i].pid, NULL, WNOHANG);
            continue;
        }
        live++;
        int fresh = note_victim(s, e[i].pid);
        if (sig != SIGTERM || fresh)
            signal_proc(&e[i], sig);
    }
    return live;
}

int ref_proc_reap_orphans(int grace_ms)
{
    struct sweep_state s;
    memset(&s, 0, sizeof s);
    pid_t self = getpid();
    int found, nap = 1;

    if (grace_ms > 0) {
        int64_t end = clk_mono_ms() + grace_ms;
        for (;;) {
            int live = sweep(self, SIGTERM, &s, &found);
            int64_t left = end - clk_mono_ms();
            if (live <= 0 || left <= 0)
                break;
            clk_sleep_ms(nap < left ? nap : (int)left);
            if (nap < 16)
                nap *= 2;
        }
    }

    int64_t end = clk_mono_ms() + ORPHAN_KILL_MS;
    nap = 1;
    for (;;) {
        int live = sweep(self, SIGKILL, &s, &found);
        if (live < 0) {
            /* No /proc: we cannot find live ones, but can collect the
             * dead. */
            while (waitpid(-1, NULL, WNOHANG) > 0)
                ;
            break;
        }
        if (found == 0)
            break;
        int64_t left = end - clk_mono_ms();
        if (left <= 0)
            break;
        /* Give SIGKILL a moment, and reparenting of what it orphans. */
        clk_sleep_ms(nap < left ? nap : (int)left);
        if (nap < 16 && live > 0)
            nap *= 2;
    }
    return s.killed;
}

/*
 * ref_proc_reap.c - finding processes and making them go away: the members
 * of a killed bot's group that became our children, and the orphans
 * (setsid, double fork) that the subreaper setting hands us.
 *
 * Every process a bot starts is a descendant of the referee for as long as
 * it lives: its parent, or once that dies, the nearest subreaper, which is
 * the referee (or the sandbox's init, itself a descendant). So the
 * processes to find are among our descendants, walked down from
 * /proc/self/task/TID/children (CONFIG_PROC_CHILDREN): the cost grows with
 * the bots' processes, not with the machine's. /proc/PID/stat then tells
 * each one's state, parent and group. A kernel without the children files
 * gets the old way, a scan of all of /proc.
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
    WALK_CAP = 4096,      /* descendants walked per listing */
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

/* Keeps e in out when it matches the filter; the running count. */
static int keep_match(const ref_proc_entry *e, pid_t ppid, pid_t pgrp, ref_proc_entry *out,
                      int cap, int n)
{
    if ((ppid > 0 && e->ppid != ppid) || (pgrp > 0 && e->pgrp != pgrp))
        return n;
    if (n < cap)
        out[n] = *e;
    return n + 1;
}

/* The old way, for a kernel without the children files: every process of
 * the machine. */
static int scan_all(pid_t ppid, pid_t pgrp, ref_proc_entry *out, int cap)
{
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
        ref_proc_entry e;
        if (*end || pid <= 0 || read_stat((pid_t)pid, &e) != 0)
            continue;
        n = keep_match(&e, ppid, pgrp, out, cap, n);
    }
    closedir(d);
    return n;
}

/* Appends the pids listed in one children file to kids[*n..cap); counts
 * those that do not fit in *lost. 0, or -1 when the file cannot be
 * opened. */
static int read_children(const char *path, pid_t *kids, int *n, int cap, int *lost)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[4096];
    long pid = 0;
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR)) {
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                pid = pid * 10 + (buf[i] - '0');   /* a number may span two reads */
                continue;
            }
            if (pid > 0 && *n < cap)
                kids[(*n)++] = (pid_t)pid;
            else if (pid > 0)
                ++*lost;
            pid = 0;
        }
    }
    if (pid > 0 && *n < cap)
        kids[(*n)++] = (pid_t)pid;
    else if (pid > 0)
        ++*lost;
    close(fd);
    return 0;
}

/* Appends the children of process pid (each of its threads may have some:
 * the one that forked them, or the one they were reparented to). -1 when
 * the children files are missing (no CONFIG_PROC_CHILDREN) for our own
 * process; a process that is gone has none. */
static int children_of(pid_t pid, pid_t *kids, int *n, int cap, int *lost)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return pid == getpid() ? -1 : 0;
    int found = 0, files = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        found++;
        snprintf(path, sizeof path, "/proc/%d/task/%.20s/children", (int)pid, de->d_name);
        files += read_children(path, kids, n, cap, lost) == 0;
    }
    closedir(d);
    return found > 0 && files == 0 && pid == getpid() ? -1 : 0;
}

int ref_proc_list(pid_t ppid, pid_t pgrp, ref_proc_entry *out, int cap)
{
    assert(cap >= 0 && (out || cap == 0));
    static int no_children_files;
    pid_t self = getpid();
    if (no_children_files)
        return scan_all(ppid, pgrp, out, cap);
    /* Breadth first from ourselves; only our children when that is all
     * that is asked for. kids[done..nk) are found, not yet walked. */
    pid_t kids[WALK_CAP];
    int nk = 0, lost = 0, n = 0;
    if (children_of(self, kids, &nk, WALK_CAP, &lost) < 0) {
        no_children_files = 1;
        return scan_all(ppid, pgrp, out, cap);
    }
    int deep = ppid != self;
    for (int done = 0; done < nk; done++) {
        ref_proc_entry e;
        if (read_stat(kids[done], &e) != 0)
            continue;
        n = keep_match(&e, ppid, pgrp, out, cap, n);
        if (deep && e.state != 'Z')
            (void)children_of(kids[done], kids, &nk, WALK_CAP, &lost);
    }
    /* Descendants beyond the walk's room: unseen, so counted as matches,
     * which callers take for alive. */
    return n + lost;
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

/*
 * ref_meter.c - a bot's CPU time and CPU waiting, sampled (ref_meter.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ref_meter.h"
#include "ref_procfs.h"

/* Reads "RUN_NS DELAY_NS SLICES" from an open schedstat: 0, or -1 when
 * its thread is gone. */
static int read_schedstat(int fd, uint64_t *run, uint64_t *delay)
{
    char buf[96];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *end;
    *run = strtoull(buf, &end, 10);
    *delay = strtoull(end, NULL, 10);
    return 0;
}

static int open_schedstat(pid_t tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)tid);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* 1 when thread `tid` is runnable (state R: running, or waiting for a
 * CPU) now. */
static int runnable(pid_t tid)
{
    char buf[256];
    const char *paren = ref_procfs_read(tid, "stat", buf, sizeof buf) > 0
                            ? ref_procfs_stat_fields(buf) : NULL;
    return paren && paren[1] == ' ' && paren[2] == 'R';
}

int ref_meter_runnable(const ref_meter *m, const ref_own *o)
{
    for (int i = 0; i < m->n; i++)
        if (runnable(m->tid[i]))
            return 1;
    pid_t self = (pid_t)syscall(SYS_gettid);
    for (int i = 0; i < o->n; i++)
        if (o->tid[i] != self && runnable(o->tid[i]))
            return 1;
    return 0;
}

/* libzmq's reaper thread only closes sockets, never during a decision:
 * its schedstat is left out, two reads a decision fewer. Known by the name
 * libzmq gives it. */
static int is_reaper(pid_t tid)
{
    char name[32];
    return ref_procfs_read(tid, "comm", name, sizeof name) > 0 &&
           strncmp(name, "ZMQbg/Reaper", 12) == 0;
}

void ref_meter_own_open(ref_own *o)
{
    pid_t self = (pid_t)syscall(SYS_gettid);
    o->n = 0;
    o->self = -1;
    DIR *d = opendir("/proc/self/task");
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL && o->n < REF_OWN_THREADS) {
        char path[64];
        if (de->d_name[0] == '.' || is_reaper((pid_t)atoi(de->d_name)))
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", de->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            o->tid[o->n] = (pid_t)atoi(de->d_name);
            if (o->tid[o->n] == self)
                o->self = o->n;
            o->fd[o->n++] = fd;
        }
    }
    if (d)
        closedir(d);
}

int64_t ref_meter_own_wait_us(const ref_own *o, int64_t *self_us)
{
    uint64_t run, delay, sum = 0;
    int known = 0;
    *self_us = -1;
    for (int i = 0; i < o->n; i++) {
        if (read_schedstat(o->fd[i], &run, &delay) != 0)
            continue;
        if (i == o->self) {
            *self_us = (int64_t)(delay / 1000);
        } else {
            sum += delay;
            known = 1;
        }
    }
    return known ? (int64_t)(sum / 1000) : -1;
}

void ref_meter_own_close(ref_own *o)
{
    for (int i = 0; i < o->n; i++)
        close(o->fd[i]);
    o->n = 0;
}

int ref_meter_schedstat(void)
{
    uint64_t run, delay;
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    int known = fd >= 0 && read_schedstat(fd, &run, &delay) == 0;
    if (fd >= 0)
        close(fd);
    return known;
}

/* The leader's threads, for a bot without a control group. */
static int leader_tasks(pid_t pid, pid_t *out, int cap)
{
    char path[48];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < cap)
        if (de->d_name[0] != '.')
            out[n++] = (pid_t)atoi(de->d_name);
    closedir(d);
    return n;
}

/* The leader's thread count (/proc/PID/stat's 20th field, from the file
 * kept open), or -1 unknown: a cheap sign that a thread started or ended,
 * where listing /proc/PID/task costs an open and two reads. */
static int leader_threads(ref_meter *m, pid_t pid)
{
    if (!m->stat_fd1) {
        char path[48];
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        m->stat_fd1 = fd + 1;
    }
    char buf[512];
    ssize_t n = pread(m->stat_fd1 - 1, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *f = strrchr(buf, ')');     /* the comm may hold anything */
    for (int k = 0; f && k < 18; k++) /* from the blank before the state */
        f = strchr(f + 1, ' ');
    return f ? (int)strtol(f + 1, NULL, 10) : -1;
}

/* The threads followed, read again: what each ran and waited since it was
 * last read is added to *ran and *waited; gone ones are dropped. Returns
 * how many were gone. */
static int follow_known(ref_meter *m, uint64_t *ran, uint64_t *waited)
{
    int k = 0, gone = 0;
    for (int i = 0; i < m->n; i++) {
        uint64_t run, delay;
        if (read_schedstat(m->fd[i], &run, &delay) < 0) {
            close(m->fd[i]);      /* it exited: what it did was counted */
            gone++;
            continue;
        }
        *ran += run > m->run[i] ? run - m->run[i] : 0;
        *waited += delay > m->delay[i] ? delay - m->delay[i] : 0;
        m->tid[k] = m->tid[i], m->fd[k] = m->fd[i], m->run[k] = run, m->delay[k] = delay;
        k++;
    }
    m->n = k;
    return gone;
}

/* Lists the bot's threads and follows the new ones, each counted from
 * zero (as far as they can be listed). */
static void follow_new(ref_meter *m, const ref_proc *p, uint64_t *ran, uint64_t *waited)
{
    pid_t tids[REF_METER_TASKS];
    int n = p->cg.sys ? ref_cg_tasks(&p->cg, tids, REF_METER_TASKS)
                      : leader_tasks(p->pid, tids, REF_METER_TASKS);
    m->listed = n;
    for (int i = 0; i < n && i < REF_METER_TASKS && m->n < REF_METER_TASKS; i++) {
        int known = 0;
        for (int j = 0; j < m->n && !known; j++)
            known = m->tid[j] == tids[i];
        int fd = known ? -1 : open_schedstat(tids[i]);
        uint64_t run, delay;
        if (fd < 0)
            continue;
        if (read_schedstat(fd, &run, &delay) < 0) {
            close(fd);
            continue;
        }
        *ran += run, *waited += delay;
        m->tid[m->n] = tids[i], m->fd[m->n] = fd, m->run[m->n] = run, m->delay[m->n] = delay;
        m->n++;
    }
}

void ref_meter_sample(ref_meter *m, const ref_proc *p)
{
    if (!p->live)
        return;
    int grouped = p->cg.sys != NULL;
    int group_cpu = grouped && (p->cg.sys->features & REF_CG_CPUACCT) && p->cg.cpu_fd >= 0;
    /* The group's total first: each thread read after it has run at least
     * what the total saw of it, so a total ahead of the threads' sum is a
     * thread not followed yet. */
    uint64_t cpu = group_cpu ? ref_cg_cpu_ns(&p->cg) : 0, ran = 0, waited = 0;
    int threads = grouped ? 0 : leader_threads(m, p->pid);   /* before the threads */
    int gone = follow_known(m, &ran, &waited);
    int stale = m->n == 0 || gone || (group_cpu && cpu > m->cpu_ns + ran) ||
                (!grouped && (threads < 0 || threads != m->listed));
    if (stale)
        follow_new(m, p, &ran, &waited);
    int stats = m->n > 0;            /* schedstat of the bot's threads */
    if (stats) {
        m->wait_ns += waited;
        m->wait_known = 1;
    } else if (grouped && (p->cg.sys->features & REF_CG_WAIT)) {
        ref_cg_usage u;                 /* no schedstat: the group's pressure */
        ref_cg_usage_read(&p->cg, &u);
        if (u.wait_ns > m->wait_ns)
            m->wait_ns = u.wait_ns;
        m->wait_known = 1;
    }
    if (group_cpu) {
        if (cpu > m->cpu_ns)
            m->cpu_ns = cpu;
        m->cpu_known = 1;
    } else if (stats) {
        m->cpu_ns += ran;
        m->cpu_known = 1;
    }
}

void ref_meter_close(ref_meter *m)
{
    for (int i = 0; i < m->n; i++)
        close(m->fd[i]);
    m->n = 0;
    if (m->stat_fd1)
        close(m->stat_fd1 - 1);
    m->stat_fd1 = 0;
    m->listed = 0;
}

int64_t ref_meter_charge(int64_t cpu_us, int64_t wall_us, int64_t wait_us)
{
    int64_t awake = wall_us - (wait_us > 0 ? wait_us : 0);
    return cpu_us > awake ? cpu_us : awake;
}

int ref_meter_contended(int64_t budget_us, int64_t wall_us, int64_t cpu_us, int64_t wait_us)
{
    return cpu_us >= 0 && wait_us >= 0 && cpu_us * 4 < budget_us * 3 && wait_us * 4 >= wall_us;
}

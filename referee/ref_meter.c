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

/* "RUN_NS DELAY_NS SLICES" of one thread; 0, or -1 when it is gone. */
static int read_schedstat(pid_t tid, uint64_t *run, uint64_t *delay)
{
    char buf[96];
    if (ref_procfs_read(tid, "schedstat", buf, sizeof buf) < 0)
        return -1;
    char *end;
    *run = strtoull(buf, &end, 10);
    *delay = strtoull(end, NULL, 10);
    return 0;
}

int64_t ref_meter_own_wait_us(void)
{
    uint64_t run, delay;
    pid_t tid = (pid_t)syscall(SYS_gettid);
    return read_schedstat(tid, &run, &delay) == 0 ? (int64_t)(delay / 1000) : -1;
}

int ref_meter_schedstat(void)
{
    uint64_t run, delay;
    return read_schedstat(getpid(), &run, &delay) == 0;
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

void ref_meter_sample(ref_meter *m, const ref_proc *p)
{
    if (!p->live)
        return;
    pid_t tids[REF_METER_TASKS];
    int grouped = p->cg.sys != NULL;
    int n = grouped ? ref_cg_tasks(&p->cg, tids, REF_METER_TASKS)
                    : leader_tasks(p->pid, tids, REF_METER_TASKS);
    if (n > REF_METER_TASKS)
        n = REF_METER_TASKS;
    uint64_t run[REF_METER_TASKS] = { 0 }, delay[REF_METER_TASKS] = { 0 }, ran = 0, waited = 0;
    int k = 0, stats = 0;
    for (int i = 0; i < n; i++) {
        if (read_schedstat(tids[i], &run[k], &delay[k]) < 0)
            continue;
        stats = 1;
        uint64_t run0 = 0, delay0 = 0;
        for (int j = 0; j < m->n; j++)
            if (m->tid[j] == tids[i]) {
                run0 = m->run[j], delay0 = m->delay[j];
                break;
            }
        ran += run[k] > run0 ? run[k] - run0 : 0;
        waited += delay[k] > delay0 ? delay[k] - delay0 : 0;
        tids[k++] = tids[i];
    }
    m->n = k;
    memcpy(m->tid, tids, k * sizeof *tids);
    memcpy(m->run, run, k * sizeof *run);
    memcpy(m->delay, delay, k * sizeof *delay);
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
    if (grouped && (p->cg.sys->features & REF_CG_CPUACCT)) {
        uint64_t cpu = ref_cg_cpu_ns(&p->cg);
        if (cpu > m->cpu_ns)
            m->cpu_ns = cpu;
        m->cpu_known = 1;
    } else if (stats) {
        m->cpu_ns += ran;
        m->cpu_known = 1;
    }
}

int ref_meter_contended(int64_t budget_us, int64_t wall_us, int64_t cpu_us, int64_t wait_us)
{
    return cpu_us >= 0 && wait_us >= 0 && cpu_us * 4 < budget_us * 3 && wait_us * 4 >= wall_us;
}

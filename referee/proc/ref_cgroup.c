/*
 * ref_cgroup.c - per-bot control groups on cgroup v1, v2 or both (see
 * ref_cgroup.h for which feature comes from where).
 *
 * The probe reads /proc/self/mountinfo (where each hierarchy is mounted,
 * which controllers each v1 mount holds) and /proc/self/cgroup (where this
 * process sits in each), and settles once which hierarchy serves which
 * feature. A bot's group is then one directory per hierarchy used, kept
 * open, so that every later access is an openat on a small file.
 */
#define _GNU_SOURCE
#include "ref_cgroup.h"
#include "ref_procfs.h"
#include "txt.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KILL_MS 1000

static void nap_ms(int ms)
{
    struct timespec ts = { 0, (long)ms * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- small files -------------------------------------------------------- */

static int cg_write(int dirfd, const char *file, const char *text)
{
    int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    ssize_t n = write(fd, text, strlen(text));
    int e = n == (ssize_t)strlen(text) ? 0 : n < 0 ? errno : EIO;
    close(fd);
    return e;
}

static ssize_t cg_read(int dirfd, const char *file, char *buf, size_t size)
{
    int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    return n;
}

/* The number after `key` at the start of a line of text ("oom_kill 3"),
 * or after `key=` anywhere ("total=123"); 0 when absent. */
static uint64_t text_field(char *buf, const char *key)
{
    size_t k = strlen(key);
    for (char *p = buf; (p = strstr(p, key)); p += k) {
        int at_line = p == buf || p[-1] == '\n';
        if ((at_line && p[k] == ' ') || (p[k - 1] == '='))
            return strtoull(p + k, NULL, 10);
    }
    return 0;
}

/* text_field of a file of the group. */
static uint64_t cg_field(int dirfd, const char *file, const char *key)
{
    char buf[1024];
    return cg_read(dirfd, file, buf, sizeof buf) > 0 ? text_field(buf, key) : 0;
}

static int file_exists(int dirfd, const char *file)
{
    return faccessat(dirfd, file, F_OK, 0) == 0;
}

/* ---- probe -------------------------------------------------------------- */

struct mount {
    int  version;
    char point[512], root[512];
    char controllers[128];   /* v1: "cpu,cpuacct"; v2: "" */
};

/* Unescapes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3]) {
            *o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
}

/* Every cgroup mount; v1 controllers from the super options. */
static int read_mounts(struct mount *out, int cap)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return 0;
    char line[2048];
    int n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        /* id parent major:minor root point options [optional...] - type source super */
        char root[512], point[512], *dash = strstr(line, " - ");
        char type[32], source[256], super[512] = "";
        if (!dash || sscanf(line, "%*s %*s %*s %511s %511s", root, point) != 2 ||
            sscanf(dash + 3, "%31s %255s %511s", type, source, super) < 2)
            continue;
        struct mount *m = &out[n];
        memset(m, 0, sizeof *m);
        if (!strcmp(type, "cgroup2")) {
            m->version = 2;
        } else if (!strcmp(type, "cgroup")) {
            m->version = 1;
            char *save = NULL;
            for (char *o = strtok_r(super, ",", &save); o; o = strtok_r(NULL, ",", &save))
                if (strcmp(o, "rw") && strcmp(o, "ro") && !strchr(o, '='))
                    txt_append(m->controllers, sizeof m->controllers, "%s%s",
                           m->controllers[0] ? "," : "", o);
        } else {
            continue;
        }
        unescape(root);
        unescape(point);
        snprintf(m->root, sizeof m->root, "%s", root);
        snprintf(m->point, sizeof m->point, "%s", point);
        n++;
    }
    fclose(f);
    return n;
}

static int has_word(const char *list, const char *word, char sep)
{
    size_t k = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += k)
        if ((p == list || p[-1] == sep) && (p[k] == 0 || p[k] == sep || p[k] == '\n'))
            return 1;
    return 0;
}

/* This process's path in the hierarchy of mount m ("/" when unknown). */
static void own_path(const struct mount *m, char *out, size_t size)
{
    snprintf(out, size, "/");
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = 0;
        line[strcspn(line, ":")] = 0;
        char *ctrls = c1 + 1, *path = c2 + 1;
        path[strcspn(path, "\n")] = 0;
        int match = m->version == 2 ? !strcmp(line, "0") && !*ctrls
                                    : *m->controllers && !strcmp(ctrls, m->controllers);
        if (match) {
            snprintf(out, size, "%s", path);
            break;
        }
    }
    fclose(f);
}

/* The directory of cgroup `path` in mount m: the mount shows the subtree
 * from m->root down. "" when path lies outside it. */
static void dir_of(const struct mount *m, const char *path, char *out, size_t size)
{
    size_t rl = strlen(m->root);
    if (!strcmp(m->root, "/"))
        snprintf(out, size, "%s%s", m->point, strcmp(path, "/") ? path : "");
    else if (!strncmp(path, m->root, rl) && (path[rl] == '/' || !path[rl]))
        snprintf(out, size, "%s%s", m->point, path + rl);
    else
        out[0] = 0;
}

static const struct { unsigned feature; const char *v1, *v2, *name; } features[] = {
    { REF_CG_MEMORY,  "memory",  "memory", "memory" },
    { REF_CG_PIDS,    "pids",    "pids",   "pids" },
    { REF_CG_CPU,     "cpu",     "cpu",    "cpu" },
    { REF_CG_CPUACCT, "cpuacct", NULL,     "cpuacct" },
    { REF_CG_FREEZE,  "freezer", NULL,     "freezer" },
    { REF_CG_KILL,    NULL,      NULL,     "kill" },
    { REF_CG_WAIT,    NULL,      NULL,     "wait" },
};
#define NFEATURES (sizeof features / sizeof features[0])

/* Makes <base>/arena-PID; for v2, with the controllers it must pass down
 * enabled on the way. 0, or -1 with why in `missing`. */
static int make_own_group(ref_cg_system *sys, struct ref_cg_hier *h, const char *base)
{
    char own[1200];
    snprintf(own, sizeof own, "%s/arena-%d", base, (int)getpid());
    if (mkdir(own, 0755) != 0 && errno != EEXIST) {
        txt_append(sys->missing, sizeof sys->missing, "%scannot make a cgroup in %s: %s",
               sys->missing[0] ? "; " : "", base, strerror(errno));
        return -1;
    }
    if (h->version == 2) {
        static const char *ctrl[] = { "memory", "pids", "cpu" };
        static const unsigned bit[] = { REF_CG_MEMORY, REF_CG_PIDS, REF_CG_CPU };
        for (int i = 0; i < 3; i++) {
            if (!(h->features & bit[i]))
                continue;
            char plus[16];
            snprintf(plus, sizeof plus, "+%s", ctrl[i]);
            int b = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            int o = open(own, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            int e = b < 0 || o < 0 ? errno : cg_write(b, "cgroup.subtree_control", plus);
            if (!e)
                e = cg_write(o, "cgroup.subtree_control", plus);
            if (b >= 0)
                close(b);
            if (o >= 0)
                close(o);
            if (e) {
                h->features &= ~bit[i];
                txt_append(sys->missing, sizeof sys->missing,
                       "%scgroup v2 controller %s cannot be enabled under %s (%s: a group "
                       "with processes of its own cannot pass controllers down; give the "
                       "referee a delegated cgroup)", sys->missing[0] ? "; " : "", ctrl[i],
                       base, strerror(e));
            }
        }
    }
    snprintf(h->path, sizeof h->path, "%s", own);
    return 0;
}

/* Drops the v2 core features whose files a non-root group lacks here
 * (cgroup.kill came with Linux 5.14; cpu.pressure needs PSI). */
static void prune_core(struct ref_cg_hier *h)
{
    static const struct { unsigned bit; const char *file; } core[] = {
        { REF_CG_CPUACCT, "cpu.stat" }, { REF_CG_FREEZE, "cgroup.freeze" },
        { REF_CG_KILL, "cgroup.kill" }, { REF_CG_WAIT, "cpu.pressure" },
    };
    int d = open(h->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++)
        if (d < 0 || !file_exists(d, core[i].file))
            h->features &= ~core[i].bit;
    if (d >= 0)
        close(d);
}

void ref_cg_probe(ref_cg_system *sys, const char *parent)
{
    memset(sys, 0, sizeof *sys);
    struct mount mounts[16];
    int nm = read_mounts(mounts, 16);
    const struct mount *v2 = NULL;
    for (int i = 0; i < nm; i++)
        if (mounts[i].version == 2 && !v2)
            v2 = &mounts[i];

    /* Which mount serves each feature. */
    const struct mount *serve[NFEATURES];
    char v2_controllers[256] = "", v2dir[1100] = "", path[512];
    if (v2) {
        own_path(v2, path, sizeof path);
        dir_of(v2, parent ? parent : path, v2dir, sizeof v2dir);
        int d = v2dir[0] ? open(v2dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        if (d >= 0) {
            cg_read(d, "cgroup.controllers", v2_controllers, sizeof v2_controllers);
            close(d);
        } else {
            v2 = NULL;
        }
    }
    for (size_t f = 0; f < NFEATURES; f++) {
        serve[f] = NULL;
        /* A task frozen by the v2 freezer still dies of SIGKILL; one frozen
         * by v1's does not until thawed, so a referee killed while a bot is
         * frozen would leave it behind: v2 first for freezing. */
        if (features[f].feature == REF_CG_FREEZE && v2) {
            serve[f] = v2;
            continue;
        }
        for (int i = 0; i < nm && features[f].v1 && !serve[f]; i++)
            if (mounts[i].version == 1 && has_word(mounts[i].controllers, features[f].v1, ','))
                serve[f] = &mounts[i];
        if (serve[f] || !v2)
            continue;
        int d = open(v2dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        int ok = 0;
        switch (features[f].feature) {
        case REF_CG_MEMORY: case REF_CG_PIDS: case REF_CG_CPU:
            ok = has_word(v2_controllers, features[f].v2, ' ');
            break;
        default:    /* core files: checked in our own group, once made */
            ok = 1;
        }
        if (d >= 0)
            close(d);
        if (ok)
            serve[f] = v2;
    }

    /* One hierarchy entry per mount used. */
    for (size_t f = 0; f < NFEATURES; f++) {
        if (!serve[f])
            continue;
        int h = 0;
        while (h < sys->nhier && strcmp(sys->hier[h].path, serve[f]->point))
            h++;
        if (h == sys->nhier) {
            assert(h < REF_CG_MAX_HIER);
            sys->hier[h].version = serve[f]->version;
            snprintf(sys->hier[h].path, sizeof sys->hier[h].path, "%s", serve[f]->point);
            sys->nhier++;
        }
        sys->hier[h].features |= features[f].feature;
    }
    /* Resolve each to this referee's group under the parent. */
    for (int h = 0; h < sys->nhier; h++) {
        const struct mount *m = NULL;
        for (int i = 0; i < nm && !m; i++)
            if (!strcmp(mounts[i].point, sys->hier[h].path))
                m = &mounts[i];
        char base[1100];
        own_path(m, path, sizeof path);
        dir_of(m, parent ? parent : path, base, sizeof base);
        if (!base[0] || make_own_group(sys, &sys->hier[h], base) < 0)
            sys->hier[h].features = 0;
        if (sys->hier[h].version == 2)
            prune_core(&sys->hier[h]);
        sys->features |= sys->hier[h].features;
    }
    ref_cg_clean_stale(sys);

    for (int v = 1; v <= 2; v++) {
        int first = 1;
        for (size_t f = 0; f < NFEATURES; f++)
            for (int h = 0; h < sys->nhier; h++)
                if (sys->hier[h].version == v && (sys->hier[h].features & features[f].feature)) {
                    txt_append(sys->summary, sizeof sys->summary, "%s%s", first
                           ? (v == 1 ? "v1: " : sys->summary[0] ? "; v2: " : "v2: ") : " ",
                           features[f].name);
                    first = 0;
                }
    }
    static const unsigned wanted[] = { REF_CG_MEMORY, REF_CG_PIDS, REF_CG_CPU, REF_CG_CPUACCT };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        for (size_t f = 0; f < NFEATURES; f++)
            if (features[f].feature == wanted[i] && !(sys->features & wanted[i]))
                txt_append(sys->missing, sizeof sys->missing, "%sno %s cgroup",
                       sys->missing[0] ? "; " : "", features[f].name);
}

/* ---- one bot's group ---------------------------------------------------- */

/* The directory of hierarchy h in the group, -1 when not used. */
static int dir_for(const ref_cg *cg, unsigned feature)
{
    if (!cg || !cg->sys)
        return -1;
    for (int h = 0; h < cg->sys->nhier; h++)
        if ((cg->sys->hier[h].features & feature) && cg->dirfd[h] >= 0)
            return cg->dirfd[h];
    return -1;
}

static int set_limits(const ref_cg *cg, const ref_cg_limits *lim, char *err, size_t size)
{
    char v[64];
    int d, e = 0;
    const char *what = "";
    if (lim->memory_bytes && (d = dir_for(cg, REF_CG_MEMORY)) >= 0) {
        snprintf(v, sizeof v, "%llu", (unsigned long long)lim->memory_bytes);
        what = "the memory limit";
        if (file_exists(d, "memory.max")) {
            e = cg_write(d, "memory.max", v);
            if (!e && file_exists(d, "memory.swap.max"))
                e = cg_write(d, "memory.swap.max", "0");
        } else {
            e = cg_write(d, "memory.limit_in_bytes", v);
            if (!e && file_exists(d, "memory.memsw.limit_in_bytes"))
                e = cg_write(d, "memory.memsw.limit_in_bytes", v);
        }
    }
    if (!e && lim->max_tasks && (d = dir_for(cg, REF_CG_PIDS)) >= 0) {
        snprintf(v, sizeof v, "%u", lim->max_tasks);
        what = "the process limit";
        e = cg_write(d, "pids.max", v);
    }
    if (!e && lim->cpu_millis && (d = dir_for(cg, REF_CG_CPU)) >= 0) {
        what = "the CPU quota";
        if (file_exists(d, "cpu.max")) {
            snprintf(v, sizeof v, "%u 100000", lim->cpu_millis * 100);
            e = cg_write(d, "cpu.max", v);
        } else {
            e = cg_write(d, "cpu.cfs_period_us", "100000");
            snprintf(v, sizeof v, "%u", lim->cpu_millis * 100);
            if (!e)
                e = cg_write(d, "cpu.cfs_quota_us", v);
        }
    }
    if (e)
        txt_set(err, size, "cannot set %s of cgroup %s: %s", what, cg->name, strerror(e));
    return e ? -1 : 0;
}

static void open_hot_files(ref_cg *cg)
{
    int d = dir_for(cg, REF_CG_CPUACCT);
    if (d >= 0) {
        cg->cpu_v2 = !file_exists(d, "cpuacct.usage");
        cg->cpu_fd = openat(d, cg->cpu_v2 ? "cpu.stat" : "cpuacct.usage", O_RDONLY | O_CLOEXEC);
    }
    if ((d = dir_for(cg, REF_CG_FREEZE)) >= 0) {
        cg->freeze_v1 = file_exists(d, "freezer.state");
        cg->freeze_fd = openat(d, cg->freeze_v1 ? "freezer.state" : "cgroup.freeze",
                               O_WRONLY | O_CLOEXEC);
    }
}

int ref_cg_create(ref_cg *cg, const ref_cg_system *sys, const ref_cg_limits *lim,
                  char *err, size_t size)
{
    static unsigned serial;
    memset(cg, 0, sizeof *cg);
    for (int h = 0; h < REF_CG_MAX_HIER; h++)
        cg->dirfd[h] = -1;
    cg->cpu_fd = cg->freeze_fd = -1;
    if (!sys || !sys->features)
        return 0;
    cg->sys = sys;
    unsigned n = ++serial;
    snprintf(cg->name, sizeof cg->name, "arena-%d/bot%u", (int)getpid(), n);
    for (int h = 0; h < sys->nhier; h++) {
        if (!sys->hier[h].features)
            continue;
        char dir[800];
        snprintf(dir, sizeof dir, "%s/bot%u", sys->hier[h].path, n);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            txt_set(err, size, "cannot make cgroup %s: %s", dir, strerror(errno));
            ref_cg_destroy(cg);
            return -1;
        }
        cg->dirfd[h] = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        cg->ndirs++;
        if (cg->dirfd[h] < 0) {
            txt_set(err, size, "cannot open cgroup %s: %s", dir, strerror(errno));
            ref_cg_destroy(cg);
            return -1;
        }
    }
    if (lim && set_limits(cg, lim, err, size) < 0) {
        ref_cg_destroy(cg);
        return -1;
    }
    open_hot_files(cg);
    return 0;
}

int ref_cg_attach(const ref_cg *cg, pid_t pid, char *err, size_t size)
{
    if (!cg || !cg->sys)
        return 0;
    char v[32];
    snprintf(v, sizeof v, "%d", (int)pid);
    for (int h = 0; h < cg->sys->nhier; h++) {
        if (cg->dirfd[h] < 0)
            continue;
        int e = cg_write(cg->dirfd[h], "cgroup.procs", v);
        if (e) {
            txt_set(err, size, "cannot move process %d into cgroup %s: %s", (int)pid,
                    cg->name, strerror(e));
            return -1;
        }
    }
    return 0;
}

uint64_t ref_cg_cpu_ns(const ref_cg *cg)
{
    char buf[1024];
    if (!cg || !cg->sys || cg->cpu_fd < 0)
        return 0;
    ssize_t n = pread(cg->cpu_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    return cg->cpu_v2 ? text_field(buf, "usage_usec") * 1000 : strtoull(buf, NULL, 10);
}

int ref_cg_freeze_kills(const ref_cg_system *sys)
{
    for (int h = 0; sys && h < sys->nhier; h++)
        if (sys->hier[h].features & REF_CG_FREEZE)
            return sys->hier[h].version == 2;
    return 0;
}

int ref_cg_enter(const ref_cg *cg)
{
    for (int h = 0; cg && cg->sys && h < cg->sys->nhier; h++) {
        int e = cg->dirfd[h] < 0 ? 0 : cg_write(cg->dirfd[h], "cgroup.procs", "0");
        if (e)
            return e;
    }
    return 0;
}

void ref_cg_usage_read(const ref_cg *cg, ref_cg_usage *u)
{
    memset(u, 0, sizeof *u);
    int d;
    char buf[64];
    u->cpu_ns = ref_cg_cpu_ns(cg);
    if ((d = dir_for(cg, REF_CG_WAIT)) >= 0)
        u->wait_ns = cg_field(d, "cpu.pressure", "total=") * 1000;
    if ((d = dir_for(cg, REF_CG_MEMORY)) >= 0) {
        int v2 = file_exists(d, "memory.events");
        if (cg_read(d, v2 ? "memory.peak" : "memory.max_usage_in_bytes", buf, sizeof buf) > 0)
            u->memory_peak = strtoull(buf, NULL, 10);
        u->oom_kills = cg_field(d, v2 ? "memory.events" : "memory.oom_control", "oom_kill");
    }
    if ((d = dir_for(cg, REF_CG_PIDS)) >= 0)
        u->task_limit_hits = cg_field(d, "pids.events", "max");
}

int ref_cg_freeze(const ref_cg *cg, int frozen)
{
    if (!cg || !cg->sys || cg->freeze_fd < 0)
        return -1;
    const char *state = cg->freeze_v1 ? (frozen ? "FROZEN" : "THAWED") : (frozen ? "1" : "0");
    size_t len = strlen(state);
    return pwrite(cg->freeze_fd, state, len, 0) == (ssize_t)len ? 0 : -1;
}

/* Reads a list of numbers (cgroup.procs, tasks); returns the count. */
static int read_ids(int dirfd, const char *file, pid_t *out, int cap)
{
    int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return -1;
    }
    int n = 0, v;
    while (fscanf(f, "%d", &v) == 1) {
        if (n < cap)
            out[n] = (pid_t)v;
        n++;
    }
    fclose(f);
    return n;
}

int ref_cg_tasks(const ref_cg *cg, pid_t *out, int cap)
{
    if (!cg || !cg->sys)
        return -1;
    for (int h = 0; h < cg->sys->nhier; h++)
        if (cg->dirfd[h] >= 0)
            return read_ids(cg->dirfd[h], cg->sys->hier[h].version == 2 ? "cgroup.threads"
                                                                         : "tasks", out, cap);
    return -1;
}

/* Live tasks anywhere in the group (hierarchies may differ for a moment
 * while a fork is being attached everywhere). */
static int count_tasks(const ref_cg *cg)
{
    int most = 0;
    pid_t dummy;
    for (int h = 0; h < cg->sys->nhier; h++) {
        if (cg->dirfd[h] < 0)
            continue;
        int n = read_ids(cg->dirfd[h], "cgroup.procs", &dummy, 0);
        most = n > most ? n : most;
    }
    return most;
}

static int kill_listed(const ref_cg *cg)
{
    pid_t pids[512];
    int total = 0;
    for (int h = 0; h < cg->sys->nhier; h++) {
        if (cg->dirfd[h] < 0)
            continue;
        int n = read_ids(cg->dirfd[h], "cgroup.procs", pids, 512);
        for (int i = 0; i < n && i < 512; i++)
            if (pids[i] > 0)        /* kill(0) would be our own process group */
                kill(pids[i], SIGKILL);
        total = n > total ? n : total;
    }
    return total;
}

int ref_cg_kill(const ref_cg *cg)
{
    if (!cg || !cg->sys)
        return 0;
    int kd = dir_for(cg, REF_CG_KILL);
    int frozen = ref_cg_freeze(cg, 1) == 0;
    int left = 0;
    for (int waited = 0; waited <= KILL_MS; waited += 2) {
        if (kd >= 0)
            cg_write(kd, "cgroup.kill", "1");
        else
            kill_listed(cg);
        if (frozen)
            ref_cg_freeze(cg, 0);   /* a frozen task acts on SIGKILL only when thawed */
        left = count_tasks(cg);
        if (left <= 0)
            return 0;
        if (frozen)
            ref_cg_freeze(cg, 1);
        nap_ms(2);
    }
    if (frozen)
        ref_cg_freeze(cg, 0);
    return left;
}

void ref_cg_destroy(ref_cg *cg)
{
    if (!cg || !cg->sys) {
        if (cg)
            memset(cg, 0, sizeof *cg);
        return;
    }
    ref_cg_kill(cg);
    if (cg->cpu_fd >= 0)
        close(cg->cpu_fd);
    if (cg->freeze_fd >= 0)
        close(cg->freeze_fd);
    const char *bot = strchr(cg->name, '/');
    for (int h = 0; h < cg->sys->nhier; h++) {
        if (cg->dirfd[h] < 0)
            continue;
        close(cg->dirfd[h]);
        char dir[800];
        snprintf(dir, sizeof dir, "%s%s", cg->sys->hier[h].path, bot ? bot : "");
        /* A task killed a moment ago may still be leaving the group. */
        for (int tries = 0; rmdir(dir) != 0 && errno == EBUSY && tries < 200; tries++)
            nap_ms(5);
    }
    memset(cg, 0, sizeof *cg);
    for (int h = 0; h < REF_CG_MAX_HIER; h++)
        cg->dirfd[h] = -1;
    cg->cpu_fd = cg->freeze_fd = -1;
}

/* ---- a referee's whole group: at its exit, or when it died ------------- */

/* When the process pid started, in seconds since the epoch; -1 when it
 * does not run. */
static long long started_at(pid_t pid)
{
    char buf[1024];
    if (ref_procfs_read(pid, "stat", buf, sizeof buf) < 0)
        return -1;
    /* Field 22 (starttime, ticks since boot), counted after the command's
     * name. */
    char *p = ref_procfs_stat_fields(buf);
    unsigned long long ticks = 0;
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
        return -1;
    static long long boot = -1;
    if (boot < 0) {
        FILE *f = fopen("/proc/stat", "re");
        char line[256];
        while (f && fgets(line, sizeof line, f))
            if (sscanf(line, "btime %lld", &boot) == 1)
                break;
        if (f)
            fclose(f);
    }
    long hz = sysconf(_SC_CLK_TCK);
    return boot < 0 || hz <= 0 ? -1 : boot + (long long)(ticks / (unsigned long long)hz);
}

/* 1 when the referee that made group dir (arena-PID, made at its mtime,
 * which cgroupfs keeps) still runs: a process with that id that started
 * after the group was made is another one, which reuses the id. */
static int owner_alive(pid_t pid, const char *dir)
{
    struct stat st;
    if (kill(pid, 0) != 0 && errno != EPERM)
        return 0;
    long long start = started_at(pid);
    return start < 0 || stat(dir, &st) != 0 || start <= (long long)st.st_mtime + 1;
}

typedef char group_paths[REF_CG_MAX_HIER][1300];

/* Empties the group `name` (a bot's, or "." for the referee's group
 * itself) under each hierarchy's base as a bot's group is emptied
 * (ref_cg_kill: frozen tasks are thawed to die), and removes it. */
static void empty_and_remove(const ref_cg_system *sys, group_paths base, const char *name)
{
    ref_cg cg = { .sys = sys };
    char dir[REF_CG_MAX_HIER][1600];
    for (int h = 0; h < REF_CG_MAX_HIER; h++)
        cg.dirfd[h] = -1;
    for (int h = 0; h < sys->nhier; h++) {
        snprintf(dir[h], sizeof dir[h], "%.1300s/%.256s", base[h], name);
        cg.dirfd[h] = open(dir[h], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        cg.ndirs += cg.dirfd[h] >= 0;
    }
    ref_cg_kill(&cg);
    for (int h = 0; h < sys->nhier; h++) {
        if (cg.dirfd[h] < 0)
            continue;
        close(cg.dirfd[h]);
        /* A task killed a moment ago may still be leaving the group. */
        for (int tries = 0; strcmp(name, ".") && rmdir(dir[h]) != 0 && errno == EBUSY &&
                            tries < 200; tries++)
            nap_ms(5);
    }
}

/* Kills every task of one referee's group `group` ("arena-PID") and of its
 * bots' groups, in every hierarchy of sys, and removes them. Returns 1
 * when the group is gone everywhere. */
static int remove_group(const ref_cg_system *sys, const char *group)
{
    group_paths base;
    for (int h = 0; h < sys->nhier; h++) {
        snprintf(base[h], sizeof base[h], "%s", sys->hier[h].path);
        char *slash = strrchr(base[h], '/');
        if (slash)
            snprintf(slash + 1, sizeof base[h] - (size_t)(slash + 1 - base[h]), "%s", group);
    }
    /* Each bot group, by its name in any hierarchy; then the group itself,
     * whose own tasks would be a bug's, but die too. */
    for (int h = 0; h < sys->nhier; h++) {
        DIR *d = opendir(base[h]);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL)
            if (de->d_type == DT_DIR && de->d_name[0] != '.')
                empty_and_remove(sys, base, de->d_name);
        if (d)
            closedir(d);
    }
    empty_and_remove(sys, base, ".");
    int gone = 1;
    for (int h = 0; h < sys->nhier; h++)
        if (rmdir(base[h]) != 0 && errno != ENOENT)
            gone = 0;
    return gone;
}

void ref_cg_release(const ref_cg_system *sys)
{
    char own[32];
    snprintf(own, sizeof own, "arena-%d", (int)getpid());
    if (sys && sys->features)
        remove_group(sys, own);
}

int ref_cg_clean_stale(const ref_cg_system *sys)
{
    int removed = 0;
    for (int h = 0; h < sys->nhier; h++) {
        char base[1100];
        snprintf(base, sizeof base, "%s", sys->hier[h].path);
        char *slash = strrchr(base, '/');
        if (!slash || strncmp(slash + 1, "arena-", 6))
            continue;
        *slash = 0;       /* the parent holding every referee's arena-PID */
        DIR *d = opendir(base);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            char *end;
            if (strncmp(de->d_name, "arena-", 6))
                continue;
            long pid = strtol(de->d_name + 6, &end, 10);
            char dir[1400];
            snprintf(dir, sizeof dir, "%s/%s", base, de->d_name);
            if (*end || pid <= 0 || pid == getpid() || owner_alive((pid_t)pid, dir))
                continue;
            removed += remove_group(sys, de->d_name);
        }
        closedir(d);
    }
    return removed;
}

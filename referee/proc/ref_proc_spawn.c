/*
 * ref_proc_spawn.c - starting a bot: its command's words exec'd (or
 * /bin/sh -c for shell syntax, ref_cmd.h) in its own process group,
 * limits set from outside (prlimit, its control group) while the child
 * waits, stdin /dev/null, stdout+stderr into the pipe that ref_proc_drain
 * reads. Sandboxed, the child takes the bot's uid and execs bubblewrap,
 * whose init (ref_init.c) execs the bot and reports on a pipe.
 *
 * The child between fork and exec runs only async-signal-safe calls (the
 * referee may have threads): everything is prepared before fork, and
 * failures travel back as numbers on a CLOEXEC status pipe, which the
 * parent turns into messages. See ref_proc.h for the contract.
 */
#define _GNU_SOURCE
#include "ref_proc_internal.h"
#include "txt.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ref_cmd.h"
#include "ref_init.h"
#include "ref_sandbox_ns.h"

extern char **environ;

enum {
    GO_BYTE = 'g',       /* the parent's go to a child waiting before exec */
    CHILD_FD_FLOOR = 10, /* where the child parks fds before 0..6 */
    MAX_LIMITS = 5
};

/* The environment of a sandboxed bot before its own variables. */
#define CLEAN_PATH "PATH=/usr/local/bin:/usr/bin:/bin"

/* ---- supervisor --------------------------------------------------------- */

int ref_proc_init_supervisor(void)
{
    /* A bot closing its end of a socket or pipe must cost us an EPIPE,
     * not our life. */
    signal(SIGPIPE, SIG_IGN);
    /* Each connection to a seat's endpoint is a file of ours, and
     * libzmq aborts the process when an ipc accept finds the table full:
     * the more room, the further that is beyond any seat's reach. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &files);
    }
    return prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0 ? 0 : -1;
}

/* ---- spawn: the child side ---------------------------------------------- */

/* Where the child failed, reported to the parent through the status pipe,
 * which the parent turns into a message: the child itself may only make
 * async-signal-safe calls (the referee may have threads), so no printf. */
enum child_stage {
    ST_READY = 0, /* not a failure: set up, waiting for limits and go */
    ST_SETPGID, ST_DEVNULL, ST_FDS, ST_CHDIR, ST_STAGE, ST_UID, ST_EXEC
};

struct child_report {
    int stage;
    int err;
    int which;    /* ST_STAGE: the source that failed, -1 the stage itself */
};

/* Everything the child needs, prepared before fork. */
struct child_plan {
    const char *cwd;          /* chdir there (NULL: stay) */
    const char *path;         /* the program to execve */
    char **argv, **envp;
    const char *shown;        /* the program as the messages name it */
    uid_t uid;                /* become this user, when set_uid */
    int set_uid;
    const ref_sandbox_stage *stage; /* set it up first (as root), or NULL */
    int out_w, status_w, go_r, go_w, report_w, stop_r; /* -1: none */
    pid_t parent;
};

static void child_report_at(int fd, int stage, int err, int which)
{
    struct child_report r = { stage, err, which };
    ssize_t n;
    do
        n = write(fd, &r, sizeof r);
    while (n < 0 && errno == EINTR);
}

static void child_report(int fd, int stage, int err)
{
    child_report_at(fd, stage, err, -1);
}

static void child_fail(int fd, int stage) __attribute__((noreturn));
static void child_fail(int fd, int stage)
{
    child_report(fd, stage, errno);
    _exit(127);
}

static void child_close_from(int lowfd)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0U) == 0)
        return;
#endif
    /* Kernel < 5.9: close one by one up to the fd limit. */
    struct rlimit rl;
    long max = 65536;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        max = rl.rlim_cur < (1u << 20) ? (long)rl.rlim_cur : (1L << 20);
    for (long fd = lowfd; fd < max; fd++)
        close((int)fd);
}

/* fds 0..6: /dev/null, the output pipe twice, status, go (both CLOEXEC),
 * and for a sandbox the init's report and stop pipes, which bwrap passes
 * on. Every other fd is closed. */
static void child_fds(const struct child_plan *c, int *st)
{
    int nul = open("/dev/null", O_RDONLY);
    if (nul < 0)
        child_fail(*st, ST_DEVNULL);
    /* Park the fds above 0..6 first so that placing them there cannot
     * overwrite one another, whatever numbers they had (dup2 leaves the
     * copies at 0, 1, 2 without CLOEXEC). */
    int hn = fcntl(nul, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int ho = fcntl(c->out_w, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int hs = fcntl(*st, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int hg = fcntl(c->go_r, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int hr = c->report_w >= 0 ? fcntl(c->report_w, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR) : -2;
    int hp = c->stop_r >= 0 ? fcntl(c->stop_r, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR) : -2;
    if (hn < 0 || ho < 0 || hs < 0 || hg < 0 || hr == -1 || hp == -1)
        child_fail(*st, ST_FDS);
    *st = hs;
    if (dup2(hn, 0) < 0 || dup2(ho, 1) < 0 || dup2(ho, 2) < 0 ||
        dup3(hs, 3, O_CLOEXEC) < 0 || dup3(hg, 4, O_CLOEXEC) < 0 ||
        (hr >= 0 && dup2(hr, REF_SANDBOX_REPORT_FD) < 0) ||
        (hp >= 0 && dup2(hp, REF_SANDBOX_STOP_FD) < 0))
        child_fail(*st, ST_FDS);
    *st = 3;
    child_close_from(hr >= 0 ? REF_SANDBOX_STOP_FD + 1 : 5);
}

static void child_main(const struct child_plan *c) __attribute__((noreturn));
static void child_main(const struct child_plan *c)
{
    int st = c->status_w;
    /* Our copy of the go pipe's write end would keep EOF from coming. */
    close(c->go_w);

    /* Ignored signals survive exec (SIGPIPE is ignored in the referee),
     * and handlers of the referee must not run here: back to default,
     * then unblock what the parent blocked around fork. */
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    for (int s = 1; s < NSIG; s++)
        (void)sigaction(s, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);

    if (setpgid(0, 0) != 0)
        child_fail(st, ST_SETPGID);
    /* If the referee dies, the leader dies; the rest of the group then
     * goes to init or an outer subreaper. Best effort. */
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L);
    if (getppid() != c->parent)
        _exit(127);

    child_fds(c, &st);
    if (c->cwd && chdir(c->cwd) != 0)
        child_fail(st, ST_CHDIR);

    /* The parent sets our limits with prlimit() and puts us into our
     * control group once we are ready (under valgrind, earlier would
     * starve valgrind's own post-fork fds), then says go with one byte.
     * Anything else means it gave up on us, or died: a referee killed
     * with SIGKILL closes its files (EOF here) before it is gone as our
     * parent, so EOF must not mean go, or we could run outside our
     * control group with nobody left to kill us. */
    child_report(st, ST_READY, 0);
    char b = 0;
    ssize_t n;
    do
        n = read(4, &b, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1 || b != GO_BYTE)
        _exit(127);
    int which;
    if (c->stage && ref_sandbox_stage_enter(c->stage, &which) != 0) {
        child_report_at(st, ST_STAGE, errno, which);
        _exit(127);
    }
    if (c->set_uid) {
        if (setgroups(0, NULL) != 0 || setresgid(c->uid, c->uid, c->uid) != 0 ||
            setresuid(c->uid, c->uid, c->uid) != 0)
            child_fail(st, ST_UID);
        /* A change of user clears the parent-death signal. */
        (void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L);
    }
    /* The referee may have died while we waited: then nobody would ever
     * kill what we are about to run. */
    if (getppid() != c->parent)
        _exit(127);

    execve(c->path, c->argv, c->envp);
    child_fail(st, ST_EXEC);
}

/* ---- spawn: the parent side --------------------------------------------- */

struct limit_plan {
    int resource;
    const char *name;
    rlim_t soft, hard;
};

static int add_limit(struct limit_plan *l, int n, int resource,
                     const char *name, rlim_t soft, rlim_t hard)
{
    assert(n < MAX_LIMITS);
    l[n] = (struct limit_plan){ resource, name, soft, hard };
    return n + 1;
}

/* The limits go on from outside, with prlimit() on the waiting child:
 * one error path with real messages, and it holds under valgrind, which
 * fakes a process's own setrlimit(RLIMIT_NOFILE). A limit above the hard
 * limit we may set is lowered to it: the bot still gets "at most". */
static int apply_limits(pid_t pid, const struct limit_plan *l, int n,
                        char *err, size_t errsize)
{
    for (int i = 0; i < n; i++) {
        struct rlimit rl = { l[i].soft, l[i].hard }, cur;
        int r = prlimit(pid, l[i].resource, &rl, NULL);
        if (r != 0 && errno == EPERM &&
            prlimit(pid, l[i].resource, NULL, &cur) == 0) {
            if (rl.rlim_max > cur.rlim_max)
                rl.rlim_max = cur.rlim_max;
            if (rl.rlim_cur > rl.rlim_max)
                rl.rlim_cur = rl.rlim_max;
            r = prlimit(pid, l[i].resource, &rl, NULL);
        }
        if (r != 0) {
            txt_set(err, errsize, "cannot set %s to %llu: %s", l[i].name,
                    (unsigned long long)l[i].soft, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The rlimits for what the control group does not limit. */
static int plan_limits(const ref_limits *lim, const ref_proc *p, int own_uid,
                       struct limit_plan *lp)
{
    unsigned cg = p->cg.sys ? p->cg.sys->features : 0;
    int nl = 0;
    if (lim->cpu_seconds)   /* the extra second lets SIGXCPU act first */
        nl = add_limit(lp, nl, RLIMIT_CPU, "the CPU time limit",
                       lim->cpu_seconds, (rlim_t)lim->cpu_seconds + 1);
    if (lim->memory_bytes && !(cg & REF_CG_MEMORY))
        nl = add_limit(lp, nl, RLIMIT_AS, "the address space limit",
                       lim->memory_bytes, lim->memory_bytes);
    if (lim->max_processes && !(cg & REF_CG_PIDS)) {
        /* RLIMIT_NPROC counts every process of the user: with the
         * referee's own, far more than the bot's. */
        rlim_t n = lim->max_processes;
        if (!own_uid && n < 4096)
            n = 4096;
        nl = add_limit(lp, nl, RLIMIT_NPROC, "the process limit", n, n);
    }
    if (lim->max_open_files)
        nl = add_limit(lp, nl, RLIMIT_NOFILE, "the open file limit",
                       lim->max_open_files, lim->max_open_files);
    return add_limit(lp, nl, RLIMIT_CORE, "the core size limit", 0, 0);
}

static size_t key_len(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return eq ? (size_t)(eq - kv) : strlen(kv);
}

static int has_key(char *const *list, size_t n, const char *kv)
{
    size_t kl = key_len(kv);
    for (size_t j = 0; j < n; j++)
        if (key_len(list[j]) == kl && !strncmp(list[j], kv, kl))
            return 1;
    return 0;
}

/* The bot's environment: base (the referee's, or the clean one), then
 * extra, then the command's own assignments, later ones replacing
 * same-named earlier ones. The strings are shared, only the array is
 * new. NULL with err set on bad input. */
static char **build_env(char *const base[], char *const extra[], char *const assign[],
                        char *err, size_t errsize)
{
    size_t nb = 0, ne = 0, na = 0;
    for (; base && base[nb]; nb++)
        ;
    for (; extra && extra[ne]; ne++) {
        const char *kv = extra[ne];
        if (!strchr(kv, '=') || kv[0] == '=') {
            txt_set(err, errsize,
                    "environment entry \"%s\" is not NAME=VALUE", kv);
            return NULL;
        }
    }
    for (; assign && assign[na]; na++)
        ;
    char **env = malloc((nb + ne + na + 1) * sizeof *env);
    if (!env) {
        txt_set(err, errsize, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < nb; i++)
        if (!has_key(extra, ne, base[i]) && !has_key(assign, na, base[i]))
            env[n++] = base[i];
    for (size_t i = 0; i < ne; i++)
        if (!has_key(assign, na, extra[i]))
            env[n++] = extra[i];
    for (size_t i = 0; i < na; i++)
        env[n++] = assign[i];
    env[n] = NULL;
    return env;
}

/* Finds a program without a '/' in the PATH of env, then (for a clean
 * environment, whose PATH is short) in the referee's. 0 with out set. */
static int find_program(const char *name, char **env, int also_ours, char *out, size_t size)
{
    const char *paths[2] = { NULL, also_ours ? getenv("PATH") : NULL };
    for (char **e = env; *e; e++)
        if (!strncmp(*e, "PATH=", 5))
            paths[0] = *e + 5;
    if (!paths[0])
        paths[0] = "/usr/bin:/bin";
    for (int k = 0; k < 2; k++)
        if (ref_cmd_find(name, paths[k], out, size) == 0)
            return 0;
    return -1;
}
/* The child's next report, or EOF after its exec. Bounded, so that a
 * child stuck before exec can never hang the referee: -2 on time out. */
#define SPAWN_REPORT_MS 10000

static ssize_t read_report(int fd, struct child_report *r)
{
    struct pollfd pfd = { fd, POLLIN, 0 };
    int ready;
    do
        ready = poll(&pfd, 1, SPAWN_REPORT_MS);
    while (ready < 0 && errno == EINTR);
    if (ready == 0)
        return -2;
    ssize_t n;
    do
        n = read(fd, r, sizeof *r);
    while (n < 0 && errno == EINTR);
    return n;
}

static void report_child_failure(const struct child_plan *c,
                                  const struct child_report *r,
                                  char *err, size_t errsize)
{
    const char *why = strerror(r->err);
    switch (r->stage) {
    case ST_SETPGID:
        txt_set(err, errsize, "cannot create a process group: %s", why);
        break;
    case ST_DEVNULL:
        txt_set(err, errsize, "cannot open /dev/null: %s", why);
        break;
    case ST_FDS:
        txt_set(err, errsize, "cannot set up the bot's file descriptors: %s",
                why);
        break;
    case ST_CHDIR:
        txt_set(err, errsize, "cannot change to directory %s: %s", c->cwd,
                why);
        break;
    case ST_STAGE:
        if (r->which >= 0 && r->which < c->stage->n)
            txt_set(err, errsize, "cannot show %s to the bot's sandbox: %s",
                    c->stage->src[r->which], why);
        else
            txt_set(err, errsize, "cannot make the sandbox's stage on %s: %s", c->stage->root,
                    why);
        break;
    case ST_UID:
        txt_set(err, errsize, "cannot become user %u: %s", (unsigned)c->uid, why);
        break;
    case ST_EXEC:
        txt_set(err, errsize, "cannot run %s: %s", c->shown, why);
        break;
    default:
        txt_set(err, errsize, "the bot's setup failed (stage %d): %s",
                r->stage, why);
    }
}

/* Gives a folder (and what is in it: the seat's socket) to the bot's user,
 * for it alone. */
static int give_folder(const char *dir, uid_t uid, char *err, size_t errsize)
{
    if (chown(dir, uid, uid) != 0 || chmod(dir, 0700) != 0) {
        txt_set(err, errsize, "cannot give %s to user %u: %s", dir, (unsigned)uid,
                strerror(errno));
        return -1;
    }
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            (void)fchownat(dirfd(d), de->d_name, uid, uid, AT_SYMLINK_NOFOLLOW);
    if (d)
        closedir(d);
    return 0;
}

/* Waits for the sandbox's init to say that the bot started. 0, or -1 with
 * err from the init's report or bwrap's own words in the output pipe. */
static int await_init(ref_proc *p, const struct child_plan *c, char *err, size_t errsize)
{
    ref_init_record r;
    struct pollfd pf = { p->report_fd, POLLIN, 0 };
    ssize_t n = -1;
    int ready;
    do
        ready = poll(&pf, 1, SPAWN_REPORT_MS);
    while (ready < 0 && errno == EINTR);
    if (ready > 0)
        do
            n = read(p->report_fd, &r, sizeof r);
        while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof r && r.kind == REF_INIT_STARTED)
        return 0;
    if (n == (ssize_t)sizeof r && r.kind == REF_INIT_FAILED) {
        txt_set(err, errsize, "cannot run %s: %s", c->shown, strerror(r.value));
        return -1;
    }
    if (ready == 0) {
        txt_set(err, errsize, "the bot's sandbox did not start within %d ms", SPAWN_REPORT_MS);
        return -1;
    }
    /* bwrap gave up before the init ran: its message is in the pipe. */
    char msg[256] = "";
    pf = (struct pollfd){ p->out_fd, POLLIN, 0 };
    if (poll(&pf, 1, 1000) > 0) {
        ssize_t k = read(p->out_fd, msg, sizeof msg - 1);
        msg[k > 0 ? k : 0] = 0;
        msg[strcspn(msg, "\n")] = 0;
    }
    txt_set(err, errsize, "the bot's sandbox could not start%s%s", msg[0] ? ": " : "", msg);
    return -1;
}

/* Pipes and fds of one spawn, closed together on every path. */
struct spawn_fds {
    int log, out[2], status[2], go[2], report[2], stop[2];
};

static void close_spawn_fds(struct spawn_fds *f)
{
    int *all[] = { &f->log, &f->out[0], &f->out[1], &f->status[0], &f->status[1], &f->go[0],
                   &f->go[1], &f->report[0], &f->report[1], &f->stop[0], &f->stop[1] };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ref_proc_close_fd(all[i]);
}

/* Forks the child and sees it to its exec. 0 with p->pid, or -1. */
static int launch(ref_proc *p, struct child_plan *c, struct spawn_fds *f,
                  const struct limit_plan *lp, int nl, char *err, size_t errsize)
{
    /* Signals stay blocked from fork until the child has reset its
     * dispositions, so no referee handler ever runs in the child. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        child_main(c);
    int fork_errno = errno;
    /* The group is ours from this moment: a stop signal arriving while the
     * child is still being set up must find it in the registry, or a bot
     * that forks would outlive us (ref_proc_kill_all). The child calls
     * setpgid too, so the group exists whichever of us runs first. */
    if (pid > 0) {
        (void)setpgid(pid, pid);
        ref_proc_register_group(pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    ref_proc_close_fd(&f->out[1]);
    ref_proc_close_fd(&f->status[1]);
    ref_proc_close_fd(&f->go[0]);
    ref_proc_close_fd(&f->report[1]);
    ref_proc_close_fd(&f->stop[0]);
    if (pid < 0) {
        txt_set(err, errsize, "fork failed: %s", strerror(fork_errno));
        return -1;
    }
    /* The child reports ready (or a failure), we set its limits, put it in
     * its control group and say go, then EOF on the status pipe means the
     * CLOEXEC write end went away in a successful exec. */
    struct child_report r;
    ssize_t n = read_report(f->status[0], &r);
    int failed = 1;
    if (n == (ssize_t)sizeof r && r.stage == ST_READY) {
        int ready = ref_cg_attach(&p->cg, pid, err, errsize) == 0 &&
                    apply_limits(pid, lp, nl, err, errsize) == 0;
        if (ready && write(f->go[1], &(char){ GO_BYTE }, 1) != 1) {
            txt_set(err, errsize, "cannot start the bot's process: %s", strerror(errno));
            ready = 0;
        }
        if (ready) {
            ref_proc_close_fd(&f->go[1]);
            n = read_report(f->status[0], &r);
            if (n == (ssize_t)sizeof r)
                report_child_failure(c, &r, err, errsize);
            else if (n == -2)
                txt_set(err, errsize, "the bot's process did not start within %d ms",
                        SPAWN_REPORT_MS);
            else
                failed = 0;
        }
    } else if (n == (ssize_t)sizeof r) {
        report_child_failure(c, &r, err, errsize);
    } else if (n == -2) {
        txt_set(err, errsize, "the bot's process did not start within %d ms", SPAWN_REPORT_MS);
    } else {
        txt_set(err, errsize, "the bot's process ended during its setup");
    }
    p->pid = pid;
    if (!failed && p->sandboxed) {
        p->out_fd = f->out[0];
        p->report_fd = f->report[0];
        failed = await_init(p, c, err, errsize) < 0;
        p->out_fd = p->report_fd = -1;
    }
    if (failed) {
        ref_proc_unregister_group(pid);
        kill(-pid, SIGKILL); /* mostly dead already; never let it run */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        return -1;
    }
    return 0;
}

/* What ref_proc_start builds before the fork, stage by stage; freed by
 * spawn_work_free whatever happened. */
struct spawn_work {
    ref_cmd           cmd;
    ref_argv          bw;           /* bwrap's arguments, when sandboxed */
    ref_sandbox_stage stage;        /* what bwrap binds, shown first as root */
    struct child_plan c;
    struct spawn_fds  f;
    char              program[PATH_MAX], scratch[PATH_MAX + 8];
    char              home[PATH_MAX + 16], tmpdir[PATH_MAX + 16];
};

static void spawn_work_free(struct spawn_work *w)
{
    free(w->c.envp);
    w->c.envp = NULL;
    ref_argv_free(&w->bw);
    ref_cmd_free(&w->cmd);
    close_spawn_fds(&w->f);
}

/* Who the bot will be: its uid, its control group, its folders and its
 * environment. 0, or -1 with err. */
static int settle_identity(ref_proc *p, const ref_spawn *s, const ref_sandbox *sb,
                           const ref_limits *lim, struct spawn_work *w, char *err, size_t errsize)
{
    struct child_plan *c = &w->c;
    if (sb && sb->uid_pool &&
        ref_sandbox_uid_acquire(sb, &c->uid, &p->uid_lock, err, errsize) < 0)
        return -1;
    c->set_uid = p->uid_lock >= 0;
    ref_cg_limits cgl = { lim->memory_bytes, lim->max_processes, lim->cpu_millis };
    if (sb && ref_cg_create(&p->cg, &sb->cg, &cgl, err, errsize) < 0)
        return -1;
    p->sandboxed = sb && sb->namespaces;
    snprintf(w->home, sizeof w->home, "HOME=/tmp");
    snprintf(w->tmpdir, sizeof w->tmpdir, "TMPDIR=/tmp");
    if (sb && s->share_dir) {
        if (c->set_uid && give_folder(s->share_dir, c->uid, err, errsize) < 0)
            return -1;
        if (!p->sandboxed) {
            /* No private /tmp: the scratch folder is in the seat's. */
            snprintf(w->scratch, sizeof w->scratch, "%s/tmp", s->share_dir);
            if (mkdir(w->scratch, 0700) != 0 ||
                (c->set_uid && chown(w->scratch, c->uid, c->uid) != 0)) {
                txt_set(err, errsize, "cannot make %s: %s", w->scratch, strerror(errno));
                return -1;
            }
            snprintf(w->home, sizeof w->home, "HOME=%s", w->scratch);
            snprintf(w->tmpdir, sizeof w->tmpdir, "TMPDIR=%s", w->scratch);
        }
    }
    char *clean[] = { CLEAN_PATH, "LANG=C.UTF-8", w->home, w->tmpdir, NULL };
    c->envp = build_env(sb ? clean : environ, s->env, w->cmd.assign, err, errsize);
    return c->envp ? 0 : -1;
}

/* What to exec: the program found, and under the sandbox bwrap's
 * arguments around it (a bot whose folder no user of the pool may read
 * keeps the referee's uid, or is refused under --sandbox strict). 0, or
 * -1 with err. */
static int plan_exec(ref_proc *p, const ref_spawn *s, const ref_sandbox *sb,
                     const ref_limits *lim, struct spawn_work *w, char *err, size_t errsize)
{
    struct child_plan *c = &w->c;
    ref_cmd *cmd = &w->cmd;
    c->path = c->shown = cmd->argv[0];
    if (!strchr(cmd->argv[0], '/')) {
        if (find_program(cmd->argv[0], c->envp, sb != NULL, w->program, sizeof w->program) < 0) {
            txt_set(err, errsize, "command not found: %s", cmd->argv[0]);
            return -1;
        }
        c->path = w->program;
    }
    if (!p->sandboxed) {
        c->argv = cmd->argv;
        /* Without namespaces a pool uid must reach the bot's folders on
         * the host: say which folder shuts it out rather than fail to run. */
        return c->set_uid ? ref_sandbox_reach((const char *const *)cmd->argv, s->cwd, c->uid,
                                              err, errsize)
                          : 0;
    }
    cmd->argv[0] = (char *)c->path;   /* the init execs what we found */
    snprintf(w->stage.root, sizeof w->stage.root, "%s", sb->uid_lock_dir);
    ref_sandbox_view v = { .argv = (const char *const *)cmd->argv, .cwd = s->cwd,
                           .share_dir = s->share_dir, .tmp_bytes = lim->memory_bytes,
                           .share_net = s->share_net,
                           .stage = c->set_uid && sb->stage_binds ? &w->stage : NULL };
    if (ref_sandbox_bwrap_argv(sb, &v, &w->bw) == 0 && v.unreadable[0] && c->set_uid) {
        /* No user of the pool may read the bot's folder (a private
         * temporary folder, say): it keeps the referee's uid. */
        if (sb->mode == REF_SANDBOX_STRICT) {
            txt_set(err, errsize, "--sandbox strict: the bot's user cannot read %s; "
                    "let other users read it (chmod o+rx)", v.unreadable);
            return -1;
        }
        ref_sandbox_note_once("uid: some bots keep the referee's user: others cannot "
                              "read their folders (such as %s)", v.unreadable);
        ref_sandbox_uid_release(&p->uid_lock);
        c->set_uid = 0;
        p->shared_uid = 1;
        if (s->share_dir && give_folder(s->share_dir, geteuid(), err, errsize) < 0)
            return -1;
        v.as_referee = 1;
        v.stage = NULL;       /* the referee's own uid passes everywhere */
        ref_argv_free(&w->bw);
        ref_sandbox_bwrap_argv(sb, &v, &w->bw);
    }
    if (w->bw.failed || !w->bw.v) {
        txt_set(err, errsize, "out of memory");
        return -1;
    }
    c->stage = v.stage;
    c->path = sb->bwrap;
    c->argv = w->bw.v;
    c->cwd = "/";    /* bwrap enters the bot's folder inside */
    return 0;
}

/* The log file and the pipes between the referee and the child (the
 * report and stop pipes only for a sandbox's init). 0, or -1 with err. */
static int open_channels(const ref_spawn *s, const ref_proc *p, struct spawn_work *w, char *err,
                         size_t errsize)
{
    struct spawn_fds *f = &w->f;
    if (s->log_path) {
        f->log = open(s->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (f->log < 0) {
            txt_set(err, errsize, "cannot open log file %s: %s", s->log_path,
                    strerror(errno));
            return -1;
        }
    }
    if (pipe2(f->out, O_CLOEXEC) != 0 || pipe2(f->status, O_CLOEXEC) != 0 ||
        pipe2(f->go, O_CLOEXEC) != 0 ||
        (p->sandboxed && (pipe2(f->report, O_CLOEXEC) != 0 || pipe2(f->stop, O_CLOEXEC) != 0))) {
        txt_set(err, errsize, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    w->c.out_w = f->out[1];
    w->c.status_w = f->status[1];
    w->c.go_r = f->go[0];
    w->c.go_w = f->go[1];
    w->c.report_w = f->report[1];
    w->c.stop_r = f->stop[0];
    return 0;
}

/* The launched child's ends of the channels become p's. */
static void adopt_child(ref_proc *p, struct spawn_fds *f, const ref_limits *lim)
{
    int fl = fcntl(f->out[0], F_GETFL);
    if (fl >= 0)
        (void)fcntl(f->out[0], F_SETFL, fl | O_NONBLOCK);
    if (f->report[0] >= 0)
        (void)fcntl(f->report[0], F_SETFL, O_NONBLOCK);
    p->live = 1;
#ifdef SYS_pidfd_open
    p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
    if (p->pidfd < 0)
        p->pidfd = -1; /* kernel < 5.3: callers poll ref_proc_exited */
#endif
    p->out_fd = f->out[0];
    p->log_fd = f->log;
    p->report_fd = f->report[0];
    p->stop_fd = f->stop[1];   /* closing it tells the init to stop */
    f->out[0] = f->log = f->report[0] = f->stop[1] = -1;
    p->log_cap = lim->log_bytes;
    p->ends_in_nl = 1;
}

int ref_proc_start(ref_proc *p, const ref_spawn *s, char *err, size_t errsize)
{
    static const ref_limits no_limits;
    txt_set(err, errsize, "%s", "");
    if (!p) {
        txt_set(err, errsize, "no ref_proc given");
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->pidfd = p->out_fd = p->log_fd = p->report_fd = p->stop_fd = p->uid_lock = -1;
    p->status = REF_PROC_STATUS_UNKNOWN;
    if (!s || !s->cmd) {
        txt_set(err, errsize, "no command given");
        return -1;
    }
    const ref_limits *lim = s->lim ? s->lim : &no_limits;
    const ref_sandbox *sb = s->sandbox && s->sandbox->mode != REF_SANDBOX_NONE ? s->sandbox
                                                                            : NULL;
    struct spawn_work *w = calloc(1, sizeof *w);
    if (!w) {
        txt_set(err, errsize, "out of memory");
        return -1;
    }
    w->f = (struct spawn_fds){ -1, { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
    w->c = (struct child_plan){ .cwd = s->cwd, .parent = getpid(), .report_w = -1,
                                .stop_r = -1 };
    int ok = 0;
    if (ref_cmd_parse(&w->cmd, s->cmd, err, errsize) < 0) {
        free(w);
        return -1;
    }
    if (settle_identity(p, s, sb, lim, w, err, errsize) == 0 &&
        plan_exec(p, s, sb, lim, w, err, errsize) == 0 &&
        open_channels(s, p, w, err, errsize) == 0) {
        struct limit_plan lp[MAX_LIMITS];
        int nl = plan_limits(lim, p, w->c.set_uid, lp);
        if (launch(p, &w->c, &w->f, lp, nl, err, errsize) == 0) {
            adopt_child(p, &w->f, lim);
            ok = 1;
        }
    }
    spawn_work_free(w);
    free(w);
    if (!ok) {
        ref_cg_destroy(&p->cg);
        ref_sandbox_uid_release(&p->uid_lock);
        p->pid = -1;
        p->sandboxed = 0;
    }
    return ok ? 0 : -1;
}

int ref_proc_spawn(ref_proc *p, const char *cmd, const char *cwd,
                   char *const env_extra[], const ref_limits *lim,
                   const char *log_path, char *err, size_t errsize)
{
    ref_spawn s = { .cmd = cmd, .cwd = cwd, .env = env_extra, .lim = lim,
                    .log_path = log_path };
    return ref_proc_start(p, &s, err, errsize);
}

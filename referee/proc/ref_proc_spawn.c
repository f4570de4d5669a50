/*
 * ref_proc_spawn.c - starting a bot: /bin/sh -c CMD in its own process
 * group, limits set from outside with prlimit() while the child waits,
 * stdin /dev/null, stdout+stderr into the pipe that ref_proc_drain reads.
 *
 * The child between fork and exec runs only async-signal-safe calls (the
 * referee may have threads): everything is prepared before fork, and
 * failures travel back as numbers on a CLOEXEC status pipe, which the
 * parent turns into messages. See ref_proc.h for the contract.
 */
#define _GNU_SOURCE
#include "ref_proc_internal.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum {
    CHILD_FD_FLOOR = 10, /* where the child parks fds before 0..4 */
    MAX_LIMITS = 5
};

static void set_err(char *err, size_t errsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errsize, const char *fmt, ...)
{
    if (!err || errsize == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsize, fmt, ap);
    va_end(ap);
}

/* ---- supervisor --------------------------------------------------------- */

int ref_proc_init_supervisor(void)
{
    /* A bot closing its end of a socket or pipe must cost us an EPIPE,
     * not our life. */
    signal(SIGPIPE, SIG_IGN);
    return prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0 ? 0 : -1;
}

/* ---- spawn: the child side ---------------------------------------------- */

/* Where the child failed, reported to the parent through the status pipe,
 * which the parent turns into a message: the child itself may only make
 * async-signal-safe calls (the referee may have threads), so no printf. */
enum child_stage {
    ST_READY = 0, /* not a failure: set up, waiting for limits and go */
    ST_SETPGID, ST_DEVNULL, ST_FDS, ST_CHDIR, ST_EXEC
};

struct child_report {
    int stage;
    int err;
};

/* Everything the child needs, prepared before fork. */
struct child_plan {
    const char *cwd;
    char *argv[4];
    char **envp;
    int out_w, status_w, go_r, go_w;
    pid_t parent;
};

static void child_report(int fd, int stage, int err)
{
    struct child_report r = { stage, err };
    ssize_t n;
    do
        n = write(fd, &r, sizeof r);
    while (n < 0 && errno == EINTR);
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

    int nul = open("/dev/null", O_RDONLY);
    if (nul < 0)
        child_fail(st, ST_DEVNULL);
    /* Park the four fds above 0..4 first so that placing them there
     * cannot overwrite one another, whatever numbers they had (dup2
     * leaves the copies at 0, 1, 2 without CLOEXEC). */
    int hn = fcntl(nul, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int ho = fcntl(c->out_w, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int hs = fcntl(st, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    int hg = fcntl(c->go_r, F_DUPFD_CLOEXEC, CHILD_FD_FLOOR);
    if (hn < 0 || ho < 0 || hs < 0 || hg < 0)
        child_fail(st, ST_FDS);
    st = hs;
    if (dup2(hn, 0) < 0 || dup2(ho, 1) < 0 || dup2(ho, 2) < 0 ||
        dup3(hs, 3, O_CLOEXEC) < 0 || dup3(hg, 4, O_CLOEXEC) < 0)
        child_fail(st, ST_FDS);
    st = 3;
    child_close_from(5);

    if (c->cwd && chdir(c->cwd) != 0)
        child_fail(st, ST_CHDIR);

    /* The parent sets our limits with prlimit() once we are ready (under
     * valgrind, earlier would starve valgrind's own post-fork fds), then
     * closes its end: EOF means go. Anything else: it gave up on us. */
    child_report(st, ST_READY, 0);
    char b;
    ssize_t n;
    do
        n = read(4, &b, 1);
    while (n < 0 && errno == EINTR);
    if (n != 0)
        _exit(127);
    /* The referee may have died while we waited: then nobody would ever
     * kill what we are about to run. */
    if (getppid() != c->parent)
        _exit(127);

    execve("/bin/sh", c->argv, c->envp);
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
            set_err(err, errsize, "cannot set %s to %llu: %s", l[i].name,
                    (unsigned long long)l[i].soft, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static size_t key_len(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return eq ? (size_t)(eq - kv) : strlen(kv);
}

/* environ with env_extra added, same-named entries replaced. The strings
 * are shared, only the array is new. NULL with err set on bad input. */
static char **build_env(char *const extra[], char *err, size_t errsize)
{
    size_t nbase = 0, nextra = 0;
    for (char **e = environ; e && *e; e++)
        nbase++;
    for (; extra && extra[nextra]; nextra++) {
        const char *kv = extra[nextra];
        if (!strchr(kv, '=') || kv[0] == '=') {
            set_err(err, errsize,
                    "environment entry \"%s\" is not NAME=VALUE", kv);
            return NULL;
        }
    }
    char **env = malloc((nbase + nextra + 1) * sizeof *env);
    if (!env) {
        set_err(err, errsize, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < nbase; i++) {
        const char *kv = environ[i];
        size_t kl = key_len(kv);
        int replaced = 0;
        for (size_t j = 0; j < nextra && !replaced; j++)
            replaced = key_len(extra[j]) == kl && !strncmp(extra[j], kv, kl);
        if (!replaced)
            env[n++] = environ[i];
    }
    for (size_t j = 0; j < nextra; j++)
        env[n++] = extra[j];
    env[n] = NULL;
    return env;
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
        set_err(err, errsize, "cannot create a process group: %s", why);
        break;
    case ST_DEVNULL:
        set_err(err, errsize, "cannot open /dev/null: %s", why);
        break;
    case ST_FDS:
        set_err(err, errsize, "cannot set up the bot's file descriptors: %s",
                why);
        break;
    case ST_CHDIR:
        set_err(err, errsize, "cannot change to directory %s: %s", c->cwd,
                why);
        break;
    case ST_EXEC:
        set_err(err, errsize, "cannot run /bin/sh: %s", why);
        break;
    default:
        set_err(err, errsize, "the bot's setup failed (stage %d): %s",
                r->stage, why);
    }
}

int ref_proc_spawn(ref_proc *p, const char *shell_cmd, const char *cwd,
                   char *const env_extra[], const ref_limits *lim,
                   const char *log_path, char *err, size_t errsize)
{
    static const ref_limits no_limits;
    set_err(err, errsize, "%s", "");
    if (!p) {
        set_err(err, errsize, "no ref_proc given");
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->pid = -1;
    p->pidfd = p->out_fd = p->log_fd = -1;
    p->status = REF_PROC_STATUS_UNKNOWN;
    if (!shell_cmd) {
        set_err(err, errsize, "no command given");
        return -1;
    }
    if (!lim)
        lim = &no_limits;

    struct child_plan c = {
        .cwd = cwd,
        .argv = { "sh", "-c", (char *)shell_cmd, NULL },
        .parent = getpid(),
    };
    struct limit_plan lp[MAX_LIMITS];
    int nl = 0;
    if (lim->cpu_seconds)   /* the extra second lets SIGXCPU act first */
        nl = add_limit(lp, nl, RLIMIT_CPU, "the CPU time limit",
                       lim->cpu_seconds, (rlim_t)lim->cpu_seconds + 1);
    if (lim->address_space_bytes)
        nl = add_limit(lp, nl, RLIMIT_AS, "the address space limit",
                       lim->address_space_bytes, lim->address_space_bytes);
    if (lim->max_processes)
        nl = add_limit(lp, nl, RLIMIT_NPROC, "the process limit",
                       lim->max_processes, lim->max_processes);
    if (lim->max_open_files)
        nl = add_limit(lp, nl, RLIMIT_NOFILE, "the open file limit",
                       lim->max_open_files, lim->max_open_files);
    nl = add_limit(lp, nl, RLIMIT_CORE, "the core size limit", 0, 0);

    int log_fd = -1, out[2] = { -1, -1 }, stp[2] = { -1, -1 };
    int go[2] = { -1, -1 };
    c.envp = build_env(env_extra, err, errsize);
    if (!c.envp)
        return -1;
    if (log_path) {
        log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                      0644);
        if (log_fd < 0) {
            set_err(err, errsize, "cannot open log file %s: %s", log_path,
                    strerror(errno));
            goto fail;
        }
    }
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(stp, O_CLOEXEC) != 0 ||
        pipe2(go, O_CLOEXEC) != 0) {
        set_err(err, errsize, "cannot create a pipe: %s", strerror(errno));
        goto fail;
    }
    c.out_w = out[1];
    c.status_w = stp[1];
    c.go_r = go[0];
    c.go_w = go[1];

    /* Signals stay blocked from fork until the child has reset its
     * dispositions, so no referee handler ever runs in the child. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = fork();
    if (pid == 0)
        child_main(&c);
    int fork_errno = errno;
    /* The group is ours from this moment: a stop signal arriving while the
     * child is still being set up must find it in the registry, or a bot
     * that sh forks would outlive us (ref_proc_kill_all). The child calls
     * setpgid too, so the group exists whichever of us runs first. */
    if (pid > 0) {
        (void)setpgid(pid, pid);
        ref_proc_register_group(pid);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    ref_proc_close_fd(&out[1]);
    ref_proc_close_fd(&stp[1]);
    ref_proc_close_fd(&go[0]);
    if (pid < 0) {
        set_err(err, errsize, "fork failed: %s", strerror(fork_errno));
        goto fail;
    }
    /* The child reports ready (or a failure), we set its limits and say
     * go, then EOF means the CLOEXEC write end went away in a successful
     * exec. */
    struct child_report r;
    ssize_t n = read_report(stp[0], &r);
    int failed = 1;
    if (n == (ssize_t)sizeof r && r.stage == ST_READY) {
        if (apply_limits(pid, lp, nl, err, errsize) == 0) {
            ref_proc_close_fd(&go[1]);
            n = read_report(stp[0], &r);
            if (n == (ssize_t)sizeof r)
                report_child_failure(&c, &r, err, errsize);
            else if (n == -2)
                set_err(err, errsize, "the bot's process did not start within %d ms",
                        SPAWN_REPORT_MS);
            else
                failed = 0;
        }
    } else if (n == (ssize_t)sizeof r) {
        report_child_failure(&c, &r, err, errsize);
    } else if (n == -2) {
        set_err(err, errsize, "the bot's process did not start within %d ms", SPAWN_REPORT_MS);
    } else {
        set_err(err, errsize, "the bot's process ended during its setup");
    }
    ref_proc_close_fd(&stp[0]);
    ref_proc_close_fd(&go[1]);
    if (failed) {
        ref_proc_unregister_group(pid);
        kill(pid, SIGKILL); /* mostly dead already; never let it exec */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        goto fail;
    }
    free(c.envp);

    int fl = fcntl(out[0], F_GETFL);
    if (fl >= 0)
        (void)fcntl(out[0], F_SETFL, fl | O_NONBLOCK);
    p->live = 1;
    p->pid = pid;
#ifdef SYS_pidfd_open
    p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (p->pidfd < 0)
        p->pidfd = -1; /* kernel < 5.3: callers poll ref_proc_exited */
#endif
    p->out_fd = out[0];
    p->log_fd = log_fd;
    p->log_cap = lim->log_bytes;
    p->ends_in_nl = 1;
    return 0;

fail:
    free(c.envp);
    ref_proc_close_fd(&log_fd);
    ref_proc_close_fd(&out[0]);
    ref_proc_close_fd(&out[1]);
    ref_proc_close_fd(&stp[0]);
    ref_proc_close_fd(&stp[1]);
    ref_proc_close_fd(&go[0]);
    ref_proc_close_fd(&go[1]);
    return -1;
}

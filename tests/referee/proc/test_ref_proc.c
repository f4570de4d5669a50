/*
 * test_ref_proc.c - the bot-process module against real processes: sh
 * commands that print, crash, spin, fork and escape, checked through their
 * logs, their exit statuses and /proc.
 *
 * Every test runs under alarm() so a hang fails it instead of the run, and
 * the teardown reaps whatever a test left and asserts that the test
 * process has no child left.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clk.h"
#include "ref_proc.h"
#include "ref_proc_internal.h"

enum { TEST_ALARM_S = 30, RUN_MS = 10000 };

static char tmpdir[64];

static void log_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s.log", tmpdir, name);
}

/* The whole file into buf (NUL-terminated); its length, or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t len = 0;
    ssize_t n;
    while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
        len += (size_t)n;
    close(fd);
    buf[len] = '\0';
    return (long)len;
}

/* Stat field of one process, our own parse, independent of the module:
 * state in *state, ppid, pgrp and session; -1 when it is gone. */
static int proc_stat(pid_t pid, char *state, int *ppid, int *sid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (slurp(path, buf, sizeof buf) <= 0)
        return -1;
    char *rp = strrchr(buf, ')');
    int pgrp;
    if (!rp || sscanf(rp + 1, " %c %d %d %d", state, ppid, &pgrp, sid) != 4)
        return -1;
    return 0;
}

/* How many processes have the test process as parent. */
static int count_children(void)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        int pid = atoi(de->d_name);
        char st;
        int ppid, sid;
        if (pid > 0 && proc_stat(pid, &st, &ppid, &sid) == 0 &&
            ppid == getpid())
            n++;
    }
    closedir(d);
    return n;
}

static int gone(pid_t pid)
{
    return kill(pid, 0) == -1 && errno == ESRCH;
}

/* The referee's loop in miniature: poll out_fd and pidfd, drain, notice
 * the exit, until the bot has exited and its output reached EOF. */
static int run_to_end(ref_proc *p, int timeout_ms)
{
    int64_t end = clk_mono_ms() + timeout_ms;
    while (!(p->exited && p->out_fd < 0)) {
        int64_t left = end - clk_mono_ms();
        if (left <= 0)
            return 0;
        int fds[2];
        ref_proc_fds(p, fds);
        struct pollfd pf[2];
        int n = 0;
        for (int i = 0; i < 2; i++)
            if (fds[i] >= 0)
                pf[n++] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
        /* Without a pidfd, ref_proc_exited is polled every 20 ms. */
        poll(pf, (nfds_t)n, p->pidfd >= 0 ? (int)left : 20);
        ref_proc_drain(p);
        ref_proc_exited(p);
    }
    return 1;
}

/* Until the leader has exited, output or not (an escaped process may
 * hold the pipe open forever). */
static void wait_exited(ref_proc *p)
{
    int64_t end = clk_mono_ms() + RUN_MS;
    while (!ref_proc_exited(p)) {
        assert_true(clk_mono_ms() < end);
        struct pollfd pf = { .fd = p->pidfd, .events = POLLIN };
        poll(&pf, p->pidfd >= 0 ? 1 : 0, 20);
        ref_proc_drain(p);
    }
}

/* Drains until the log holds a full first line; returns the log. */
static void wait_for_line(ref_proc *p, const char *path, char *buf,
                          size_t size)
{
    int64_t end = clk_mono_ms() + RUN_MS;
    for (;;) {
        ref_proc_drain(p);
        if (slurp(path, buf, size) > 0 && strchr(buf, '\n'))
            return;
        assert_true(clk_mono_ms() < end);
        struct pollfd pf = { .fd = p->out_fd, .events = POLLIN };
        poll(&pf, 1, 50);
    }
}

static void spawn_ok(ref_proc *p, const char *cmd, const ref_limits *lim,
                     const char *log, char *const env[])
{
    char err[256];
    int r = ref_proc_spawn(p, cmd, NULL, env, lim, log, err, sizeof err);
    if (r != 0)
        fail_msg("spawn of \"%s\" failed: %s", cmd, err);
    assert_int_equal(p->live, 1);
    assert_true(p->pid > 0);
    assert_true(p->out_fd >= 0);
}

static int setup(void **state)
{
    (void)state;
    alarm(TEST_ALARM_S);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ref_proc_reap_orphans(0);
    alarm(0);
    return count_children() == 0 ? 0 : -1;
}

/* ---- output and exit ---------------------------------------------------- */

static void test_echo_both_streams(void **state)
{
    (void)state;
    char log[128], buf[256], text[64];
    log_path(log, sizeof log, "echo");
    ref_proc p;
    spawn_ok(&p, "echo hello; echo err >&2", NULL, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    assert_int_equal(slurp(log, buf, sizeof buf), 10);
    assert_string_equal(buf, "hello\nerr\n");
    assert_true(WIFEXITED(p.status));
    assert_int_equal(WEXITSTATUS(p.status), 0);
    assert_string_equal(ref_proc_exit_text(p.status, text, sizeof text),
                        "exited with status 0");
    assert_int_equal(p.logged, 10);
    assert_int_equal(p.dropped, 0);
    ref_proc_kill(&p, 100);
    assert_int_equal(p.live, 0);
    assert_true(gone(p.pid));
    ref_proc_close(&p);
    ref_proc_kill(&p, 100); /* idempotent */
}

static void test_missing_command(void **state)
{
    (void)state;
    char log[128], buf[512], err[256];
    log_path(log, sizeof log, "missing");
    ref_proc p;
    /* Exec'd directly: a spawn error that names the program. */
    assert_int_equal(ref_proc_spawn(&p, "arena-no-such-command-xyz --x", NULL, NULL, NULL,
                                    log, err, sizeof err), -1);
    assert_string_equal(err, "command not found: arena-no-such-command-xyz");
    assert_int_equal(p.live, 0);
    assert_int_equal(ref_proc_spawn(&p, "/nonexistent/arena-bot", NULL, NULL, NULL, log, err,
                                    sizeof err), -1);
    assert_string_equal(err, "cannot run /nonexistent/arena-bot: No such file or directory");
    /* Under the shell, as before: status 127. */
    spawn_ok(&p, "arena-no-such-command-xyz; exit $?", NULL, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    assert_true(WIFEXITED(p.status));
    assert_int_equal(WEXITSTATUS(p.status), 127);
    slurp(log, buf, sizeof buf);
    assert_non_null(strstr(buf, "not found"));
    ref_proc_close(&p);
}

/* A command without shell syntax is the bot itself: no sh leader, and a
 * death by signal is its own. */
static void test_exec_not_shell(void **state)
{
    (void)state;
    char text[96], path[64], cmdline[256] = "";
    ref_proc p;
    spawn_ok(&p, "A_VAR='x y' exec sleep 30", NULL, NULL, NULL);
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)p.pid);
    assert_true(slurp(path, cmdline, sizeof cmdline) > 0);
    assert_string_equal(cmdline, "sleep");    /* "sleep\0" "30\0" */
    snprintf(path, sizeof path, "/proc/%d/environ", (int)p.pid);
    static char env[1 << 16];
    long n = slurp(path, env, sizeof env);
    assert_true(n > 0 && memmem(env, (size_t)n, "A_VAR=x y", 10) != NULL);
    kill(p.pid, SIGSEGV);
    assert_true(run_to_end(&p, RUN_MS));
    assert_true(WIFSIGNALED(p.status));
    assert_int_equal(WTERMSIG(p.status), SIGSEGV);
    assert_string_equal(ref_proc_exit_text(p.status, text, sizeof text),
                        "killed by signal 11 (SIGSEGV: Segmentation fault)");
    ref_proc_close(&p);
}

static void test_crash_text(void **state)
{
    (void)state;
    char text[96];
    ref_proc p;
    spawn_ok(&p, "kill -SEGV $$", NULL, NULL, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    assert_true(WIFSIGNALED(p.status));
    assert_int_equal(WTERMSIG(p.status), SIGSEGV);
    assert_false(WCOREDUMP(p.status)); /* RLIMIT_CORE is 0 */
    assert_string_equal(ref_proc_exit_text(p.status, text, sizeof text),
                        "killed by signal 11 (SIGSEGV: Segmentation fault)");
    ref_proc_close(&p);
}

static void test_exit_text_cases(void **state)
{
    (void)state;
    char text[96], tiny[8];
    assert_string_equal(ref_proc_exit_text(W_EXITCODE(3, 0), text,
                                           sizeof text),
                        "exited with status 3");
    assert_string_equal(ref_proc_exit_text(REF_PROC_STATUS_UNKNOWN, text,
                                           sizeof text),
                        "exit status unknown");
    assert_string_equal(ref_proc_exit_text(SIGKILL, text, sizeof text),
                        "killed by signal 9 (SIGKILL: Killed)");
    assert_string_equal(ref_proc_exit_text(W_EXITCODE(3, 0), tiny,
                                           sizeof tiny),
                        "exited ");
    assert_string_equal(ref_proc_exit_text(0, NULL, 0), "");
}

static void test_pidfd_readable_on_exit(void **state)
{
    (void)state;
    ref_proc p;
    spawn_ok(&p, "exit 3", NULL, NULL, NULL);
    if (p.pidfd < 0) {
        ref_proc_close(&p);
        skip(); /* kernel without pidfd_open */
    }
    int fds[2];
    assert_int_equal(ref_proc_fds(&p, fds), 2);
    assert_int_equal(fds[0], p.out_fd);
    assert_int_equal(fds[1], p.pidfd);
    struct pollfd pf = { .fd = p.pidfd, .events = POLLIN };
    assert_int_equal(poll(&pf, 1, RUN_MS), 1);
    assert_true(pf.revents & POLLIN);
    assert_int_equal(ref_proc_exited(&p), 1);
    assert_int_equal(WEXITSTATUS(p.status), 3);
    assert_int_equal(p.pidfd, -1); /* done watching the exit */
    ref_proc_fds(&p, fds);
    assert_int_equal(fds[1], -1);
    ref_proc_kill(&p, 100);
    assert_int_equal(ref_proc_exited(&p), 1);
    assert_int_equal(WEXITSTATUS(p.status), 3); /* kept through the kill */
}

/* ---- spawn errors ------------------------------------------------------- */

static void test_missing_cwd(void **state)
{
    (void)state;
    char err[256];
    ref_proc p;
    int r = ref_proc_spawn(&p, "true", "/nonexistent/arena-dir", NULL, NULL,
                           NULL, err, sizeof err);
    assert_int_equal(r, -1);
    assert_non_null(strstr(err, "/nonexistent/arena-dir"));
    assert_non_null(strstr(err, "No such file or directory"));
    assert_int_equal(p.live, 0);
    ref_proc_kill(&p, 0); /* a failed spawn leaves nothing to end */
    ref_proc_close(&p);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char err[256];
    ref_proc p;
    assert_int_equal(ref_proc_spawn(&p, "true", NULL, NULL, NULL,
                                    "/nonexistent/dir/bot.log", err,
                                    sizeof err), -1);
    assert_non_null(
        strstr(err, "cannot open log file /nonexistent/dir/bot.log: "));

    char *bad_env[] = { "ARENA_OK=1", "NOEQUALS", NULL };
    assert_int_equal(ref_proc_spawn(&p, "true", NULL, bad_env, NULL, NULL,
                                    err, sizeof err), -1);
    assert_non_null(strstr(err, "NOEQUALS"));

    assert_int_equal(ref_proc_spawn(&p, NULL, NULL, NULL, NULL, NULL, err,
                                    sizeof err), -1);
    assert_int_equal(ref_proc_spawn(NULL, "true", NULL, NULL, NULL, NULL,
                                    err, sizeof err), -1);
    assert_int_equal(ref_proc_spawn(&p, NULL, NULL, NULL, NULL, NULL, NULL,
                                    0), -1);
}

static void test_empty_proc_is_noop(void **state)
{
    (void)state;
    ref_proc p;
    memset(&p, 0, sizeof p); /* pid 0 must never mean "our own group" */
    int fds[2];
    assert_int_equal(ref_proc_fds(&p, fds), 0);
    assert_int_equal(fds[0], -1);
    assert_int_equal(fds[1], -1);
    ref_proc_drain(&p);
    assert_int_equal(ref_proc_exited(&p), 0);
    ref_proc_kill(&p, 0);
    ref_proc_close(&p);
    ref_proc_drain(NULL);
    ref_proc_kill(NULL, 0);
    ref_proc_close(NULL);
    assert_int_equal(ref_proc_exited(NULL), 0);
    assert_int_equal(ref_proc_fds(NULL, fds), 0);
}

/* ---- the log ------------------------------------------------------------ */

static void test_bounded_log(void **state)
{
    (void)state;
    enum { TOTAL = 5000000, CAP = 4096 };
    static const char line[] = "\n" REF_PROC_TRUNCATED_LINE;
    char log[128];
    log_path(log, sizeof log, "bounded");
    ref_limits lim = { .log_bytes = CAP };
    ref_proc p;
    spawn_ok(&p, "head -c 5000000 /dev/zero | tr '\\0' x", &lim, log, NULL);
    /* It exits: the pipe is read and dropped, never left full. */
    assert_true(run_to_end(&p, RUN_MS));
    assert_true(WIFEXITED(p.status));
    assert_int_equal(WEXITSTATUS(p.status), 0);
    assert_int_equal(p.logged, CAP);
    assert_int_equal(p.dropped, TOTAL - CAP);
    assert_int_equal(p.truncated, 1);

    static char buf[CAP + 256];
    long len = slurp(log, buf, sizeof buf);
    assert_int_equal(len, CAP + (long)sizeof line - 1);
    for (int i = 0; i < CAP; i++)
        if (buf[i] != 'x')
            fail_msg("byte %d of the log is %d", i, buf[i]);
    assert_string_equal(buf + CAP, line);
    ref_proc_close(&p);
}

static void test_exact_cap_not_truncated(void **state)
{
    (void)state;
    char log[128], buf[64];
    log_path(log, sizeof log, "exact");
    ref_limits lim = { .log_bytes = 6 };
    ref_proc p;
    spawn_ok(&p, "echo hello", &lim, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    assert_int_equal(slurp(log, buf, sizeof buf), 6);
    assert_string_equal(buf, "hello\n");
    assert_int_equal(p.truncated, 0);
    assert_int_equal(p.dropped, 0);
    ref_proc_close(&p);

    /* A cut on a line boundary gets no extra newline. */
    spawn_ok(&p, "echo hello; echo more", &lim, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    assert_string_equal(buf, "hello\n" REF_PROC_TRUNCATED_LINE);
    assert_int_equal(p.dropped, 5);
    ref_proc_close(&p);
}

static void test_no_log_drops_all(void **state)
{
    (void)state;
    ref_proc p;
    spawn_ok(&p, "head -c 100000 /dev/zero", NULL, NULL, NULL);
    assert_int_equal(p.log_fd, -1);
    assert_true(run_to_end(&p, RUN_MS));
    assert_int_equal(p.logged, 0);
    assert_int_equal(p.dropped, 100000);
    ref_proc_close(&p);
}

static void test_log_write_failure_drops(void **state)
{
    (void)state;
    ref_proc p;
    /* Every write to /dev/full fails: the output is still read, and
     * counted, and nothing breaks. */
    spawn_ok(&p, "echo hi; echo there", NULL, "/dev/full", NULL);
    assert_true(run_to_end(&p, RUN_MS));
    assert_int_equal(p.log_errno, ENOSPC);
    assert_int_equal(p.logged, 0);
    assert_int_equal(p.dropped, 9);
    assert_int_equal(WEXITSTATUS(p.status), 0);
    ref_proc_close(&p);
}

/* ---- the child's environment -------------------------------------------- */

static void test_limits_seen_by_child(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "limits");
    ref_limits lim = {
        .cpu_seconds = 7,
        .memory_bytes = 256u << 20,
        .max_processes = 500,
        .max_open_files = 64,
    };
    ref_proc p;
    spawn_ok(&p, "ulimit -t; ulimit -v; ulimit -p; ulimit -n; ulimit -c",
             &lim, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    /* RLIMIT_NPROC counts the referee user's every process: never below
     * 4096 for a bot of the same user. */
    assert_string_equal(buf, "7\n262144\n4096\n64\n0\n");
    ref_proc_close(&p);

    /* Above what may be set (fs.nr_open): lowered to the hard limit. */
    ref_limits huge = { .max_open_files = 4000000000u };
    spawn_ok(&p, "ulimit -n; ulimit -Hn", &huge, log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    unsigned long soft = 0, hard = 0;
    assert_int_equal(sscanf(buf, "%lu %lu", &soft, &hard), 2);
    assert_true(soft > 0 && soft < 4000000000u);
    assert_int_equal(soft, hard);
    ref_proc_close(&p);
}

/* The CPU time a live process has used so far, in ms (/proc/PID/stat's
 * utime + stime); -1 when it cannot be read (the process is gone). */
static long cpu_ms_of(pid_t pid)
{
    char path[48], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    long n = slurp(path, buf, sizeof buf);
    char *after = n > 0 ? strrchr(buf, ')') : NULL;   /* the name may hold anything */
    unsigned long utime, stime;
    if (!after || sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                         &utime, &stime) != 2)
        return -1;
    return (long)((utime + stime) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

static void test_cpu_limit_stops_a_spinner(void **state)
{
    (void)state;
    char text[96];
    ref_limits lim = { .cpu_seconds = 1 };
    ref_proc p;
    spawn_ok(&p, "while :; do :; done", &lim, NULL, NULL);
    /* Judged by the spinner's CPU time, not the wall clock: a loaded
     * machine may take many seconds to give it one second of CPU. Five
     * seconds of CPU means the limit did not stop it. A spinner the machine
     * starves for good is left to ctest's TIMEOUT. */
    alarm(0);
    assert_true(cpu_ms_of(p.pid) >= 0);        /* it spins: its CPU time is readable */
    while (!ref_proc_exited(&p)) {
        assert_true(cpu_ms_of(p.pid) < 5000);
        struct pollfd pf = { .fd = p.pidfd, .events = POLLIN };
        poll(&pf, p.pidfd >= 0 ? 1 : 0, 20);
        ref_proc_drain(&p);
    }
    assert_true(run_to_end(&p, RUN_MS));
    assert_true(WIFSIGNALED(p.status));
    assert_int_equal(WTERMSIG(p.status), SIGXCPU);
    assert_non_null(strstr(ref_proc_exit_text(p.status, text, sizeof text),
                           "killed by signal 24"));
    ref_proc_close(&p);
}

static void test_env_extra(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "env");
    char *env[] = { "ARENA_TOKEN=abc123", "HOME=/arena-home", NULL };
    ref_proc p;
    spawn_ok(&p, "echo $ARENA_TOKEN $HOME; env | grep -c '^HOME='", NULL,
             log, env);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    assert_string_equal(buf, "abc123 /arena-home\n1\n");
    ref_proc_close(&p);
}

static void test_fds_and_signals_of_child(void **state)
{
    (void)state;
    char log[128], buf[512], cwd_log[160];
    log_path(log, sizeof log, "fds");
    /* A leaked fd without CLOEXEC in the referee must not reach the bot. */
    int leak = open("/dev/null", O_RDONLY);
    assert_true(leak >= 0);
    ref_proc p;
    spawn_ok(&p, "ls /proc/$$/fd; readlink /proc/$$/fd/0; "
                 "yes | head -c 1; echo",
             NULL, log, NULL);
    close(leak);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    /* Only 0, 1, 2 (no pipeline here: sh would hold its pipe); stdin is
     * /dev/null; and `yes` died of SIGPIPE quietly, as it does when
     * SIGPIPE has its default action (the referee ignores it). */
    assert_string_equal(buf, "0\n1\n2\n/dev/null\ny\n");
    ref_proc_close(&p);

    /* The mask and ignored set the bot starts with: read by the process
     * sh execs into, as sh blocks signals while it waits for children. */
    spawn_ok(&p, "exec grep -E '^(SigBlk|SigIgn)' /proc/self/status", NULL,
             log, NULL);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(log, buf, sizeof buf);
    assert_string_equal(buf, "SigBlk:\t0000000000000000\n"
                             "SigIgn:\t0000000000000000\n");
    ref_proc_close(&p);

    /* cwd is applied. */
    snprintf(cwd_log, sizeof cwd_log, "%s/cwd.log", tmpdir);
    char err[256];
    assert_int_equal(ref_proc_spawn(&p, "pwd", tmpdir, NULL, NULL, cwd_log,
                                    err, sizeof err), 0);
    assert_true(run_to_end(&p, RUN_MS));
    slurp(cwd_log, buf, sizeof buf);
    char want[96];
    snprintf(want, sizeof want, "%s\n", tmpdir);
    assert_string_equal(buf, want);
    ref_proc_close(&p);
}

/* ---- ending ------------------------------------------------------------- */

static void test_kill_group(void **state)
{
    (void)state;
    char log[128], buf[256], text[96];
    log_path(log, sizeof log, "killgroup");
    ref_proc p;
    /* A group member that takes 0.2 s to clean up on SIGTERM (it prints
     * its pid once its trap is set): the grace covers it, not just the
     * leader. */
    spawn_ok(&p,
             "sh -c 'trap \"sleep 0.2; echo member-term; exit 0\" TERM; "
             "echo $$; "
             "while :; do sleep 0.05; done' & sleep 100",
             NULL, log, NULL);
    wait_for_line(&p, log, buf, sizeof buf);
    pid_t member = (pid_t)atoi(buf);
    assert_true(member > 0);
    assert_false(gone(member));

    int64_t t0 = clk_mono_ms();
    ref_proc_kill(&p, 2000);
    int64_t took = clk_mono_ms() - t0;
    assert_true(took >= 200);  /* the member's cleanup was waited for */
    assert_true(took < 2000);  /* but not the whole grace */
    assert_true(gone(p.pid));
    assert_true(gone(member));
    slurp(log, buf, sizeof buf);
    if (!strstr(buf, "\nmember-term\n"))
        fail_msg("log: [%s] took %lld", buf, (long long)took);
    assert_true(WIFSIGNALED(p.status));
    assert_int_equal(WTERMSIG(p.status), SIGTERM);
    assert_string_equal(ref_proc_exit_text(p.status, text, sizeof text),
                        "killed by signal 15 (SIGTERM: Terminated)");
    assert_int_equal(p.out_fd, -1);
    assert_int_equal(p.log_fd, -1);
    assert_int_equal(p.pidfd, -1);
    assert_int_equal(count_children(), 0);
}

static void test_kill_plain_background(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "killbg");
    ref_proc p;
    spawn_ok(&p, "sleep 100 & echo $!; sleep 100", NULL, log, NULL);
    wait_for_line(&p, log, buf, sizeof buf);
    pid_t grandchild = (pid_t)atoi(buf);
    assert_true(grandchild > 0);
    assert_false(gone(grandchild));
    int64_t t0 = clk_mono_ms();
    ref_proc_kill(&p, 1000);
    assert_true(clk_mono_ms() - t0 < 1000);
    assert_true(gone(p.pid));
    assert_true(gone(grandchild)); /* killed and reaped, not a zombie */
    assert_int_equal(count_children(), 0);
}

static void test_kill_after_grace(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "stubborn");
    ref_proc p;
    /* Ignores SIGTERM, and so does the sleep it starts. */
    spawn_ok(&p, "trap '' TERM; echo ready; while :; do sleep 1; done",
             NULL, log, NULL);
    wait_for_line(&p, log, buf, sizeof buf);
    int64_t t0 = clk_mono_ms();
    ref_proc_kill(&p, 200);
    int64_t took = clk_mono_ms() - t0;
    assert_true(took >= 200);
    assert_true(took < 200 + 1500);
    assert_true(WIFSIGNALED(p.status));
    assert_int_equal(WTERMSIG(p.status), SIGKILL);
    assert_true(gone(p.pid));
    assert_int_equal(count_children(), 0);
}

static void test_kill_stopped_bot(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "stopped");
    ref_proc p;
    /* A stopped bot cannot act on SIGTERM until SIGCONT: kill sends
     * both, so it gets its clean exit within the grace. */
    spawn_ok(&p, "trap 'echo got-term; exit 5' TERM; echo ready; "
                 "kill -STOP $$; sleep 100",
             NULL, log, NULL);
    wait_for_line(&p, log, buf, sizeof buf);
    char st = 0;
    int ppid, sid;
    int64_t end = clk_mono_ms() + RUN_MS;
    while (proc_stat(p.pid, &st, &ppid, &sid) == 0 && st != 'T') {
        assert_true(clk_mono_ms() < end);
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    assert_int_equal(st, 'T');
    int64_t t0 = clk_mono_ms();
    ref_proc_kill(&p, 2000);
    assert_true(clk_mono_ms() - t0 < 2000);
    assert_true(WIFEXITED(p.status));
    assert_int_equal(WEXITSTATUS(p.status), 5);
    slurp(log, buf, sizeof buf);
    assert_string_equal(buf, "ready\ngot-term\n");
}

static void test_close_kills_running_bot(void **state)
{
    (void)state;
    ref_proc p;
    spawn_ok(&p, "sleep 100", NULL, NULL, NULL);
    assert_int_equal(ref_proc_exited(&p), 0);
    ref_proc_close(&p);
    assert_int_equal(p.live, 0);
    assert_true(gone(p.pid));
}

static void test_orphans_reaped(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "orphan");
    ref_proc p;
    spawn_ok(&p, "setsid sh -c 'exec sleep 100' & echo $!", NULL, log,
             NULL);
    wait_exited(&p);
    assert_int_equal(WEXITSTATUS(p.status), 0);
    wait_for_line(&p, log, buf, sizeof buf);
    pid_t escaped = (pid_t)atoi(buf);
    assert_true(escaped > 0);

    /* Wait until it has escaped: its own session, running sleep, and
     * (the leader having exited) our child through the subreaper. */
    int64_t end = clk_mono_ms() + RUN_MS;
    for (;;) {
        char st, comm[64] = "";
        int ppid = 0, sid = 0;
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/comm", (int)escaped);
        slurp(path, comm, sizeof comm);
        if (proc_stat(escaped, &st, &ppid, &sid) == 0 && sid == escaped &&
            ppid == getpid() && !strcmp(comm, "sleep\n"))
            break;
        assert_true(clk_mono_ms() < end);
        struct timespec ts = { 0, 2000000 };
        nanosleep(&ts, NULL);
    }

    ref_proc_kill(&p, 200);
    assert_true(gone(p.pid));
    assert_false(gone(escaped)); /* out of the group: the kill missed it */
    assert_int_equal(count_children(), 1);

    assert_int_equal(ref_proc_reap_orphans(100), 1);
    assert_true(gone(escaped));
    assert_int_equal(count_children(), 0);
    assert_int_equal(ref_proc_reap_orphans(100), 0);
}

static void test_orphans_with_grace_and_deep_tree(void **state)
{
    (void)state;
    char log[128], buf[256];
    log_path(log, sizeof log, "deep");
    ref_proc p;
    /* An escaped leader with a child and a grandchild, all ignoring
     * SIGTERM: the grace passes, then SIGKILL takes the group. */
    spawn_ok(&p,
             "setsid sh -c 'trap \"\" TERM; (sleep 100 & sleep 100) & "
             "echo go; wait' & wait",
             NULL, log, NULL);
    wait_for_line(&p, log, buf, sizeof buf);
    ref_proc_kill(&p, 100);
    assert_true(count_children() >= 1);
    int64_t t0 = clk_mono_ms();
    int killed = ref_proc_reap_orphans(150);
    assert_true(killed >= 1);
    assert_true(clk_mono_ms() - t0 >= 150);
    assert_true(clk_mono_ms() - t0 < 3000);
    assert_int_equal(count_children(), 0);
}

/* The listing walks our descendants, not the machine: a group member two
 * levels down whose parent lives (so it is not our child) is found, with
 * its parent; a listing of our children alone finds only the parent. */
static void test_list_finds_deep_member(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        setpgid(0, 0);
        pid_t grandchild = fork();
        if (grandchild == 0) {
            pause();
            _exit(0);
        }
        (void)!write(fds[1], &grandchild, sizeof grandchild);
        pause();
        _exit(0);
    }
    setpgid(child, child);
    pid_t grandchild = 0;
    assert_int_equal(read(fds[0], &grandchild, sizeof grandchild), (ssize_t)sizeof grandchild);
    close(fds[0]);
    close(fds[1]);

    ref_proc_entry e[8];
    int n = ref_proc_list(0, child, e, 8);
    assert_int_equal(n, 2);
    int seen = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(e[i].pgrp, child);
        if (e[i].pid == grandchild) {
            assert_int_equal(e[i].ppid, child);
            seen++;
        }
        seen += e[i].pid == child;
    }
    assert_int_equal(seen, 2);
    n = ref_proc_list(getpid(), 0, e, 8);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].pid, child);

    kill(-child, SIGKILL);
    assert_int_equal(waitpid(child, NULL, 0), child);
    ref_proc_reap_orphans(0);   /* the grandchild, reparented to us */
    assert_true(gone(grandchild));
}

static int group_setup(void **state)
{
    (void)state;
    if (ref_proc_init_supervisor() != 0)
        return -1;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_ref_proc-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    ref_proc_reap_orphans(0);
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char path[384];
            snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(tmpdir);
    return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_echo_both_streams),
        T(test_missing_command),
        T(test_exec_not_shell),
        T(test_crash_text),
        T(test_exit_text_cases),
        T(test_pidfd_readable_on_exit),
        T(test_missing_cwd),
        T(test_bad_arguments),
        T(test_empty_proc_is_noop),
        T(test_bounded_log),
        T(test_exact_cap_not_truncated),
        T(test_no_log_drops_all),
        T(test_log_write_failure_drops),
        T(test_limits_seen_by_child),
        T(test_cpu_limit_stops_a_spinner),
        T(test_env_extra),
        T(test_fds_and_signals_of_child),
        T(test_kill_group),
        T(test_kill_plain_background),
        T(test_kill_after_grace),
        T(test_kill_stopped_bot),
        T(test_close_kills_running_bot),
        T(test_orphans_reaped),
        T(test_orphans_with_grace_and_deep_tree),
        T(test_list_finds_deep_member),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

/*
 * ref_proc.c - a running bot: drain its output into a bounded log, notice
 * its exit, kill its process group, describe how it ended.
 *
 * Starting it is ref_proc_spawn.c; finding processes through /proc (group
 * members, orphans) is ref_proc_reap.c. See ref_proc.h for the contract.
 */
#define _GNU_SOURCE
#include "ref_proc_internal.h"
#include "ref_init.h"
#include "ref_sandbox.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    DRAIN_BUDGET = 1 << 20, /* bytes per ref_proc_drain call */
    DRAIN_CHUNK = 16384,
    KILL_REAP_MS = 2000     /* after SIGKILL: how long a process may take */
};

/* ---- watching ----------------------------------------------------------- */

int ref_proc_fds(const ref_proc *p, int fds[2])
{
    if (!fds)
        return 0;
    fds[0] = p && p->live ? p->out_fd : -1;
    fds[1] = p && p->live ? p->pidfd : -1;
    return (fds[0] >= 0) + (fds[1] >= 0);
}

static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void log_write(ref_proc *p, const char *buf, size_t len)
{
    if (p->log_fd < 0 || p->log_errno)
        return;
    p->log_errno = write_all(p->log_fd, buf, len);
}

/* Keeps what fits under the cap, counts the rest, marks the cut once. */
static void log_append(ref_proc *p, const char *buf, size_t len)
{
    size_t keep = len;
    if (p->log_fd < 0 || p->log_errno)
        keep = 0;
    else if (p->log_cap && p->logged + keep > p->log_cap)
        keep = (size_t)(p->log_cap - p->logged);
    if (keep) {
        log_write(p, buf, keep);
        if (!p->log_errno) {
            p->logged += keep;
            p->ends_in_nl = buf[keep - 1] == '\n';
        } else {
            keep = 0;
        }
    }
    p->dropped += len - keep;
    if (keep < len && !p->truncated && p->log_fd >= 0 && !p->log_errno) {
        p->truncated = 1;
        if (!p->ends_in_nl)
            log_write(p, "\n", 1);
        log_write(p, REF_PROC_TRUNCATED_LINE,
                  sizeof REF_PROC_TRUNCATED_LINE - 1);
    }
    assert(!p->log_cap || p->logged <= p->log_cap);
}

void ref_proc_drain(ref_proc *p)
{
    if (!p || !p->live || p->out_fd < 0)
        return;
    char buf[DRAIN_CHUNK];
    size_t budget = DRAIN_BUDGET;
    while (budget > 0) {
        ssize_t n = read(p->out_fd, buf, sizeof buf);
        if (n > 0) {
            log_append(p, buf, (size_t)n);
            budget -= (size_t)n < budget ? (size_t)n : budget;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        /* EOF, or an error after which nothing more will come. */
        ref_proc_close_fd(&p->out_fd);
        return;
    }
}

/* The bot's own status from the sandbox's init, when it sent one: bwrap's
 * would turn a death by signal N into exit status 128+N. */
static void read_init_status(ref_proc *p)
{
    ref_init_record r;
    while (p->report_fd >= 0 && read(p->report_fd, &r, sizeof r) == (ssize_t)sizeof r)
        if (r.kind == REF_INIT_EXITED)
            p->status = r.value;
}

/* A wait status from waitid's siginfo, as waitpid would have given it. */
static int status_of(const siginfo_t *si)
{
    switch (si->si_code) {
    case CLD_EXITED:
        return W_EXITCODE(si->si_status & 0xff, 0);
    case CLD_KILLED:
        return W_EXITCODE(0, si->si_status);
    case CLD_DUMPED:
        return W_EXITCODE(0, si->si_status) | WCOREFLAG;
    default:
        return REF_PROC_STATUS_UNKNOWN;
    }
}

int ref_proc_exited(ref_proc *p)
{
    if (!p)
        return 0;
    if (p->exited)
        return 1;
    if (!p->live)
        return 0;
    assert(p->pid > 0 && !p->reaped);
    /* WNOWAIT: see the exit but leave the zombie, which keeps the pid,
     * and so the process group id, from being reused before the group is
     * killed. */
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r;
    do
        r = waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT);
    while (r < 0 && errno == EINTR);
    if (r == 0 && si.si_pid == 0)
        return 0;
    if (r == 0) {
        p->status = status_of(&si);
        read_init_status(p);
    } else {
        /* ECHILD: something else reaped our leader (a SIGCHLD handler,
         * ref_proc_reap_orphans); its status is lost and its pid may be
         * reused, so the group must not be signalled any more. */
        p->status = REF_PROC_STATUS_UNKNOWN;
        p->reaped = 1;
    }
    p->exited = 1;
    ref_proc_close_fd(&p->pidfd); /* it stays readable: stop watching it */
    return 1;
}

/* ---- ending ------------------------------------------------------------- */

/* Waits until deadline_ms for the leader to exit; 1 when it has. */
static int wait_leader(ref_proc *p, int64_t deadline)
{
    int nap = 1;
    for (;;) {
        if (ref_proc_exited(p))
            return 1;
        int64_t left = deadline - clk_mono_ms();
        if (left <= 0)
            return 0;
        if (p->pidfd >= 0) {
            struct pollfd pf = { .fd = p->pidfd, .events = POLLIN };
            if (poll(&pf, 1, (int)left) >= 0 || errno == EINTR)
                continue;
        }
        clk_sleep_ms(nap < left ? nap : (int)left);
        if (nap < 16)
            nap *= 2;
    }
}

/* Polls the group until deadline_ms: with sig 0 until no member but the
 * leader is alive, with a signal (re-sent each pass) until none is left
 * at all, zombies included. */
static void wait_group(pid_t group, int64_t deadline_ms, int sig)
{
    int nap = 1;
    for (;;) {
        int live;
        int left = ref_proc_group_pass(group, sig, &live);
        if (left <= 0 || (!sig && live == 0))
            return; /* done, or no /proc: left to ref_proc_reap_orphans */
        int64_t ms = deadline_ms - clk_mono_ms();
        if (ms <= 0)
            return;
        clk_sleep_ms(nap < ms ? nap : (int)ms);
        if (nap < 16)
            nap *= 2;
    }
}

/* Live process groups, for ref_proc_kill_all. Plain words: a signal
 * handler reads them, and a stale entry only costs a kill() of a group
 * that is gone (group ids are not reused while our zombie leader holds
 * the id, and entries leave before the leader is reaped). */
#define REGISTRY 64
static volatile sig_atomic_t groups[REGISTRY];

void ref_proc_register_group(pid_t pgid)
{
    for (int i = 0; i < REGISTRY; i++)
        if (!groups[i]) {
            groups[i] = pgid;
            return;
        }
}

void ref_proc_unregister_group(pid_t pgid)
{
    for (int i = 0; i < REGISTRY; i++)
        if (groups[i] == pgid)
            groups[i] = 0;
}

void ref_proc_kill_all(void)
{
    for (int i = 0; i < REGISTRY; i++)
        if (groups[i] > 0)
            kill(-(pid_t)groups[i], SIGKILL);
}

void ref_proc_kill(ref_proc *p, int grace_ms)
{
    if (!p || !p->live)
        return;
    assert(p->pid > 0);
    if (grace_ms < 0)
        grace_ms = 0;
    if (!p->reaped) {
        /* The leader is not reaped (ref_proc_exited leaves the zombie),
         * so -pid is still our group and nobody else's. SIGCONT lets a
         * stopped bot act on the SIGTERM. */
        pid_t group = p->pid;
        if (p->sandboxed) {
            /* bwrap would die of SIGTERM at once and take the bot along
             * with SIGKILL: the init passes the request on instead. */
            ref_proc_close_fd(&p->stop_fd);
        } else {
            kill(-group, SIGTERM);
            kill(-group, SIGCONT);
        }
        /* The grace is for the whole group: a bot's real process may be a
         * child of the sh leader, and deserves its chance to clean up. */
        int64_t deadline = clk_mono_ms() + grace_ms;
        if (wait_leader(p, deadline))
            wait_group(group, deadline, 0);
        kill(-group, SIGKILL);
        ref_proc_unregister_group(group);
        deadline = clk_mono_ms() + KILL_REAP_MS;
        if (wait_leader(p, deadline)) {
            if (!p->reaped) {
                /* Then the members (reparented to us as the leader died)
                 * are reaped before the leader, whose zombie holds the
                 * group id. */
                wait_group(group, deadline, SIGKILL);
                while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                    ;
                p->reaped = 1;
            }
        } else {
            /* Stuck in the kernel: left for ref_proc_reap_orphans. */
            p->exited = 1;
            p->status = REF_PROC_STATUS_UNKNOWN;
        }
    }
    /* Whatever is left in its control group goes too (a process that left
     * the group with setsid), and then the group and the bot's uid. */
    ref_cg_usage_read(&p->cg, &p->last);
    ref_cg_destroy(&p->cg);
    ref_sandbox_uid_release(&p->uid_lock);
    /* Whatever the bot wrote before dying; an escaped process may still
     * hold the pipe open, so no waiting for EOF. */
    ref_proc_drain(p);
    ref_proc_close_fd(&p->out_fd);
    ref_proc_close_fd(&p->pidfd);
    ref_proc_close_fd(&p->log_fd);
    ref_proc_close_fd(&p->report_fd);
    ref_proc_close_fd(&p->stop_fd);
    p->live = 0;
}

void ref_proc_usage(const ref_proc *p, ref_cg_usage *u)
{
    if (p && p->live && p->cg.sys)
        ref_cg_usage_read(&p->cg, u);
    else if (p)
        *u = p->last;
    else
        memset(u, 0, sizeof *u);
}

void ref_proc_close(ref_proc *p)
{
    /* kill releases everything; on a bot already killed it is a no-op. */
    ref_proc_kill(p, 0);
}

const char *ref_proc_exit_text(int status, char *buf, size_t size)
{
    if (!buf || size == 0)
        return "";
    if (status == REF_PROC_STATUS_UNKNOWN) {
        snprintf(buf, size, "exit status unknown");
    } else if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        /* The shell's codes for a command it could not run. */
        snprintf(buf, size, "exited with status %d%s", code,
                 code == 127 ? " (command not found)"
                 : code == 126 ? " (command found but not executable)" : "");
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *name = strsignal(sig), *abbrev = sigabbrev_np(sig);
        snprintf(buf, size, "killed by signal %d (%s%s%s%s)%s", sig, abbrev ? "SIG" : "",
                 abbrev ? abbrev : "", abbrev ? ": " : "", name ? name : "unknown signal",
                 WCOREDUMP(status) ? ", core dumped" : "");
    } else {
        snprintf(buf, size, "unexpected wait status 0x%x", (unsigned)status);
    }
    return buf;
}

/*
 * ref_init.c - arena-bot-init, the first process of a sandboxed bot's PID
 * namespace (bubblewrap --as-pid-1 runs it there):
 *
 *   arena-bot-init REPORT_FD STOP_FD -- PROGRAM [ARGS...]
 *   arena-bot-init --probe            exits 0 (the referee's sandbox probe)
 *
 * It starts the bot (execvp, so PATH is the bot's own), reaps every orphan
 * of the namespace, and tells the referee on REPORT_FD, in fixed-size
 * records (ref_init.h): that the bot started or why it could not, and the
 * bot's exact wait status when it ends, which bubblewrap alone would blur
 * into exit status 128+N. Then it kills what is left and exits, and the
 * kernel ends the namespace with it. When STOP_FD reaches end of file (the
 * referee wants the bot gone, or is gone) it sends SIGTERM and SIGCONT to
 * every process of the namespace; the referee's SIGKILL follows.
 *
 * Only a process in the bot's own namespace can signal it, and those are
 * the bot's: nothing another seat does reaches it. The bot itself runs as
 * the same user, so this process makes itself not dumpable before it
 * starts the bot: the bot then cannot ptrace it, read its memory
 * (process_vm_readv, /proc/1/mem) or reach its files (/proc/1/fd), so
 * nothing the bot does can change what the referee is told about it.
 * The signals the bot may send it are the ones it relays to every process
 * of the namespace (the bot's own), and SIGCHLD, which only makes it look.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ref_init.h"

static int report_fd = -1;

static void report(char kind, int value)
{
    ref_init_record r = { kind, value };
    ssize_t n;
    do
        n = write(report_fd, &r, sizeof r);
    while (n < 0 && errno == EINTR);
}

static void cloexec_from(int lowfd)
{
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
    if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return;
#endif
    for (int fd = lowfd; fd < 1024; fd++)
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Starts the bot; returns its pid after a successful exec, or exits. */
static pid_t start(char **argv, const sigset_t *blocked)
{
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0) {
        report(REF_INIT_FAILED, errno);
        _exit(127);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(ep[0]);
        sigprocmask(SIG_UNBLOCK, blocked, NULL);
        cloexec_from(3);
        execvp(argv[0], argv);
        int e = errno;
        (void)!write(ep[1], &e, sizeof e);
        _exit(127);
    }
    close(ep[1]);
    int e = 0;
    ssize_t n;
    do
        n = read(ep[0], &e, sizeof e);
    while (n < 0 && errno == EINTR);
    close(ep[0]);
    if (pid < 0 || n > 0) {
        report(REF_INIT_FAILED, pid < 0 ? errno : e);
        _exit(127);
    }
    report(REF_INIT_STARTED, 0);
    return pid;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--probe"))
        return 0;
    if (argc < 5 || strcmp(argv[3], "--"))
        return 126;
    report_fd = atoi(argv[1]);
    int stop_fd = atoi(argv[2]);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        report(REF_INIT_FAILED, errno);       /* never start a bot it could trace */
        return 127;
    }
    (void)fcntl(report_fd, F_SETFD, FD_CLOEXEC);
    (void)fcntl(stop_fd, F_SETFD, FD_CLOEXEC);

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sfd = signalfd(-1, &set, SFD_CLOEXEC);
    pid_t bot = start(argv + 4, &set);

    struct pollfd pf[2] = { { sfd, POLLIN, 0 }, { stop_fd, POLLIN, 0 } };
    for (;;) {
        if (poll(pf, 2, -1) < 0 && errno != EINTR)
            break;
        if (pf[1].revents) {
            /* The referee is done with the bot (or gone): ask everyone to
             * leave; SIGKILL follows from outside. */
            kill(-1, SIGTERM);
            kill(-1, SIGCONT);
            pf[1].fd = -1;
        }
        if (!(pf[0].revents & POLLIN))
            continue;
        struct signalfd_siginfo si;
        if (read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
            continue;
        if (si.ssi_signo != SIGCHLD) {
            kill(-1, (int)si.ssi_signo);
            continue;
        }
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
            if (pid == bot) {
                report(REF_INIT_EXITED, status);
                kill(-1, SIGKILL);
                return 0;
            }
    }
    kill(-1, SIGKILL);
    return 0;
}

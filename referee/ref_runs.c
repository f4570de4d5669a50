/*
 * ref_runs.c - a worker's matches in flight, each in a process of its own
 * (ref_runs.h).
 *
 * The match process never touches the worker's ZeroMQ socket (a socket is
 * not to be used across fork): it only writes its packed result to its
 * pipe and leaves with _exit. It dies with the worker (PR_SET_PDEATHSIG),
 * and on SIGTERM kills its bots first (referee.c's handler, inherited).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clk.h"
#include "ref_link.h"
#include "ref_runs.h"

/* The match process: plays, writes its message whole, leaves. */
static void play_here(int fd, int live_fd, pid_t parent, const msgpack_object *m,
                      ref_runs_play_fn *play, void *ctx)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM, 0L, 0L, 0L);
    if (getppid() != parent)
        _exit(1);                 /* the worker died before we could follow it */
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    play(m, &sb, live_fd, ctx);
    for (size_t at = 0; at < sb.size;) {
        ssize_t n = write(fd, sb.data + at, sb.size - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(1);
        at += (size_t)n;
    }
    _exit(0);
}

int ref_runs_start(ref_runs *r, int64_t id, const msgpack_object *m, ref_runs_play_fn *play,
                   void *ctx, char *err, size_t size)
{
    if (r->n == REF_RUNS_MAX) {
        snprintf(err, size, "this worker plays %d matches at once already", REF_RUNS_MAX);
        return -1;
    }
    int fds[2], live[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, size, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    /* Packets keep each message whole: a full queue refuses one at once
     * rather than taking half of it. */
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, live) < 0) {
        snprintf(err, size, "cannot make a socket pair: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    int buf = 1 << 20;            /* a long match's record so far */
    setsockopt(live[1], SOL_SOCKET, SO_SNDBUF, &buf, sizeof buf);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        snprintf(err, size, "cannot start a match process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        close(live[0]);
        close(live[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        close(live[0]);
        for (int k = 0; k < r->n; k++) {
            close(r->run[k].fd);
            close(r->run[k].live_fd);
        }
        play_here(fds[1], live[1], parent, m, play, ctx);
    }
    close(fds[1]);
    close(live[1]);
    r->run[r->n++] = (ref_run){ .pid = pid, .fd = fds[0], .live_fd = live[0], .id = id };
    return 0;
}

void ref_runs_items(const ref_runs *r, zmq_pollitem_t *items)
{
    for (int k = 0; k < r->n; k++) {
        items[k] = (zmq_pollitem_t){ NULL, r->run[k].fd, ZMQ_POLLIN, 0 };
        items[r->n + k] = (zmq_pollitem_t){ NULL, r->run[k].live_fd, ZMQ_POLLIN, 0 };
    }
}

void ref_runs_tell(int live_fd, const void *msg, size_t len)
{
    if (live_fd >= 0)
        (void)send(live_fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
}

void ref_runs_relay(ref_runs *r, int k, void *sock)
{
    static char packet[1 << 20];  /* the worker's one thread; SO_SNDBUF bounds a packet */
    ssize_t n;
    while ((n = recv(r->run[k].live_fd, packet, sizeof packet, MSG_DONTWAIT | MSG_TRUNC)) > 0)
        if ((size_t)n <= sizeof packet)   /* a cut one is not sent on */
            zmq_send(sock, packet, (size_t)n, ZMQ_DONTWAIT);
}

/* The answer for a run that ended without its message. */
static void failed(const ref_run *run, int status, char **msg, size_t *len)
{
    char why[160];
    snprintf(why, sizeof why, "the worker's match process ended (%s %d) without a result",
             WIFSIGNALED(status) ? "signal" : "exit status",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    int64_t now = clk_wall_ms();
    ref_link_result res = { .id = run->id, .error = why, .started_ms = now, .finished_ms = now };
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    ref_link_result_pack(&sb, &res);
    *msg = sb.data;
    *len = sb.size;
}

int ref_runs_reap(ref_runs *r, int k, char **msg, size_t *len)
{
    ref_run *run = &r->run[k];
    if (run->cap - run->len < 65536) {
        size_t cap = run->cap ? 2 * run->cap : 65536;
        char *buf = realloc(run->buf, cap);
        if (buf) {
            run->buf = buf;
            run->cap = cap;
        }
    }
    ssize_t n = run->cap > run->len ? read(run->fd, run->buf + run->len, run->cap - run->len)
                                    : (errno = ENOMEM, -1);
    if (n > 0)
        run->len += (size_t)n;
    if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN)))
        return 0;
    /* The end of its pipe (or no memory to read it): the process is
     * leaving, or is made to. */
    if (n < 0)
        kill(run->pid, SIGKILL);
    close(run->fd);
    close(run->live_fd);
    int status = 0;
    while (waitpid(run->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM) {
        /* Its referee died (an abort a bot provoked): so does this worker,
         * as when it played in-process, its other matches with it. */
        int sig = WTERMSIG(status);
        free(run->buf);
        r->run[k] = r->run[--r->n];
        ref_runs_stop(r);
        signal(sig, SIG_DFL);
        raise(sig);
        _exit(128 + sig);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && run->len) {
        *msg = run->buf;
        *len = run->len;
    } else {
        free(run->buf);
        failed(run, status, msg, len);
    }
    for (int i = k; i + 1 < r->n; i++)
        r->run[i] = r->run[i + 1];
    r->n--;
    return 1;
}

int ref_runs_stop(ref_runs *r)
{
    int n = r->n;
    for (int k = 0; k < r->n; k++)
        kill(r->run[k].pid, SIGTERM);
    for (int k = 0; k < r->n; k++) {
        close(r->run[k].fd);
        close(r->run[k].live_fd);
        while (waitpid(r->run[k].pid, NULL, 0) < 0 && errno == EINTR)
            ;
        free(r->run[k].buf);
    }
    r->n = 0;
    return n;
}

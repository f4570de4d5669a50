/*
 * hostile.c - a bot that tries, on purpose, each harm a bot author could
 * do to others (issue 11), reports on stdout how far it got, then plays
 * random legal actions, so that a test can check both that the harm
 * failed and that the match went on.
 *
 *   hostile MODE [ARGS...] [--marker=TEXT]
 *
 * The marker only names the process for the test (outlive's grandchild
 * carries it too, "--marker=outlive" without one).
 *   snoop           reads every visible process's environment for another
 *                   seat's ARENA_TOKEN; stops (SIGSTOP) and kills
 *                   (SIGKILL) the processes whose environment holds
 *                   ARENA_VICTIM=1: another seat's or another match's bots
 *   frame           connects to every referee socket it can find
 *                   (each seat folder of every /tmp/arena-XXXXXX) and sends
 *                   a hello
 *   write           opens each path of $HOSTILE_PATHS (colon-separated) for
 *                   writing (another seat's log, the arena's database, the
 *                   folder above its own, /tmp); not on the command line,
 *                   whose program's folder the sandbox shows
 *   read            opens each path of $HOSTILE_PATHS for reading and says
 *                   how many bytes it could read (up to 4096)
 *   net PORT        connects to 127.0.0.1:PORT
 *   env NAME        reports whether variable NAME reached it
 *   outlive         leaves a grandchild in a session of its own, sleeping
 *   ptrace          attaches to pid 1 of its namespace (its sandbox's init,
 *                   which tells the referee how the bot ended) with
 *                   ptrace, reads its memory (process_vm_readv,
 *                   /proc/1/mem) and its open files (/proc/1/fd)
 *   layers MB       reports each layer of its sandbox as it sees it, to be
 *                   compared with the host's: its namespaces
 *                   (/proc/self/ns), the processes it sees in /proc,
 *                   whether it may make a user namespace of its own, the
 *                   size of its /tmp and whether MB MiB (and a page) fit
 *                   there (fallocate: refused at once when they do not,
 *                   nothing written), and what it sees of the folders
 *                   hidden from a bot that keeps the referee's user
 *   forkbomb        forks until it cannot, and never answers
 *   memhog MB N     N children each touch MB MiB, and it never answers
 *   slow MS         harms nothing: plays, MS milliseconds a decision
 *
 * Every report line starts with "hostile:". The tests set ARENA_VICTIM=1
 * in the environment of the bots that must not be harmed, and of nothing
 * else, so this bot can be run without a sandbox too and harm only them.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>
#include "bot.h"

static ssize_t slurp(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    return n;
}

static void snoop(void)
{
    const char *mine = getenv("ARENA_TOKEN");
    int tokens = 0, seen = 0, victims = 0, signalled = 0;
    DIR *d = opendir("/proc");
    struct dirent *de;
    static char buf[1 << 16];
    while (d && (de = readdir(d)) != NULL) {
        int pid = atoi(de->d_name);
        if (pid <= 0 || pid == getpid())
            continue;
        seen++;
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        ssize_t n = slurp(path, buf, sizeof buf);
        for (ssize_t k = 0; k < n; k += (ssize_t)strlen(buf + k) + 1)
            if (!strncmp(buf + k, "ARENA_TOKEN=", 12) && (!mine || strcmp(buf + k + 12, mine)))
                tokens++;
        int victim = 0;
        for (ssize_t k = 0; k < n; k += (ssize_t)strlen(buf + k) + 1)
            victim |= !strcmp(buf + k, "ARENA_VICTIM=1");
        if (victim) {
            victims++;
            signalled += kill(pid, SIGSTOP) == 0;
            signalled += kill(pid, SIGKILL) == 0;
        }
    }
    if (d)
        closedir(d);
    printf("hostile: snoop: %d processes seen, %d other tokens read, %d victims seen, "
           "%d signals delivered\n", seen, tokens, victims, signalled);
}

static void frame(void)
{
    glob_t g;
    int sent = 0, found = 0;
    if (glob("/tmp/arena-*/seat*/referee", 0, NULL, &g) == 0) {
        void *ctx = zmq_ctx_new();
        for (size_t i = 0; i < g.gl_pathc; i++) {
            char ep[600];
            snprintf(ep, sizeof ep, "ipc://%s", g.gl_pathv[i]);
            const char *mine = getenv("ARENA_ENDPOINT");
            if (!strcmp(ep, mine ? mine : ""))
                continue;
            found++;
            void *s = zmq_socket(ctx, ZMQ_DEALER);
            int linger = 200;
            zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
            /* A hello with a wrong token: once enough to forfeit a seat. */
            static const char hello[] = "\x83\xa4type\xa5hello\xa8protocol\x01\xa5token\xa1x";
            if (zmq_connect(s, ep) == 0 && zmq_send(s, hello, sizeof hello - 1, 0) >= 0)
                sent++;
            zmq_close(s);
        }
        zmq_ctx_term(ctx);
        globfree(&g);
    }
    printf("hostile: frame: %d other seats' sockets found, %d messages sent\n", found, sent);
}

static void files(int flags, const char *what)
{
    char list[4096], *paths[16], *save = NULL;
    int n = 0;
    snprintf(list, sizeof list, "%s", getenv("HOSTILE_PATHS") ? getenv("HOSTILE_PATHS") : "");
    for (char *t = strtok_r(list, ":", &save); t && n < 16; t = strtok_r(NULL, ":", &save))
        paths[n++] = t;
    for (int i = 0; i < n; i++) {
        int fd = open(paths[i], flags | O_CLOEXEC, 0644);
        if (fd >= 0 && (flags & O_ACCMODE) != O_RDONLY && write(fd, "pwned\n", 6) != 6)
            fd = -1;
        char done[48] = "DONE";
        if (fd >= 0 && (flags & O_ACCMODE) == O_RDONLY) {
            char buf[4096];
            snprintf(done, sizeof done, "DONE, %zd bytes", read(fd, buf, sizeof buf));
        }
        printf("hostile: %s %s: %s\n", what, paths[i], fd >= 0 ? done : strerror(errno));
        if (fd >= 0)
            close(fd);
    }
}

static void net(int port)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = s >= 0 ? connect(s, (struct sockaddr *)&a, sizeof a) : -1;
    printf("hostile: net 127.0.0.1:%d: %s\n", port, rc == 0 ? "DONE" : strerror(errno));
    if (s >= 0)
        close(s);
}

/* Everything a process of the same user could do to pid 1 (only ever
 * run inside the sandbox, where pid 1 is the bot's own init). */
static void trace_init(void)
{
    char attach[64], readv[64], mem[64], fds[64];
    if (ptrace(PTRACE_ATTACH, 1, NULL, NULL) == 0) {
        snprintf(attach, sizeof attach, "DONE");
        waitpid(1, NULL, __WALL);
        ptrace(PTRACE_DETACH, 1, NULL, NULL);
    } else {
        snprintf(attach, sizeof attach, "%s", strerror(errno));
    }
    /* An address surely mapped in pid 1: its stack's top is unknown, but
     * any failure other than EPERM (EFAULT) still means it was allowed. */
    static char local[64];
    struct iovec here = { local, sizeof local }, there = { (void *)0x400000, sizeof local };
    ssize_t n = process_vm_readv(1, &here, 1, &there, 1, 0);
    snprintf(readv, sizeof readv, "%s",
             n >= 0 || errno == EFAULT ? "DONE" : strerror(errno));
    int fd = open("/proc/1/mem", O_RDONLY | O_CLOEXEC);
    snprintf(mem, sizeof mem, "%s", fd >= 0 ? "DONE" : strerror(errno));
    if (fd >= 0)
        close(fd);
    DIR *d = opendir("/proc/1/fd");
    snprintf(fds, sizeof fds, "%s", d ? "DONE" : strerror(errno));
    if (d)
        closedir(d);
    printf("hostile: ptrace 1: attach %s; process_vm_readv %s; /proc/1/mem %s; /proc/1/fd %s\n",
           attach, readv, mem, fds);
}

static void namespaces(void)
{
    static const char *const kinds[] = { "pid", "ipc", "user", "net", "uts", "mnt", NULL };
    char line[512] = "", path[64], id[64];
    for (int i = 0; kinds[i]; i++) {
        snprintf(path, sizeof path, "/proc/self/ns/%s", kinds[i]);
        ssize_t n = readlink(path, id, sizeof id - 1);
        id[n > 0 ? n : 0] = 0;
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, " %s", n > 0 ? id : kinds[i]);
    }
    printf("hostile: ns:%s\n", line);
}

/* Every process in its /proc, as pid:name (the first 16). */
static void processes(void)
{
    char line[1024] = "", path[64], comm[64];
    int seen = 0;
    DIR *d = opendir("/proc");
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        int pid = atoi(de->d_name);
        if (pid <= 0 || seen++ >= 16)
            continue;
        snprintf(path, sizeof path, "/proc/%d/comm", pid);
        if (slurp(path, comm, sizeof comm) <= 0)
            snprintf(comm, sizeof comm, "?");
        comm[strcspn(comm, "\n")] = 0;
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, " %d:%s", pid, comm);
    }
    if (d)
        closedir(d);
    printf("hostile: procs %d:%s\n", seen, line);
}

/* In a child: the bot's own process stays as it is. */
static void user_namespace(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        int rc = unshare(CLONE_NEWUSER);
        printf("hostile: unshare user: %s\n", rc == 0 ? "DONE" : strerror(errno));
        fflush(stdout);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
}

static void scratch(long mb)
{
    struct statfs fs;
    if (statfs("/tmp", &fs) != 0) {
        printf("hostile: tmp: %s\n", strerror(errno));
        return;
    }
    unsigned long long size = (unsigned long long)fs.f_blocks * (unsigned long long)fs.f_bsize;
    char fit[64] = "not tried";
    if (mb > 0) {
        int fd = open("/tmp/hostile-fill", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int rc = fd >= 0 ? posix_fallocate(fd, 0, (off_t)(mb << 20) + 4096) : errno;
        snprintf(fit, sizeof fit, "%s", rc == 0 ? "DONE" : strerror(rc));
        if (fd >= 0)
            close(fd);
        unlink("/tmp/hostile-fill");
    }
    printf("hostile: tmp %llu bytes; %ld MiB and a page: %s\n", size, mb, fit);
}

static void secret_dirs(void)
{
    static const char *const dirs[] = { "/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d",
                                        NULL };
    for (int i = 0; dirs[i]; i++) {
        struct statfs fs;
        DIR *d = opendir(dirs[i]);
        if (!d || statfs(dirs[i], &fs) != 0) {
            printf("hostile: secret %s: %s\n", dirs[i], strerror(errno));
            if (d)
                closedir(d);
            continue;
        }
        int entries = 0;
        struct dirent *de;
        while ((de = readdir(d)) != NULL)
            entries += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
        closedir(d);
        printf("hostile: secret %s: %d entries, filesystem 0x%lx\n", dirs[i], entries,
               (unsigned long)fs.f_type);
    }
}

static void layers(long mb)
{
    namespaces();
    processes();
    user_namespace();
    scratch(mb);
    secret_dirs();
}

/* The grandchild carries `marker` (this bot's own --marker=...), so that
 * the test finds it, and only its own run's. */
static void outlive(const char *marker)
{
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            execlp("sleep", "sleep", "300", marker, (char *)NULL);
            _exit(1);
        }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    printf("hostile: outlive: left a grandchild\n");
}

static void forkbomb(void)
{
    int made = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0) {
            pause();
            _exit(0);
        }
        if (pid > 0)
            made++;
        else if (made % 64 == 0)
            printf("hostile: forkbomb: fork failed after %d: %s\n", made, strerror(errno));
        fflush(stdout);
    }
}

static void memhog(long mb, int n)
{
    for (int i = 0; i < n; i++)
        if (fork() == 0) {
            size_t size = (size_t)mb << 20;
            char *p = malloc(size);
            for (size_t k = 0; p && k < size; k += 4096)
                p[k] = 1;
            pause();
            _exit(0);
        }
    printf("hostile: memhog: %d children of %ld MiB\n", n, mb);
    fflush(stdout);
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    char *args[16];
    const char *marker = "--marker=outlive";
    int nargs = 0;
    for (int i = 1; i < argc && nargs < 16; i++)
        if (strncmp(argv[i], "--marker=", 9))
            args[nargs++] = argv[i];
        else
            marker = argv[i];
    if (nargs < 1) {
        fprintf(stderr, "usage: hostile MODE [ARGS...]\n");
        return 2;
    }
    alarm(60);
    const char *mode = args[0];
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(mode, "snoop"))
        snoop();
    else if (!strcmp(mode, "frame"))
        frame();
    else if (!strcmp(mode, "write"))
        files(O_WRONLY | O_CREAT | O_APPEND, "write");
    else if (!strcmp(mode, "read"))
        files(O_RDONLY, "read");
    else if (!strcmp(mode, "net") && nargs > 1)
        net(atoi(args[1]));
    else if (!strcmp(mode, "env") && nargs > 1)
        printf("hostile: env %s: %s\n", args[1], getenv(args[1]) ? "DONE" : "absent");
    else if (!strcmp(mode, "outlive"))
        outlive(marker);
    else if (!strcmp(mode, "ptrace"))
        trace_init();
    else if (!strcmp(mode, "layers"))
        layers(nargs > 1 ? atol(args[1]) : 0);

    bot_conn *bot = bot_connect("hostile", mode);
    if (!bot)
        return 1;
    static bot_request req;
    unsigned seed = (unsigned)getpid();
    int first = 1;
    while (bot_next(bot, &req) > 0) {
        if (first && !strcmp(mode, "forkbomb"))
            forkbomb();
        if (first && !strcmp(mode, "memhog") && nargs > 2)
            memhog(atol(args[1]), atoi(args[2]));
        if (first && !strcmp(mode, "snoop"))
            snoop();      /* again, now that every bot is running */
        first = 0;
        if (!strcmp(mode, "slow") && nargs > 1) {
            struct timespec t = { 0, atol(args[1]) * 1000000L };
            nanosleep(&t, NULL);
        }
        bot_answer(bot, &req, (int)(rand_r(&seed) % (unsigned)req.nactions));
    }
    return bot_close(bot);
}

/*
 * arena_bench_remote.c - `arena bench --remote`: what a network between the
 * arena and its workers costs. The same tournament (random against random,
 * the same seeds) is played by 1, 2 and 4 real `referee worker` processes
 * over TCP, once with each worker in a network namespace of its own joined
 * to the arena's by a veth pair (as on other hosts: its own address, its
 * own stack), once with the same workers on the arena's loopback, in turn,
 * three rounds; it prints the medians of matches per minute for both and
 * of their ratio, round by round (so that the machine's drift hits both). Root only (it
 * makes namespaces with `ip netns`): without root it says so and skips.
 * The namespaces (and their veth pairs with them) are removed at the end.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena_bench.h"
#include "arena_tourney.h"
#include "cli.h"
#include "clk.h"

#define MAX_NS 4

typedef struct netns {
    char name[32], host_addr[32];   /* the namespace, and the arena's address on its link */
    char host[16];                  /* the arena's end of the veth pair */
} netns;

/* Runs argv to its end: 0 when it exited 0. */
static int run_cmd(char *const argv[])
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", 1);
        if (null >= 0)
            dup2(null, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                   WEXITSTATUS(status) == 0 ? 0 : -1;
}

#define IP(...) run_cmd((char *[]){ "ip", __VA_ARGS__, NULL })

/* Namespace i (0-based) with its veth pair: 10.233.T.(4i+1) on the
 * arena's side, .(4i+2) in the namespace. 0, or -1. */
static int make_ns(netns *ns, int i, int tag)
{
    char peer[16], a[32], w[32], *host = ns->host;
    snprintf(ns->name, sizeof ns->name, "arbench%dw%d", tag, i);
    snprintf(host, sizeof ns->host, "vbh%dx%d", tag % 100000, i);
    snprintf(peer, sizeof peer, "vbw%dx%d", tag % 100000, i);
    snprintf(ns->host_addr, sizeof ns->host_addr, "10.233.%d.%d", tag % 250, 4 * i + 1);
    snprintf(a, sizeof a, "%s/30", ns->host_addr);
    snprintf(w, sizeof w, "10.233.%d.%d/30", tag % 250, 4 * i + 2);
    if (IP("netns", "add", ns->name) < 0)
        return -1;
    return IP("-n", ns->name, "link", "set", "lo", "up") < 0 ||
                   IP("link", "add", host, "type", "veth", "peer", "name", peer) < 0 ||
                   IP("link", "set", peer, "netns", ns->name) < 0 ||
                   IP("addr", "add", a, "dev", host) < 0 ||
                   IP("-n", ns->name, "addr", "add", w, "dev", peer) < 0 ||
                   IP("link", "set", host, "up") < 0 ||
                   IP("-n", ns->name, "link", "set", peer, "up") < 0
               ? -1
               : 0;
}

/* Deletes namespace ns and its veth pair: 0, or -1 if it is still there.
 * `ip netns del` fails while a process that was started in it is still
 * going (the mount of its name is busy), so it is tried again for up to
 * five seconds. */
static int drop_ns(netns *ns)
{
    char path[sizeof ns->name + 16];
    snprintf(path, sizeof path, "/run/netns/%.*s", (int)sizeof ns->name - 1, ns->name);
    for (int tries = 0; tries < 50; tries++) {
        IP("netns", "del", ns->name);   /* its end of the pair goes with it */
        if (access(path, F_OK) != 0)
            break;
        usleep(100 * 1000);
    }
    IP("link", "del", ns->host);        /* in case it never got there */
    return access(path, F_OK) == 0 ? -1 : 0;
}

/* A TCP port free now (bound to 0 and let go: the arena binds it next). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof a;
    int port = fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
                       getsockname(fd, (struct sockaddr *)&a, &len) == 0
                   ? ntohs(a.sin_port)
                   : -1;
    if (fd >= 0)
        close(fd);
    return port;
}

/* A `referee worker` joining tcp://ADDR:PORT, in namespace ns (NULL: here). */
static pid_t start_worker(const char *referee, const netns *ns, const char *addr, int port)
{
    char endpoint[64];
    snprintf(endpoint, sizeof endpoint, "tcp://%s:%d", addr, port);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", 1);
        if (null >= 0)
            dup2(null, 2);
        if (ns)
            execlp("ip", "ip", "netns", "exec", ns->name, referee, "worker", "--connect",
                   endpoint, "--sandbox", "none", (char *)NULL);
        else
            execl(referee, referee, "worker", "--connect", endpoint, "--sandbox", "none",
                  (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Matches per minute of the tournament played by n workers, in the
 * namespaces or (ns NULL) here; < 0 on error. */
static double run_once(const char *dir, int n, const netns *ns, int games, const char *referee,
                       const char *bot)
{
    char path[256], listen[64], err[512];
    snprintf(path, sizeof path, "%s/remote-%d-%s.db", dir, n, ns ? "ns" : "local");
    int port = free_port();
    arena_db *db;
    arena_spec spec;
    if (port < 0 || arena_bench_db(path, bot, games, &db, &spec) < 0)
        return -1;
    snprintf(listen, sizeof listen, "tcp://0.0.0.0:%d", port);
    arena_run run = { .concurrency = 0, .referee = referee, .quiet = 1, .keep_logs = -1 };
    run.remote.listen = listen;
    pid_t pids[MAX_NS];
    for (int i = 0; i < n; i++)
        pids[i] = start_worker(referee, ns ? &ns[i] : NULL, ns ? ns[i].host_addr : "127.0.0.1",
                               port);
    int64_t tid;
    double t0 = clk_mono_s();
    int rc = arena_tourney_run(db, &spec, &run, &tid, err, sizeof err);
    double t = clk_mono_s() - t0;
    /* Every worker is stopped, not waited for: one that joined after the
     * last match was handed out never hears the arena go and would retry
     * its connection forever. */
    for (int i = 0; i < n; i++)
        if (pids[i] > 0)
            kill(pids[i], SIGTERM);
    for (int i = 0; i < n; i++)
        if (pids[i] > 0)
            waitpid(pids[i], NULL, 0);
    arena_db_close(db);
    arena_db_unlink(path);
    if (rc < 0) {
        fprintf(stderr, "arena: bench --remote: %s\n", err);
        return -1;
    }
    return games / (t / 60);
}

#define ROUNDS 3

static int bench(const char *dir, const netns *ns, int games, const char *referee,
                 const char *bot)
{
    static const int counts[] = { 1, 2, 4 };
    printf("remote bench: %d random-vs-random matches a run, real referee workers over TCP, in "
           "namespaces (veth) and on loopback in turn, %d rounds: medians, the ratio's range\n",
           games, ROUNDS);
    printf("%-8s %12s %12s %8s %16s\n", "workers", "local m/min", "netns m/min", "ratio",
           "ratio range");
    for (int k = 0; k < 3; k++) {
        double local[ROUNDS], far[ROUNDS], ratio[ROUNDS], lo, hi;
        for (int r = 0; r < ROUNDS; r++) {
            local[r] = run_once(dir, counts[k], NULL, games, referee, bot);
            far[r] = local[r] < 0 ? -1 : run_once(dir, counts[k], ns, games, referee, bot);
            if (far[r] < 0)
                return -1;
            ratio[r] = far[r] / local[r];
        }
        double mr = arena_bench_median(ratio, ROUNDS, &lo, &hi);
        printf("%-8d %12.0f %12.0f %8.2f %7.2f to %5.2f\n", counts[k],
               arena_bench_median(local, ROUNDS, NULL, NULL),
               arena_bench_median(far, ROUNDS, NULL, NULL), mr, lo, hi);
        fflush(stdout);
    }
    return 0;
}

int arena_bench_remote_main(int argc, char **argv, const char *referee, const char *bot)
{
    int games = 48;
    char err[256];
    const cli_flag flags[] = {
        CLI_NUM("--games", CLI_INT, "N", "matches a run, even (default 48)", &games, 2, 100000),
        CLI_END,
    };
    int got = cli_parse(flags, argc, argv, NULL, NULL, 0, err, sizeof err);
    if (got == 1) {
        printf("usage: arena bench --remote [--games N]   matches a minute with 1, 2 and 4 "
               "workers in network namespaces against the same workers local\n");
        cli_help(stdout, flags);
        return 0;
    }
    if (got < 0 || games % 2) {
        fprintf(stderr, "arena: bench --remote: %s\n",
                got < 0 ? err : "--games must be even (seed pairs)");
        return 2;
    }
    if (geteuid() != 0) {
        printf("arena: bench --remote: skipped: network namespaces need root\n");
        return 0;
    }
    int tag = (int)getpid();
    netns ns[MAX_NS];
    int made = 0, rc = 0;
    while (made < MAX_NS && make_ns(&ns[made], made, tag) == 0)
        made++;
    if (made < MAX_NS) {
        printf("arena: bench --remote: skipped: cannot make network namespaces here "
               "(ip netns add, veth)\n");
        made++;                   /* the one half made goes too */
    } else {
        char dir[] = "/tmp/arena-remote-XXXXXX";
        rc = mkdtemp(dir) ? bench(dir, ns, games, referee, bot) : -1;
        rmdir(dir);
    }
    for (int i = 0; i < made; i++)
        if (drop_ns(&ns[i]) < 0) {
            fprintf(stderr, "arena: bench --remote: could not delete network namespace %s\n",
                    ns[i].name);
            rc = -1;
        }
    return rc < 0 ? 1 : 0;
}

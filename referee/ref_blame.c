/*
 * ref_blame.c - a local worker's last words on abort (see ref_blame.h).
 *
 * The handler runs when the file table is full: it frees the fds reserved
 * at arming, and uses only async-signal-safe calls and static buffers
 * (getdents64, readlinkat, read, write), never malloc or stdio.
 */
#define _GNU_SOURCE
#include "ref_blame.h"

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SPARE_FDS 4
#define MAX_FOLDERS 4
#define MAX_SEATS 8

static char blame_dir[200];
static volatile int64_t job_now = -1;
/* The worker's pid, which the arena reaps: its match processes (forked,
 * ref_runs.h) write their last words under it. */
static pid_t blame_pid;
static int spare[SPARE_FDS] = { -1, -1, -1, -1 };
static char folders[MAX_FOLDERS][256];   /* held `.lock`s' folders: the match's is one */
static int nfolders;
static int connections[MAX_SEATS];
static char chunk[65536];

struct linux_dirent64 {
    uint64_t       d_ino;
    int64_t        d_off;
    unsigned short d_reclen;
    unsigned char  d_type;
    char           d_name[];
};

/* Each open `.../arena-XXXXXX/.lock` of this process: its folder. */
static void find_folders(void)
{
    int d = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0)
        return;
    static char ents[8192], link[256];
    long n;
    while ((n = syscall(SYS_getdents64, d, ents, sizeof ents)) > 0)
        for (long off = 0; off < n;) {
            struct linux_dirent64 *e = (struct linux_dirent64 *)(ents + off);
            off += e->d_reclen;
            ssize_t len = readlinkat(d, e->d_name, link, sizeof link - 1);
            if (len <= 6 || nfolders == MAX_FOLDERS)
                continue;
            link[len] = 0;
            if (strcmp(link + len - 6, "/.lock") != 0)
                continue;
            link[len - 6] = 0;
            const char *base = strrchr(link, '/');
            if (base && !strncmp(base + 1, "arena-", 6))
                memcpy(folders[nfolders++], link, (size_t)len - 5);
        }
    close(d);
}

/* One /proc/net/unix line: its path, when a seat's socket of our folders,
 * counts for that seat. */
static void count_line(const char *line, size_t len)
{
    const char *path = memchr(line, '/', len);
    if (!path)
        return;
    size_t plen = len - (size_t)(path - line);
    for (int f = 0; f < nfolders; f++) {
        size_t flen = strlen(folders[f]);
        if (plen < flen + 7 || memcmp(path, folders[f], flen) || memcmp(path + flen, "/seat", 5))
            continue;
        int seat = path[flen + 5] - '0';
        if (seat >= 0 && seat < MAX_SEATS && path[flen + 6] == '/')
            connections[seat]++;
    }
}

static void count_connections(void)
{
    int fd = open("/proc/net/unix", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    size_t have = 0;
    ssize_t got;
    while ((got = read(fd, chunk + have, sizeof chunk - have)) > 0) {
        have += (size_t)got;
        size_t start = 0;
        for (size_t i = 0; i < have; i++)
            if (chunk[i] == '\n') {
                count_line(chunk + start, i - start);
                start = i + 1;
            }
        memmove(chunk, chunk + start, have - start);
        have -= start;
        if (have == sizeof chunk)
            have = 0;                 /* a line longer than the buffer: not ours */
    }
    close(fd);
}

/* Appends v in decimal to buf at *at. */
static void put_num(char *buf, size_t size, size_t *at, int64_t v)
{
    char digits[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)-v : (uint64_t)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < 23);
    if (v < 0 && *at < size)
        buf[(*at)++] = '-';
    while (n && *at < size)
        buf[(*at)++] = digits[--n];
}

static void on_abort(int sig)
{
    (void)sig;
    for (int i = 0; i < SPARE_FDS; i++)
        if (spare[i] >= 0)
            close(spare[i]);
    if (!blame_dir[0] || job_now < 0)
        return;
    find_folders();
    count_connections();
    int worst = 0;
    for (int s = 1; s < MAX_SEATS; s++)
        if (connections[s] > connections[worst])
            worst = s;
    if (connections[worst] < REF_BLAME_MIN_CONNECTIONS)
        return;
    static char path[256], text[96];
    size_t at = 0, pat = 0, dlen = strlen(blame_dir);
    memcpy(path, blame_dir, dlen);
    pat = dlen;
    memcpy(path + pat, "/blame.", 7);
    pat += 7;
    put_num(path, sizeof path - 1, &pat, blame_pid);
    path[pat] = 0;
    put_num(text, sizeof text, &at, job_now);
    text[at++] = ' ';
    put_num(text, sizeof text, &at, worst);
    text[at++] = ' ';
    put_num(text, sizeof text - 1, &at, connections[worst]);
    text[at++] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void)!write(fd, text, at);
        close(fd);
    }
}

void ref_blame_arm(const char *dir)
{
    if (!dir || !dir[0] || strlen(dir) >= sizeof blame_dir) {
        blame_dir[0] = 0;
        return;
    }
    snprintf(blame_dir, sizeof blame_dir, "%s", dir);
    blame_pid = getpid();
    for (int i = 0; i < SPARE_FDS; i++)
        if (spare[i] < 0)
            spare[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_abort;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGABRT, &sa, NULL);
}

void ref_blame_job(int64_t id)
{
    job_now = id;
}

int ref_blame_read(const char *dir, pid_t pid, int64_t *job, int *seat, int *connections_out)
{
    char path[400], text[96];
    snprintf(path, sizeof path, "%s/blame.%d", dir, (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    unlink(path);
    if (n <= 0)
        return 0;
    text[n] = 0;
    return sscanf(text, "%" SCNd64 " %d %d", job, seat, connections_out) == 3 && *seat >= 0;
}

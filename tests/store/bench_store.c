/*
 * bench_store.c - a submission's way into the store, timed (store/store.h):
 * a bot folder of MB megabytes (default 10: a few hundred files of random
 * bytes, as a bot with its libraries is) read and packed as `arena submit`
 * does, the archive read back and checked as the gateway does, hashed and
 * written into the store, then written again (stored already). The check
 * (a bot's matches) is not counted: it is the same as bot add's.
 * Then the stored bot's way to a remote worker (bench_fetch.c): its first
 * fetch over a CURVE link into the worker's cache, a second worker's, a
 * cached start, and a bot already on disk started as it is.
 *
 * usage: bench_store [MB] [RUNS]      (build/tests/store/bench_store 10 5)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_fetch.h"
#include "store.h"

/* Wall time, and this process's CPU time (the machine's load aside). */
double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double bench_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void sort(double *v, int n)
{
    for (int i = 1; i < n; i++)              /* insertion sort: a few runs */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

static int writable_rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag == FTW_DP)
        return rmdir(p), 0;
    return unlink(p), 0;
}

static int writable(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag == FTW_D)
        chmod(p, 0700);
    return 0;
}

static void rm_tree(const char *dir)
{
    nftw(dir, writable, 16, FTW_PHYS);
    nftw(dir, writable_rm, 16, FTW_PHYS | FTW_DEPTH);
}

/* The folder: files of 16-64 KB of random bytes in a few folders. */
static void make_folder(const char *dir, size_t bytes)
{
    mkdir(dir, 0755);
    char path[4200];
    unsigned seed = 12345;
    size_t made = 0;
    for (int i = 0; made < bytes; i++) {
        if (i % 50 == 0) {
            snprintf(path, sizeof path, "%s/lib%d", dir, i / 50);
            mkdir(path, 0755);
        }
        size_t n = 16384 + (size_t)(rand_r(&seed) % 49152);
        if (n > bytes - made)
            n = bytes - made;
        char *data = malloc(n);
        for (size_t k = 0; k < n; k++)
            data[k] = (char)rand_r(&seed);
        snprintf(path, sizeof path, "%s/lib%d/f%d.bin", dir, i / 50, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write(fd, data, n) != (ssize_t)n)
            exit(1);
        close(fd);
        free(data);
        made += n;
    }
}

int main(int argc, char **argv)
{
    int mb = argc > 1 ? atoi(argv[1]) : 10, runs = argc > 2 ? atoi(argv[2]) : 5;
    if (mb < 1 || mb > 60 || runs < 1 || runs > 64) {
        fprintf(stderr, "usage: bench_store [MB (1-60)] [RUNS]\n");
        return 2;
    }
    char base[256], dir[300], root[300], err[512];
    snprintf(base, sizeof base, "%s/bench-store-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                         : "/tmp");
    if (!mkdtemp(base))
        return 1;
    snprintf(dir, sizeof dir, "%s/bot", base);
    snprintf(root, sizeof root, "%s/arena.db.store", base);
    make_folder(dir, (size_t)mb << 20);
    printf("bench_store: a %d MB folder, %d runs (ms: wall best / median, CPU best)\n", mb,
           runs);
    double t[4][64], cpu[4][64];
    int files = 0;
    size_t packed = 0;
    for (int r = 0; r < runs; r++) {
        store_tree a, b;
        store_tree_init(&a, 0, 0);
        store_tree_init(&b, 0, 0);
        void *buf;
        size_t len;
        char hex[STORE_HASH_HEX + 1], stored[600];
        double c0 = bench_cpu_ms(), t0 = bench_now_ms();
        if (store_read_dir(&a, dir, err, sizeof err) < 0 ||
            store_pack(&a, &buf, &len, err, sizeof err) < 0)
            return fprintf(stderr, "%s\n", err), 1;
        double t1 = bench_now_ms(), c1 = bench_cpu_ms();
        if (store_read_archive(&b, buf, len, err, sizeof err) < 0)
            return fprintf(stderr, "%s\n", err), 1;
        double t2 = bench_now_ms(), c2 = bench_cpu_ms();
        if (store_put(root, &b, hex, stored, sizeof stored, err, sizeof err) != 1)
            return fprintf(stderr, "put: %s\n", err), 1;
        double t3 = bench_now_ms(), c3 = bench_cpu_ms();
        if (store_put(root, &b, hex, stored, sizeof stored, err, sizeof err) != 0)
            return fprintf(stderr, "put again: %s\n", err), 1;
        double t4 = bench_now_ms(), c4 = bench_cpu_ms();
        t[0][r] = t1 - t0, t[1][r] = t2 - t1, t[2][r] = t3 - t2, t[3][r] = t4 - t3;
        cpu[0][r] = c1 - c0, cpu[1][r] = c2 - c1, cpu[2][r] = c3 - c2, cpu[3][r] = c4 - c3;
        files = a.n;
        packed = len;
        free(buf);
        store_tree_free(&a);
        store_tree_free(&b);
        rm_tree(root);
    }
    const char *what[4] = { "folder read and packed (arena submit)",
                            "archive read and checked (the gateway)",
                            "hashed and written into the store",
                            "the same again (stored already: hashed only)" };
    for (int k = 0; k < 4; k++) {
        sort(t[k], runs);
        sort(cpu[k], runs);
        printf("  %-46s %8.1f / %8.1f  %8.1f\n", what[k], t[k][0], t[k][runs / 2], cpu[k][0]);
    }
    printf("  (%d entries, %zu bytes packed)\n", files, packed);
    /* The bot stored once more, then fetched by workers. */
    store_tree a;
    store_tree_init(&a, 0, 0);
    char hex[STORE_HASH_HEX + 1], stored[600];
    static bench_fetch_times ft;
    if (store_read_dir(&a, dir, err, sizeof err) < 0 ||
        store_put(root, &a, hex, stored, sizeof stored, err, sizeof err) < 0)
        return fprintf(stderr, "%s\n", err), 1;
    store_tree_free(&a);
    if (bench_fetch(base, stored, hex, runs, &ft) < 0)
        return 1;
    printf("a remote worker's start of that bot, over tcp://127.0.0.1 with CURVE (ms: wall best "
           "/ median, CPU best)\n");
    double *rows[5] = { ft.first[0], ft.arena[0], ft.first[1], ft.cached, ft.on_disk };
    const char *names[5] = { "first fetch (the arena packs it)",
                             "  of which the arena's answer (read, hash, pack)",
                             "a second worker's first fetch (archive kept)",
                             "a cached start (its copy hashed again)",
                             "a bot already on disk (its process started)" };
    double *cpus[5] = { ft.cpu[0], NULL, ft.cpu[2], ft.cpu[3], NULL };
    for (int k = 0; k < 5; k++) {
        sort(rows[k], runs);
        printf("  %-50s %8.1f / %8.1f", names[k], rows[k][0], rows[k][runs / 2]);
        if (cpus[k]) {
            sort(cpus[k], runs);
            printf("  %8.1f", cpus[k][0]);
        }
        printf("\n");
    }
    rm_tree(base);
    return 0;
}

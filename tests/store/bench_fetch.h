/*
 * bench_fetch.h - a stored bot's way to a remote worker, timed (bench_fetch.c).
 */
#ifndef BENCH_FETCH_H
#define BENCH_FETCH_H

#define BENCH_FETCH_RUNS 64

/* The run's clocks in milliseconds, for both halves of bench_store. */
double bench_now_ms(void);       /* monotonic */
double bench_cpu_ms(void);       /* this process's CPU time */

typedef struct bench_fetch_times {
    double first[2][BENCH_FETCH_RUNS];   /* a worker's first fetch: [0] the arena packs, [1]
                                          * a second worker's (the archive kept) */
    double arena[2][BENCH_FETCH_RUNS];   /* ... of which the arena's answer */
    double cached[BENCH_FETCH_RUNS];     /* a cached start: the copy hashed again */
    double on_disk[BENCH_FETCH_RUNS];    /* a bot on disk started as it is */
    double cpu[4][BENCH_FETCH_RUNS];     /* the CPU time of each row (both ends, ZeroMQ's
                                          * threads too), the arena's answer's none apart */
} bench_fetch_times;

/* Runs the fetch of the bot stored at `stored` (hash) `runs` times, its
 * caches in base. 0, or -1 (said on stderr). */
int bench_fetch(const char *base, const char *stored, const char *hash, int runs,
                bench_fetch_times *out);

#endif

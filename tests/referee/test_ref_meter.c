/*
 * test_ref_meter.c - the fair clock's meter against the kernel's own
 * figures (ref_meter.c).
 *
 * A real process (this program, run again with --spin) puts two threads
 * on one CPU, so each waits for it while the other runs, and then blocks
 * for good: from then on its figures stand still, and what the meter
 * summed from its samples must equal, to the nanosecond, what the
 * kernel's schedstat says each thread ran and waited in all. The meter
 * samples it many times while it runs, and first sees it after its
 * threads have already run: a wait counted whole at every sample instead
 * of by deltas, a CPU time read as the wait, or what a thread ran before
 * it was first seen left out, each breaks the equality.
 *
 * The referee's own threads (ref_meter_own_*) are checked the same way,
 * in this process: the opener's wait must be its schedstat's, in
 * microseconds, read between two readings of its own.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "ref_meter.h"
#include "ref_proc.h"

#define SPIN_MS 150          /* CPU time each spinning thread burns */

/* ---- the spinning process --------------------------------------------- */

static int64_t thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void spin(int64_t ms)
{
    int64_t end = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < end)
        ;
}

static void *spinner(void *arg)
{
    spin(*(const int *)arg);
    for (;;)
        pause();
    return NULL;
}

/* Pins the calling process (and the threads it starts) to the first CPU it
 * may use: its threads then take turns on it. */
static void one_cpu(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) {
            CPU_ZERO(&set);
            CPU_SET(c, &set);
            sched_setaffinity(0, sizeof set, &set);
            return;
        }
}

/* late_ms: how long the process runs alone before it starts its threads. */
static int spin_main(int late_ms)
{
    static const int ms = SPIN_MS;
    one_cpu();
    if (late_ms > 0)
        spin(late_ms);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, spinner, (void *)&ms) != 0)
            return 1;
    for (;;)
        pause();
}

/* ---- the kernel's figures ---------------------------------------------- */

static int read_stat(const char *path, uint64_t *run, uint64_t *delay)
{
    *run = *delay = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long r = 0, d = 0;
    int ok = fscanf(f, "%llu %llu", &r, &d) == 2;
    fclose(f);
    *run = r, *delay = d;
    return ok ? 0 : -1;
}

/* The sum over the process's threads; *asleep 1 when none is runnable.
 * Returns the number of threads. */
static int kernel_figures(pid_t pid, uint64_t *run, uint64_t *delay, int *asleep)
{
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    assert_non_null(d);
    int n = 0;
    *run = *delay = 0;
    *asleep = 1;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        uint64_t r, w;
        snprintf(path, sizeof path, "/proc/%d/task/%.20s/schedstat", (int)pid, de->d_name);
        if (read_stat(path, &r, &w) != 0)
            continue;
        *run += r, *delay += w;
        n++;
        char buf[256];
        snprintf(path, sizeof path, "/proc/%d/task/%.20s/stat", (int)pid, de->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            size_t got = fread(buf, 1, sizeof buf - 1, f);
            buf[got] = '\0';
            fclose(f);
            const char *paren = strrchr(buf, ')');
            if (!paren || paren[2] != 'S')
                *asleep = 0;
        }
    }
    closedir(d);
    return n;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* ---- the tests --------------------------------------------------------- */

/* The spinning process (`flag`: --spin, or --spin-late), metered from
 * start to end, against the kernel's figures. */
static void meter_against_the_kernel(const char *flag)
{
    if (!ref_meter_schedstat()) {
        skip();
    }
    char cmd[PATH_MAX + 32], self[PATH_MAX], err[256];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    snprintf(cmd, sizeof cmd, "%s %s", self, flag);
    ref_proc p;
    assert_int_equal(ref_proc_spawn(&p, cmd, NULL, NULL, NULL, NULL, err, sizeof err), 0);
    assert_null(p.cg.sys);           /* no control group: the threads are all */

    /* Its threads run first, unseen; then the meter samples it often. */
    sleep_ms(30);
    ref_meter m = {0};
    uint64_t run = 0, delay = 0;
    int asleep = 0, threads = 0, samples = 0;
    for (int i = 0; i < 1500 && !asleep; i++) {       /* at most 30 s */
        ref_meter_sample(&m, &p);
        samples++;
        sleep_ms(20);
        threads = kernel_figures(p.pid, &run, &delay, &asleep);
    }
    assert_true(asleep);             /* both spinners done: figures stand still */
    ref_meter_sample(&m, &p);
    kernel_figures(p.pid, &run, &delay, &asleep);
    assert_true(asleep);

    assert_int_equal(threads, 3);
    assert_true(samples >= 3);
    assert_true(m.cpu_known && m.wait_known);
    assert_true(run >= 2 * SPIN_MS * 1000000ull);
    assert_true(delay > 0);          /* two threads on one CPU wait for it */
    assert_int_equal(m.cpu_ns, run);
    assert_int_equal(m.wait_ns, delay);

    ref_meter_close(&m);
    ref_proc_kill(&p, 0);
    ref_proc_close(&p);
}

static void meter_sums_the_kernels_figures(void **state)
{
    (void)state;
    meter_against_the_kernel("--spin");
}

/* Threads started after the meter first listed the process's: without a
 * group, the leader's thread count (its stat, kept open) is what tells
 * the meter to list them again; missed, their CPU time would be too. */
static void meter_finds_threads_started_later(void **state)
{
    (void)state;
    meter_against_the_kernel("--spin-late");
}

static uint64_t own_delay(void)
{
    uint64_t run, delay;
    assert_int_equal(read_stat("/proc/thread-self/schedstat", &run, &delay), 0);
    return delay;
}

static void own_wait_is_in_microseconds(void **state)
{
    (void)state;
    if (!ref_meter_schedstat()) {
        skip();
    }
    /* This thread and a spinner take turns on one CPU: both wait. */
    one_cpu();
    static const int ms = SPIN_MS / 3;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, spinner, (void *)&ms), 0);
    ref_own o;
    ref_meter_own_open(&o);
    spin(SPIN_MS / 3);
    assert_int_equal(o.n, 2);
    char path[96];
    uint64_t others = 0;
    for (int i = 0; i < 1500; i++) {                  /* the spinner done: at most 30 s */
        char buf[256];
        snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)o.tid[o.self == 0]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = '\0';
        const char *paren = strrchr(buf, ')');
        if (paren && paren[2] == 'S')
            break;
        sleep_ms(20);
    }
    for (int i = 0; i < o.n; i++) {
        uint64_t r, d;
        if (i == o.self)
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)o.tid[i]);
        assert_int_equal(read_stat(path, &r, &d), 0);
        others += d;
    }

    uint64_t before = own_delay();
    int64_t self_us;
    int64_t others_us = ref_meter_own_wait_us(&o, &self_us);
    uint64_t after = own_delay();
    assert_true(o.self >= 0);
    assert_true(before > 0);
    assert_true(self_us >= (int64_t)(before / 1000));
    assert_true(self_us <= (int64_t)(after / 1000));
    assert_int_equal(others_us, (int64_t)(others / 1000));
    ref_meter_own_close(&o);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--spin"))
        return spin_main(0);
    if (argc > 1 && !strcmp(argv[1], "--spin-late"))
        return spin_main(SPIN_MS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(meter_sums_the_kernels_figures),
        cmocka_unit_test(meter_finds_threads_started_later),
        cmocka_unit_test(own_wait_is_in_microseconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

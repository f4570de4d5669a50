/*
 * test_ref_cgroup.c - a bot's control group (ref_cgroup.h) with a real
 * process: what the machine offers, limits written, the process counted,
 * its CPU time seen, frozen and thawed, killed to the last task, the group
 * removed; and a dead referee's groups swept. Needs root and a cgroup
 * hierarchy it may write: elsewhere each test says so and skips.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "ref_cgroup.h"

static ref_cg_system sys;

static void nap_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static char proc_state(pid_t pid)
{
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')');
    return rp ? rp[2] : 0;
}

static void test_a_spinner_in_its_group(void **state)
{
    (void)state;
    if (!(sys.features & REF_CG_CPUACCT) || !(sys.features & REF_CG_PIDS))
        skip();
    ref_cg cg;
    char err[256];
    ref_cg_limits lim = { 64u << 20, 16, 500 };
    assert_int_equal(ref_cg_create(&cg, &sys, &lim, err, sizeof err), 0);
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    if (pid == 0) {
        char b;
        close(go[1]);
        if (read(go[0], &b, 1) < 0)
            _exit(1);
        for (;;)
            ;
    }
    close(go[0]);
    assert_int_equal(ref_cg_attach(&cg, pid, err, sizeof err), 0);
    close(go[1]);
    pid_t tasks[8];
    assert_int_equal(ref_cg_tasks(&cg, tasks, 8), 1);
    assert_int_equal(tasks[0], pid);
    nap_ms(300);
    ref_cg_usage u;
    ref_cg_usage_read(&cg, &u);
    /* A spinner under a quota of half a core: some CPU, not more than its
     * quota allows (with room for the period's granularity). */
    assert_true(u.cpu_ns > 20 * 1000000ull);
    assert_true(u.cpu_ns < 300 * 1000000ull);
    assert_int_equal(u.oom_kills, 0);
    assert_int_equal(u.task_limit_hits, 0);
    if (sys.features & REF_CG_FREEZE) {
        assert_int_equal(ref_cg_freeze(&cg, 1), 0);
        nap_ms(100);
        ref_cg_usage_read(&cg, &u);
        uint64_t frozen_at = u.cpu_ns;
        nap_ms(200);
        ref_cg_usage_read(&cg, &u);
        assert_true(u.cpu_ns - frozen_at < 5 * 1000000ull);   /* no CPU while frozen */
        assert_int_equal(ref_cg_freeze(&cg, 0), 0);
    }
    assert_int_equal(ref_cg_kill(&cg), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_int_equal(proc_state(pid), 0);
    char dir[1400];
    snprintf(dir, sizeof dir, "%s/%s", sys.hier[0].path, strchr(cg.name, '/') + 1);
    ref_cg_destroy(&cg);
    struct stat st;
    assert_int_not_equal(stat(dir, &st), 0);
    ref_cg_destroy(&cg);    /* idempotent */
}

/* A fork past the task limit fails and is counted. */
static void test_task_limit_counted(void **state)
{
    (void)state;
    if (!(sys.features & REF_CG_PIDS))
        skip();
    ref_cg cg;
    char err[256];
    ref_cg_limits lim = { 0, 4, 0 };
    assert_int_equal(ref_cg_create(&cg, &sys, &lim, err, sizeof err), 0);
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    if (pid == 0) {
        char b;
        close(go[1]);
        if (read(go[0], &b, 1) < 0)
            _exit(1);
        for (int i = 0; i < 8; i++)
            if (fork() == 0) {
                pause();
                _exit(0);
            }
        pause();
        _exit(0);
    }
    close(go[0]);
    assert_int_equal(ref_cg_attach(&cg, pid, err, sizeof err), 0);
    close(go[1]);
    ref_cg_usage u = { 0 };
    for (int i = 0; i < 100 && !u.task_limit_hits; i++) {
        nap_ms(10);
        ref_cg_usage_read(&cg, &u);
    }
    assert_true(u.task_limit_hits > 0);
    assert_int_equal(ref_cg_tasks(&cg, NULL, 0), 4);
    ref_cg_destroy(&cg);
    while (waitpid(-1, NULL, WNOHANG) > 0 || waitpid(pid, NULL, 0) > 0)
        ;
}

/* The groups of a referee that is gone are removed; a live one's stay. */
static void test_stale_groups_swept(void **state)
{
    (void)state;
    if (!sys.features)
        skip();
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, NULL, 0);
    char base[1300], stale[1400], live[1400];
    snprintf(base, sizeof base, "%s", sys.hier[0].path);
    *strrchr(base, '/') = 0;
    snprintf(stale, sizeof stale, "%s/arena-%d", base, (int)dead);
    snprintf(live, sizeof live, "%s/arena-%d/bot1", base, (int)getppid());
    assert_int_equal(mkdir(stale, 0755), 0);
    char bot[1500];
    snprintf(bot, sizeof bot, "%s/bot7", stale);
    assert_int_equal(mkdir(bot, 0755), 0);
    assert_true(ref_cg_clean_stale(&sys) >= 1);
    struct stat st;
    assert_int_not_equal(stat(stale, &st), 0);
    assert_int_equal(stat(sys.hier[0].path, &st), 0);    /* our own stays */
    (void)live;
}

int main(void)
{
    ref_cg_probe(&sys, getenv("ARENA_CGROUP_PARENT"));
    printf("cgroups here: %s%s%s\n", sys.summary[0] ? sys.summary : "none",
           sys.missing[0] ? "; missing: " : "", sys.missing);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_spinner_in_its_group),
        cmocka_unit_test(test_task_limit_counted),
        cmocka_unit_test(test_stale_groups_swept),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ref_cg_release(&sys);
    return rc;
}

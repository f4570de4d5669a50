/*
 * test_ref_cgroup.c - a bot's control group (ref_cgroup.h) with a real
 * process: what the machine offers, limits written, the process counted,
 * its CPU time seen, frozen and thawed, killed to the last task, the group
 * removed; and a dead referee's groups swept. Needs root and a cgroup
 * hierarchy it may write: elsewhere each test says so and skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/* A sleeper (pause) in a new bot group of `owner`'s referee group, made
 * as that referee would have made it; the group's directories are then
 * left as a referee killed with SIGKILL leaves them. Returns the pid. */
static pid_t sleeper_in(pid_t owner, int frozen)
{
    ref_cg_system other = sys;
    for (int h = 0; h < other.nhier; h++) {
        char *slash = strrchr(other.hier[h].path, '/');
        snprintf(slash + 1, sizeof other.hier[h].path - (size_t)(slash + 1 - other.hier[h].path),
                 "arena-%d", (int)owner);
        if (other.hier[h].features)
            assert_true(mkdir(other.hier[h].path, 0755) == 0 || errno == EEXIST);
    }
    ref_cg cg;
    char err[256];
    assert_int_equal(ref_cg_create(&cg, &other, NULL, err, sizeof err), 0);
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    assert_int_equal(ref_cg_attach(&cg, pid, err, sizeof err), 0);
    if (frozen)
        assert_int_equal(ref_cg_freeze(&cg, 1), 0);
    for (int h = 0; h < REF_CG_MAX_HIER; h++)
        if (cg.dirfd[h] >= 0)
            close(cg.dirfd[h]);
    return pid;
}

/* The path of owner's referee group in hierarchy h. */
static void group_of(pid_t owner, int h, char *out, size_t size)
{
    snprintf(out, size, "%s", sys.hier[h].path);
    char *slash = strrchr(out, '/');
    snprintf(slash + 1, size - (size_t)(slash + 1 - out), "arena-%d", (int)owner);
}

static void assert_killed(pid_t pid)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Our child pid has not ended (it may not have reached its pause() yet on
 * a loaded machine: its state can be R as well as S). */
static void assert_alive(pid_t pid)
{
    int status;
    assert_int_equal(waitpid(pid, &status, WNOHANG), 0);
}

/* The groups of a referee that is gone are emptied, frozen tasks too, and
 * removed in every hierarchy; so are those of a referee whose id a newer
 * process has; a live referee's stay, with their tasks. */
static void test_stale_groups_swept(void **state)
{
    (void)state;
    if (!sys.features)
        skip();
    /* A referee that dies once its groups hold tasks: until then, no
     * other referee's sweep on this machine takes them away from us. */
    pid_t dead = fork();
    if (dead == 0) {
        pause();
        _exit(0);
    }
    pid_t left = sleeper_in(dead, 0);
    pid_t frozen = (sys.features & REF_CG_FREEZE) ? sleeper_in(dead, 1) : 0;
    kill(dead, SIGKILL);
    waitpid(dead, NULL, 0);
    /* A live process that started after the group named after it was
     * made: it reuses a dead referee's id. */
    pid_t reuser = fork();
    if (reuser == 0) {
        pause();
        _exit(0);
    }
    pid_t in_reused = sleeper_in(reuser, 0);
    char dir[1400];
    struct timespec hour_ago[2] = { { time(NULL) - 3600, 0 }, { time(NULL) - 3600, 0 } };
    for (int h = 0; h < sys.nhier; h++) {
        group_of(reuser, h, dir, sizeof dir);
        assert_int_equal(utimensat(AT_FDCWD, dir, hour_ago, 0), 0);
    }
    /* A live referee: a process that started before its group. */
    pid_t live = fork();
    if (live == 0) {
        pause();
        _exit(0);
    }
    nap_ms(1100);
    pid_t in_live = sleeper_in(live, 0);

    /* Another referee of this machine may sweep them first: what is
     * asserted is what is left, not who removed it. */
    ref_cg_clean_stale(&sys);
    assert_killed(left);
    if (frozen)
        assert_killed(frozen);
    assert_killed(in_reused);
    struct stat st;
    for (int h = 0; h < sys.nhier; h++) {
        group_of(dead, h, dir, sizeof dir);
        assert_int_not_equal(stat(dir, &st), 0);
        group_of(reuser, h, dir, sizeof dir);
        assert_int_not_equal(stat(dir, &st), 0);
        assert_int_equal(stat(sys.hier[h].path, &st), 0);    /* our own stays */
        group_of(live, h, dir, sizeof dir);
        assert_int_equal(stat(dir, &st), 0);
    }
    assert_alive(in_live);
    assert_alive(reuser);
    /* Once its referee is gone, the live one's goes too. */
    kill(live, SIGKILL);
    kill(reuser, SIGKILL);
    waitpid(live, NULL, 0);
    waitpid(reuser, NULL, 0);
    ref_cg_clean_stale(&sys);
    assert_killed(in_live);
}

/* At the referee's exit, what is left in its groups dies with them. */
static void test_release_kills_leftovers(void **state)
{
    (void)state;
    if (!sys.features)
        skip();
    ref_cg cg;
    char err[256];
    assert_int_equal(ref_cg_create(&cg, &sys, NULL, err, sizeof err), 0);
    pid_t pid = fork();
    if (pid == 0) {
        pause();
        _exit(0);
    }
    assert_int_equal(ref_cg_attach(&cg, pid, err, sizeof err), 0);
    ref_cg_release(&sys);
    assert_killed(pid);
    struct stat st;
    for (int h = 0; h < sys.nhier; h++)
        assert_int_not_equal(stat(sys.hier[h].path, &st), 0);
    ref_cg_destroy(&cg);    /* its directories are gone already */
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
        cmocka_unit_test(test_release_kills_leftovers),   /* last: ends our groups */
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ref_cg_release(&sys);
    return rc;
}

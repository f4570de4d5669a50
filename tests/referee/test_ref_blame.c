/*
 * test_ref_blame.c - a worker's last words (referee/ref_blame.h) from a
 * real abort: a child process holds a match folder's .lock and a seat's
 * socket with real accepted connections, arms the handler and aborts; the
 * parent reads what it left. The seat holding REF_BLAME_MIN_CONNECTIONS or
 * more is named with its count; fewer, or no job, leave nothing.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ref_blame.h"

/* In the child: seat `seat`'s socket in `folder` with `n` connections
 * accepted, then the handler armed for `words` and job `job`, then abort. */
static void hold_and_abort(const char *folder, const char *words, int seat, int n, int64_t job)
{
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);              /* no core file from the test */
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    snprintf(path, sizeof path, "%s/.lock", folder);
    if (open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600) < 0)
        _exit(10);
    snprintf(path, sizeof path, "%s/seat%d", folder, seat);
    if (mkdir(path, 0700) != 0)
        _exit(11);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s/seat%d/s", folder, seat);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 128) != 0)
        _exit(12);
    for (int i = 0; i < n; i++) {
        int c = socket(AF_UNIX, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) != 0 || accept(l, NULL, NULL) < 0)
            _exit(13);
    }
    ref_blame_arm(words);
    ref_blame_job(job);
    abort();
}

typedef struct last_words {
    int found, seat, connections;
    int64_t job;
} last_words;

/* Runs hold_and_abort in a child; what it left in a fresh folder. */
static last_words abort_with(int seat, int n, int64_t job)
{
    char folder[] = "/tmp/arena-XXXXXX", words[] = "/tmp/blame-test-XXXXXX";
    assert_non_null(mkdtemp(folder));
    assert_non_null(mkdtemp(words));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        hold_and_abort(folder, words, seat, n, job);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));       /* the handler let the abort go on */
    assert_int_equal(WTERMSIG(status), SIGABRT);
    last_words w = { 0 };
    w.found = ref_blame_read(words, pid, &w.job, &w.seat, &w.connections);
    char path[128];
    snprintf(path, sizeof path, "%s/blame.%d", words, (int)pid);
    assert_int_equal(access(path, F_OK), -1);        /* read once: removed */
    snprintf(path, sizeof path, "%s/seat%d/s", folder, seat);
    unlink(path);
    snprintf(path, sizeof path, "%s/seat%d", folder, seat);
    rmdir(path);
    snprintf(path, sizeof path, "%s/.lock", folder);
    unlink(path);
    assert_int_equal(rmdir(folder), 0);
    assert_int_equal(rmdir(words), 0);
    return w;
}

static void test_flooder_named(void **state)
{
    (void)state;
    int n = REF_BLAME_MIN_CONNECTIONS + 6;
    last_words w = abort_with(1, n, 7);
    assert_int_equal(w.found, 1);
    assert_int_equal(w.job, 7);
    assert_int_equal(w.seat, 1);
    /* the accepted connections, and the listener, which shows the path too */
    assert_in_range(w.connections, n, n + 1);
}

static void test_few_connections_name_nobody(void **state)
{
    (void)state;
    last_words w = abort_with(0, 10, 3);
    assert_int_equal(w.found, 0);
}

static void test_no_job_no_words(void **state)
{
    (void)state;
    last_words w = abort_with(1, REF_BLAME_MIN_CONNECTIONS + 6, -1);
    assert_int_equal(w.found, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flooder_named),
        cmocka_unit_test(test_few_connections_name_nobody),
        cmocka_unit_test(test_no_job_no_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

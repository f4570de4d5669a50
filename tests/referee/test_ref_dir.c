/*
 * test_ref_dir.c - match folders under concurrent referees: a referee
 * starting up sweeps the folders of dead ones, and must never take the
 * folder of a live one, not even in the moment that folder is being made.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ref_dir.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Several processes make and remove folders while others sweep as fast
 * as they can: every folder is made whole, and stays until its owner
 * removes it. */
static void test_sweep_never_takes_a_live_folder(void **state)
{
    (void)state;
    enum { MAKERS = 3, SWEEPERS = 2, ROUNDS = 300 };
    pid_t sweepers[SWEEPERS];
    for (int i = 0; i < SWEEPERS; i++)
        if ((sweepers[i] = fork()) == 0)
            for (;;)
                ref_dir_sweep();
    pid_t makers[MAKERS];
    for (int i = 0; i < MAKERS; i++)
        if ((makers[i] = fork()) == 0) {
            for (int r = 0; r < ROUNDS; r++) {
                ref_dir d;
                char err[256], sock[128];
                if (ref_dir_make(&d, err, sizeof err) != 0)
                    _exit(1);
                /* What a match does with its folder: put a socket path in. */
                snprintf(sock, sizeof sock, "%s/seat0", d.path);
                if (mkdir(sock, 0700) != 0 || !is_dir(d.path))
                    _exit(2);
                ref_dir_remove(&d);
            }
            _exit(0);
        }
    int status[MAKERS];
    for (int i = 0; i < MAKERS; i++)
        if (waitpid(makers[i], &status[i], 0) != makers[i])
            status[i] = -1;
    for (int i = 0; i < SWEEPERS; i++) {
        kill(sweepers[i], SIGKILL);
        waitpid(sweepers[i], NULL, 0);
    }
    for (int i = 0; i < MAKERS; i++) {
        assert_true(WIFEXITED(status[i]));
        assert_int_equal(WEXITSTATUS(status[i]), 0);   /* 1: make failed, 2: folder gone */
    }
}

/* A referee killed while it plays leaves its folder; the next sweep
 * removes it. */
static void test_sweep_removes_a_dead_referees_folder(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        ref_dir d;
        char err[256];
        if (ref_dir_make(&d, err, sizeof err) != 0)
            _exit(1);
        (void)!write(fds[1], d.path, sizeof d.path);
        _exit(0);                    /* dies without removing it */
    }
    char path[64] = "";
    close(fds[1]);
    assert_int_equal(read(fds[0], path, sizeof path), (ssize_t)sizeof path);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    assert_true(is_dir(path));
    ref_dir_sweep();
    assert_false(is_dir(path));
}

/* A folder whose referee died before it could lock it is swept once it
 * is old, and left alone while it is young (it may be being made). */
static void test_sweep_and_unlocked_folders(void **state)
{
    (void)state;
    char young[64], old[64], mine[64];   /* where ref_dir_sweep looks: $TMPDIR or /tmp */
    snprintf(young, sizeof young, "%s/arena-XXXXXX", ref_dir_parent());
    snprintf(old, sizeof old, "%s", young);
    snprintf(mine, sizeof mine, "%s", young);
    assert_non_null(mkdtemp(young));
    assert_non_null(mkdtemp(old));
    assert_non_null(mkdtemp(mine));
    char fresh[96], other[96];
    snprintf(fresh, sizeof fresh, "%s/.lock.new", old);
    close(open(fresh, O_CREAT | O_WRONLY, 0600));
    /* An old folder with more in it than a half-made lock is not ours. */
    snprintf(other, sizeof other, "%s/data", mine);
    close(open(other, O_CREAT | O_WRONLY, 0600));
    struct timeval past[2] = { { .tv_sec = time(NULL) - 3600 }, { .tv_sec = time(NULL) - 3600 } };
    assert_int_equal(utimes(old, past), 0);
    assert_int_equal(utimes(mine, past), 0);
    ref_dir_sweep();
    assert_true(is_dir(young));
    assert_false(is_dir(old));
    assert_true(is_dir(mine));
    rmdir(young);
    unlink(other);
    rmdir(mine);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_never_takes_a_live_folder),
        cmocka_unit_test(test_sweep_removes_a_dead_referees_folder),
        cmocka_unit_test(test_sweep_and_unlocked_folders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

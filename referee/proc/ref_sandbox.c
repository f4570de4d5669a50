/*
 * ref_sandbox.c - the sandbox's modes, a bot's uid from the pool, and the
 * one note on stderr (see ref_sandbox.h). Probing the machine for each
 * layer is ref_sandbox_probe.c's part; putting a bot into the sandbox is
 * ref_proc_spawn.c's and ref_sandbox_ns.c's.
 */
#define _GNU_SOURCE
#include "ref_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int ref_sandbox_mode_parse(const char *text, ref_sandbox_mode *mode)
{
    static const char *names[] = { "auto", "none", "strict" };
    for (int i = 0; i < 3; i++)
        if (text && !strcmp(text, names[i])) {
            *mode = (ref_sandbox_mode)i;
            return 0;
        }
    return -1;
}

int ref_sandbox_mode_choose(const char *flag, ref_sandbox_mode *mode, char *err, size_t size)
{
    const char *env = getenv("ARENA_SANDBOX");
    const char *text = flag ? flag : env && *env ? env : "auto";
    if (ref_sandbox_mode_parse(text, mode) == 0)
        return 0;
    snprintf(err, size, "%s must be auto, none or strict, not '%s'",
             flag ? "--sandbox" : "ARENA_SANDBOX", text);
    return -1;
}

void ref_sandbox_note_once(const char *fmt, ...)
{
    static int told;
    if (told++)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "referee: sandbox: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

/* ---- uid pool ----------------------------------------------------------- */

int ref_sandbox_uid_acquire(const ref_sandbox *sb, uid_t *uid, int *lock_fd, char *err,
                            size_t size)
{
    *lock_fd = -1;
    /* Start where this process's id points, so that concurrent referees
     * rarely try the same files. */
    unsigned start = (unsigned)getpid() * 7919u;
    for (unsigned k = 0; k < sb->uid_count; k++) {
        uid_t u = sb->uid_first + (start + k) % sb->uid_count;
        char path[200];
        snprintf(path, sizeof path, "%s/uid-%u", sb->uid_lock_dir, (unsigned)u);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            snprintf(err, size, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            *uid = u;
            *lock_fd = fd;
            return 0;
        }
        close(fd);
    }
    snprintf(err, size, "every uid of the pool %u-%u is in use", (unsigned)sb->uid_first,
             (unsigned)(sb->uid_first + sb->uid_count - 1));
    return -1;
}

void ref_sandbox_uid_release(int *lock_fd)
{
    if (*lock_fd >= 0)
        close(*lock_fd);    /* the flock goes with the last fd */
    *lock_fd = -1;
}

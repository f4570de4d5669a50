/*
 * ref_procfs.c - one small file of /proc/PID, read whole (ref_procfs.h).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "ref_procfs.h"

int ref_procfs_read(pid_t pid, const char *file, char *buf, size_t size)
{
    assert(buf && size > 1);
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return (int)n;
}

char *ref_procfs_stat_fields(char *buf)
{
    return strrchr(buf, ')');
}

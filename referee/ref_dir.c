/*
 * ref_dir.c - match folders: made and locked, removed, swept when their
 * referee died (see ref_dir.h).
 */
#define _GNU_SOURCE
#include "ref_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define PARENT "/tmp"
#define PREFIX "arena-"
#define LOCK ".lock"

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

int ref_dir_make(ref_dir *d, char *err, size_t size)
{
    d->lock_fd = -1;
    snprintf(d->path, sizeof d->path, PARENT "/" PREFIX "XXXXXX");
    if (!mkdtemp(d->path)) {
        snprintf(err, size, "cannot make a temporary directory: %s", strerror(errno));
        d->path[0] = 0;
        return -1;
    }
    /* The lock file appears under its name already locked: a sweeper that
     * found it unlocked between its creation and the flock would take this
     * live folder for a dead referee's and remove it. */
    char lock[96], fresh[104];
    snprintf(lock, sizeof lock, "%s/" LOCK, d->path);
    snprintf(fresh, sizeof fresh, "%s.new", lock);
    d->lock_fd = open(fresh, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (d->lock_fd < 0 || flock(d->lock_fd, LOCK_EX) != 0 || rename(fresh, lock) != 0 ||
        chmod(d->path, 0711) != 0) {
        snprintf(err, size, "cannot set up %s: %s", d->path, strerror(errno));
        ref_dir_remove(d);
        return -1;
    }
    return 0;
}

void ref_dir_remove(ref_dir *d)
{
    if (d->path[0])
        remove_tree(d->path);
    if (d->lock_fd >= 0)
        close(d->lock_fd);
    d->path[0] = 0;
    d->lock_fd = -1;
}

int ref_dir_sweep(void)
{
    DIR *dir = opendir(PARENT);
    if (!dir)
        return 0;
    int removed = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (strncmp(de->d_name, PREFIX, strlen(PREFIX)) ||
            strlen(de->d_name) != strlen(PREFIX) + 6)
            continue;
        char path[300];
        snprintf(path, sizeof path, PARENT "/%s/" LOCK, de->d_name);
        /* No lock file: not a referee's folder (or not yet one). */
        int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            snprintf(path, sizeof path, PARENT "/%s", de->d_name);
            remove_tree(path);
            removed++;
        }
        close(fd);
    }
    closedir(dir);
    return removed;
}

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
#include <time.h>
#include <unistd.h>

#define PREFIX "arena-"
/* The longest $TMPDIR taken: a folder's path (ref_dir.path) and a seat's
 * socket in it (seatN/referee) must stay far under a unix socket's 108. */
#define PARENT_MAX 40
#define LOCK ".lock"
#define FRESH ".lock.new"
/* A folder without its lock this much after it was made belongs to a
 * referee that died while making it. */
#define UNLOCKED_GRACE_S 60

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

const char *ref_dir_parent(void)
{
    const char *t = getenv("TMPDIR");
    struct stat st;
    if (t && t[0] == '/' && strlen(t) <= PARENT_MAX && !strstr(t, "//") &&
        stat(t, &st) == 0 && S_ISDIR(st.st_mode))
        return t;
    return "/tmp";
}

int ref_dir_make(ref_dir *d, char *err, size_t size)
{
    d->lock_fd = -1;
    snprintf(d->path, sizeof d->path, "%s/" PREFIX "XXXXXX", ref_dir_parent());
    if (!mkdtemp(d->path)) {
        snprintf(err, size, "cannot make a temporary directory: %s", strerror(errno));
        d->path[0] = 0;
        return -1;
    }
    /* The lock is taken under another name and only then renamed into
     * place: a sweeper that finds `.lock` always finds it held, never in
     * the moment between its creation and its locking. */
    char fresh[96], lock[96];
    snprintf(fresh, sizeof fresh, "%s/" FRESH, d->path);
    snprintf(lock, sizeof lock, "%s/" LOCK, d->path);
    d->lock_fd = open(fresh, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
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
    const char *parent = ref_dir_parent();
    DIR *dir = opendir(parent);
    if (!dir)
        return 0;
    int removed = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (strncmp(de->d_name, PREFIX, strlen(PREFIX)) ||
            strlen(de->d_name) != strlen(PREFIX) + 6)
            continue;
        char path[300];
        snprintf(path, sizeof path, "%s/%s/" LOCK, parent, de->d_name);
        int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
            /* No lock yet: a folder being made, unless it is old. Its
             * referee died before locking it, so it holds at most the
             * unrenamed lock; a folder holding more is not ours. */
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", parent, de->d_name);
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
                time(NULL) - st.st_mtime > UNLOCKED_GRACE_S) {
                char fresh[sizeof path + sizeof FRESH];
                snprintf(fresh, sizeof fresh, "%s/" FRESH, path);
                unlink(fresh);
                removed += rmdir(path) == 0;
            }
            continue;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            snprintf(path, sizeof path, "%s/%s", parent, de->d_name);
            remove_tree(path);
            removed++;
        }
        close(fd);
    }
    closedir(dir);
    return removed;
}

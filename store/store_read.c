/*
 * store_read.c - a bot's files into a store_tree (store.h): from a folder
 * on disk, or from a tar archive in memory through libarchive. Each entry
 * goes through store_tree_add, so the limits hold while reading: a file's
 * size is weighed from its folder entry or its archive header before its
 * bytes are read or inflated.
 */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "txt.h"

/* Reads up to max bytes of an open file (max + 1 to tell a longer one). */
static int read_fd(int fd, size_t max, char **buf, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    while (b) {
        if (n == cap) {
            char *grown = cap > max ? NULL : realloc(b, cap *= 2);
            if (!grown)
                break;
            b = grown;
        }
        ssize_t got = read(fd, b + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got < 0)
                break;
            *buf = b;
            *len = n;
            return 0;
        }
        n += (size_t)got;
        if (n > max)
            break;
    }
    free(b);
    return -1;
}

int store_read_file(const char *path, size_t max, void **buf, size_t *len, char *err,
                    size_t errsize)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        txt_set(err, errsize, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char *b;
    int rc = read_fd(fd, max, &b, len);
    close(fd);
    if (rc < 0)
        txt_set(err, errsize, "%s: too big (over %zu bytes) or unreadable", path, max);
    else
        *buf = b;
    return rc;
}

/* One entry of a folder at dirfd, named `name`, at `path` in the tree. */
static int read_entry(store_tree *t, int dirfd, const char *name, const char *path, int depth,
                      char *err, size_t errsize);

static int read_folder(store_tree *t, int fd, const char *path, int depth, char *err,
                       size_t errsize)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        txt_set(err, errsize, "cannot read the folder %s: %s", path[0] ? path : ".",
                strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char child[STORE_MAX_PATH + 256];
        snprintf(child, sizeof child, "%s%s%s", path, path[0] ? "/" : "", de->d_name);
        rc = read_entry(t, dirfd(d), de->d_name, child, depth + 1, err, errsize);
    }
    closedir(d);
    return rc;
}

static int read_entry(store_tree *t, int dirfd, const char *name, const char *path, int depth,
                      char *err, size_t errsize)
{
    struct stat st;
    if (depth > 64) {
        txt_set(err, errsize, "folders nested too deep: %s", path);
        return -1;
    }
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
        txt_set(err, errsize, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode)) {
        char target[STORE_MAX_PATH + 1];
        ssize_t n = readlinkat(dirfd, name, target, sizeof target);
        if (n < 0 || n > STORE_MAX_PATH) {
            txt_set(err, errsize, "cannot read the link %s", path);
            return -1;
        }
        return store_tree_add(t, path, STORE_LINK, 0, target, (size_t)n, err, errsize);
    }
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        txt_set(err, errsize, "a device, fifo or socket: %s", path);
        return -1;
    }
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > t->max_bytes - t->bytes) {
        txt_set(err, errsize, "too big: more than %llu bytes unpacked (at %s)",
                (unsigned long long)t->max_bytes, path);
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
                                     (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
    if (fd < 0) {
        txt_set(err, errsize, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (path[0] && store_tree_add(t, path, STORE_DIR, 0, NULL, 0, err, errsize) < 0) {
            close(fd);
            return -1;
        }
        return read_folder(t, fd, path, depth, err, errsize);
    }
    char *data;
    size_t len;
    int rc = read_fd(fd, t->max_bytes - t->bytes, &data, &len);
    close(fd);
    if (rc < 0) {
        txt_set(err, errsize, "too big or unreadable: %s", path);
        return -1;
    }
    rc = store_tree_add(t, path, STORE_FILE, (st.st_mode & 0111) != 0, data, len, err,
                        errsize);
    free(data);
    return rc;
}

int store_read_dir(store_tree *t, const char *dir, char *err, size_t errsize)
{
    struct stat st;
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        txt_set(err, errsize, "no folder %s", dir);
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        txt_set(err, errsize, "cannot open %s: %s", dir, strerror(errno));
        return -1;
    }
    if (read_folder(t, fd, "", 0, err, errsize) < 0)
        return -1;
    return store_tree_check(t, err, errsize);
}

/* One archive entry's data, exactly its declared size (already weighed
 * against the limit): 0, or -1 with err. */
static int archive_data(struct archive *a, const char *path, size_t size, char **out,
                        char *err, size_t errsize)
{
    char *b = malloc(size + 1);
    size_t n = 0;
    while (b && n < size) {
        la_ssize_t got = archive_read_data(a, b + n, size - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    if (!b || n != size) {
        const char *why = b ? archive_error_string(a) : "out of memory";
        txt_set(err, errsize, "a damaged archive: %s is cut short (%s)", path,
                why ? why : "its data ends early");
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

/* One archive entry into the tree: 0, or -1 with err. */
static int archive_entry_add(store_tree *t, struct archive *a, struct archive_entry *ent,
                             char *err, size_t errsize)
{
    const char *path = archive_entry_pathname(ent);
    if (!path) {
        txt_set(err, errsize, "an entry with no name");
        return -1;
    }
    if (archive_entry_hardlink(ent)) {
        txt_set(err, errsize, "a hard link (not taken): %s", path);
        return -1;
    }
    mode_t type = archive_entry_filetype(ent);
    if (type == AE_IFDIR)
        return store_tree_add(t, path, STORE_DIR, 0, NULL, 0, err, errsize);
    if (type == AE_IFLNK) {
        const char *target = archive_entry_symlink(ent);
        return store_tree_add(t, path, STORE_LINK, 0, target ? target : "",
                              target ? strlen(target) : 0, err, errsize);
    }
    if (type != AE_IFREG) {
        txt_set(err, errsize, "a device, fifo or socket: %s", path);
        return -1;
    }
    la_int64_t declared = archive_entry_size(ent);
    if (declared < 0 || (uint64_t)declared > t->max_bytes - t->bytes) {
        txt_set(err, errsize, "too big: more than %llu bytes unpacked (at %s)",
                (unsigned long long)t->max_bytes, path);
        return -1;
    }
    char *data;
    if (archive_data(a, path, (size_t)declared, &data, err, errsize) < 0)
        return -1;
    int exec = (archive_entry_perm(ent) & 0111) != 0;
    int rc = store_tree_add(t, path, STORE_FILE, exec, data, (size_t)declared, err, errsize);
    free(data);
    return rc;
}

int store_read_archive(store_tree *t, const void *buf, size_t len, char *err, size_t errsize)
{
    struct archive *a = archive_read_new();
    if (!a) {
        txt_set(err, errsize, "out of memory");
        return -1;
    }
    archive_read_support_filter_gzip(a);
    archive_read_support_format_tar(a);
    int rc = 0;
    if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK) {
        txt_set(err, errsize, "not a tar or tar.gz archive: %s", archive_error_string(a));
        rc = -1;
    }
    /* Headers cost bytes too: the stream inflated is bounded beside the
     * files it holds (a bomb of headers or padding is stopped). */
    la_int64_t inflated_cap = (la_int64_t)t->max_bytes + 1024 * (la_int64_t)t->max_files +
                              (1 << 20);
    struct archive_entry *ent;
    while (rc == 0) {
        int r = archive_read_next_header(a, &ent);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            txt_set(err, errsize, "a damaged archive: %s", archive_error_string(a));
            rc = -1;
        } else if (archive_filter_bytes(a, 0) > inflated_cap) {
            txt_set(err, errsize, "too big: over %lld bytes once inflated",
                    (long long)inflated_cap);
            rc = -1;
        } else {
            rc = archive_entry_add(t, a, ent, err, errsize);
        }
    }
    archive_read_free(a);
    if (rc == 0 && t->n == 0) {
        txt_set(err, errsize, "an empty archive");
        rc = -1;
    }
    return rc < 0 ? -1 : store_tree_check(t, err, errsize);
}

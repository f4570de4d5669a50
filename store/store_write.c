/*
 * store_write.c - a checked store_tree out of memory (store.h): packed as
 * a .tar.gz (what `arena submit` sends), or written into the store under
 * its hash. Writing goes into a fresh folder inside the store's own, by
 * paths already checked (no '..', no absolute path, none through a link),
 * each file created new (O_EXCL, O_NOFOLLOW); the folder is renamed to
 * its hash only once whole and read-only, so a reader never sees half.
 */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "txt.h"

typedef struct mem_out {
    char *buf;
    size_t len, cap;
    int failed;
} mem_out;

static la_ssize_t mem_write(struct archive *a, void *ctx, const void *data, size_t n)
{
    (void)a;
    mem_out *m = ctx;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->len + n)
            cap *= 2;
        char *grown = realloc(m->buf, cap);
        if (!grown) {
            m->failed = 1;
            return -1;
        }
        m->buf = grown;
        m->cap = cap;
    }
    memcpy(m->buf + m->len, data, n);
    m->len += n;
    return (la_ssize_t)n;
}

int store_pack(const store_tree *t, void **buf, size_t *len, char *err, size_t errsize)
{
    mem_out m = { 0 };
    struct archive *a = archive_write_new();
    struct archive_entry *ent = archive_entry_new();
    int ok = a && ent && archive_write_add_filter_gzip(a) == ARCHIVE_OK &&
             archive_write_set_format_pax_restricted(a) == ARCHIVE_OK &&
             archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK &&
             archive_write_open2(a, &m, NULL, mem_write, NULL, NULL) == ARCHIVE_OK;
    for (int i = 0; ok && i < t->n; i++) {
        const store_entry *e = &t->e[i];
        archive_entry_clear(ent);
        archive_entry_set_pathname(ent, e->path);
        archive_entry_set_mtime(ent, 0, 0);
        if (e->kind == STORE_DIR) {
            archive_entry_set_filetype(ent, AE_IFDIR);
            archive_entry_set_perm(ent, 0755);
        } else if (e->kind == STORE_LINK) {
            archive_entry_set_filetype(ent, AE_IFLNK);
            archive_entry_set_perm(ent, 0777);
            archive_entry_set_symlink(ent, e->data);
        } else {
            archive_entry_set_filetype(ent, AE_IFREG);
            archive_entry_set_perm(ent, e->exec ? 0755 : 0644);
            archive_entry_set_size(ent, (la_int64_t)e->size);
        }
        ok = archive_write_header(a, ent) == ARCHIVE_OK &&
             (e->kind != STORE_FILE || !e->size ||
              archive_write_data(a, e->data, e->size) == (la_ssize_t)e->size);
    }
    ok = ok && archive_write_close(a) == ARCHIVE_OK && !m.failed;
    if (!ok)
        txt_set(err, errsize, "cannot pack the files: %s",
                a && archive_error_string(a) ? archive_error_string(a) : "out of memory");
    archive_entry_free(ent);
    archive_write_free(a);
    if (!ok) {
        free(m.buf);
        return -1;
    }
    *buf = m.buf;
    *len = m.len;
    return 0;
}

int store_root_for(const char *db_path, char *out, size_t size)
{
    char here[4096] = "";
    if (db_path[0] != '/' && !getcwd(here, sizeof here))
        return -1;
    return snprintf(out, size, "%s%s%s.store", here, here[0] ? "/" : "", db_path) < (int)size
               ? 0 : -1;
}

/* Removing a stored folder: its folders made writable first. */
static int make_writable(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)f;
    if (flag == FTW_D)
        chmod(path, 0700);
    (void)st;
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)f;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void store_remove(const char *dir)
{
    nftw(dir, make_writable, 16, FTW_PHYS);
    nftw(dir, remove_one, 16, FTW_PHYS | FTW_DEPTH);
}

/* Writes every entry under the open folder fd. 0, or -1 with err. */
static int write_entries(int fd, const store_tree *t, char *err, size_t errsize)
{
    for (int i = 0; i < t->n; i++) {
        const store_entry *e = &t->e[i];
        int ok;
        if (e->kind == STORE_DIR) {
            ok = mkdirat(fd, e->path, 0700) == 0;
        } else if (e->kind == STORE_LINK) {
            ok = symlinkat(e->data, fd, e->path) == 0;
        } else {
            int f = openat(fd, e->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                           0600);
            ok = f >= 0;
            size_t at = 0;
            while (ok && at < e->size) {
                ssize_t n = write(f, e->data + at, e->size - at);
                ok = n > 0 || (n < 0 && errno == EINTR);
                at += n > 0 ? (size_t)n : 0;
            }
            ok = ok && fchmod(f, e->exec ? 0555 : 0444) == 0;
            if (f >= 0 && close(f) != 0)
                ok = 0;
        }
        if (!ok) {
            txt_set(err, errsize, "cannot write %s into the store: %s", e->path,
                    strerror(errno));
            return -1;
        }
    }
    for (int i = t->n - 1; i >= 0; i--)     /* children first: then read-only */
        if (t->e[i].kind == STORE_DIR && fchmodat(fd, t->e[i].path, 0555, 0) != 0) {
            txt_set(err, errsize, "cannot seal %s: %s", t->e[i].path, strerror(errno));
            return -1;
        }
    return 0;
}

int store_put(const char *root, const store_tree *t, char hex[STORE_HASH_HEX + 1], char *dir,
              size_t dirsize, char *err, size_t errsize)
{
    store_tree_hash(t, hex);
    if (snprintf(dir, dirsize, "%s/%s", root, hex) >= (int)dirsize) {
        txt_set(err, errsize, "the store's path is too long");
        return -1;
    }
    /* The store is traversable by the bots' sandbox uids, not listable. */
    if (mkdir(root, 0711) < 0 && errno != EEXIST) {
        txt_set(err, errsize, "cannot make the store %s: %s", root, strerror(errno));
        return -1;
    }
    chmod(root, 0711);
    struct stat st;
    if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/.new-XXXXXX", root);
    if (!mkdtemp(tmp)) {
        txt_set(err, errsize, "cannot write into the store %s: %s", root, strerror(errno));
        return -1;
    }
    int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = fd < 0 ? -1 : write_entries(fd, t, err, errsize);
    if (fd < 0)
        txt_set(err, errsize, "cannot open %s: %s", tmp, strerror(errno));
    if (fd >= 0 && rc == 0 && (fchmod(fd, 0555) != 0 || fsync(fd) != 0))
        rc = -1, txt_set(err, errsize, "cannot seal %s: %s", tmp, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (rc == 0 && rename(tmp, dir) != 0) {
        if (errno == EEXIST || errno == ENOTEMPTY) {   /* stored meanwhile, by another */
            store_remove(tmp);
            return 0;
        }
        txt_set(err, errsize, "cannot store %s: %s", dir, strerror(errno));
        rc = -1;
    }
    if (rc < 0) {
        store_remove(tmp);
        return -1;
    }
    return 1;
}

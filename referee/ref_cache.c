/*
 * ref_cache.c - a worker's cache of bots' files by content hash
 * (ref_cache.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ref_cache.h"
#include "ref_link.h"
#include "store.h"

int ref_cache_open(ref_cache *c, const char *dir, int64_t mb, char *err, size_t size)
{
    memset(c, 0, sizeof *c);
    if (mb < 1 || mb > (1 << 20)) {
        snprintf(err, size, "--cache-mb must be from 1 to %d", 1 << 20);
        return -1;
    }
    c->max_bytes = (uint64_t)mb << 20;
    if (mkdir(dir, 0711) < 0 && errno != EEXIST) {
        snprintf(err, size, "cannot make the cache %s: %s", dir, strerror(errno));
        return -1;
    }
    char real[PATH_MAX];
    if (!realpath(dir, real)) {
        snprintf(err, size, "the cache %s: %s", dir, strerror(errno));
        return -1;
    }
    if (strlen(real) + 1 + REF_LINK_HASH_HEX >= sizeof c->dir) {
        snprintf(err, size, "the cache's path %s is too long", real);
        return -1;
    }
    snprintf(c->dir, sizeof c->dir, "%s", real);
    DIR *d = opendir(c->dir);
    if (!d) {
        snprintf(err, size, "cannot read the cache %s: %s", c->dir, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (!strncmp(e->d_name, ".new-", 5)) {         /* store_put's, cut short */
            char path[512];
            snprintf(path, sizeof path, "%s/%s", c->dir, e->d_name);
            store_remove(path);
        }
    closedir(d);
    return 0;
}

/* 1 when the copy at path holds exactly the files of `hash`; else 0, with
 * what differs in why. */
static int intact(const ref_cache *c, const char *path, const char *hash, char *why,
                  size_t size)
{
    store_tree t;
    store_tree_init(&t, c->max_bytes, REF_CACHE_MAX_FILES);
    char hex[STORE_HASH_HEX + 1];
    int ok = store_read_dir(&t, path, why, size) == 0;
    if (ok) {
        store_tree_hash(&t, hex);
        ok = !strcmp(hex, hash);
        if (!ok)
            snprintf(why, size, "its files hash to %.12s...", hex);
    }
    store_tree_free(&t);
    return ok;
}

/* Fetches `hash`, checks it hashes so, writes it into the cache. */
static int fetch_into(ref_cache *c, const char *hash, ref_cache_fetch_fn *fetch, void *ctx,
                      char *path, size_t path_size, char *err, size_t size)
{
    void *buf = NULL;
    size_t len = 0;
    if (fetch(ctx, hash, &buf, &len, err, size) < 0)
        return -1;
    store_tree t;
    store_tree_init(&t, c->max_bytes, REF_CACHE_MAX_FILES);
    char hex[STORE_HASH_HEX + 1], why[256];
    int rc = store_read_archive(&t, buf, len, why, sizeof why);
    free(buf);
    if (rc < 0)
        snprintf(err, size, "the arena's archive of %.12s... is refused: %s", hash, why);
    if (rc == 0) {
        store_tree_hash(&t, hex);
        if (strcmp(hex, hash) != 0) {
            snprintf(err, size, "the arena sent files that hash to %.12s..., not %.12s...", hex,
                     hash);
            rc = -1;
        }
    }
    if (rc == 0 && store_put(c->dir, &t, hex, path, path_size, why, sizeof why) < 0) {
        snprintf(err, size, "cannot cache %.12s...: %s", hash, why);
        rc = -1;
    }
    if (rc == 0)
        fprintf(stderr, "referee worker: fetched bot %.12s... (%zu bytes packed, %llu "
                "unpacked) into %s\n", hash, len, (unsigned long long)t.bytes, c->dir);
    store_tree_free(&t);
    return rc;
}

int ref_cache_get(ref_cache *c, const char *hash, ref_cache_fetch_fn *fetch, void *ctx,
                  char *path, size_t path_size, char *err, size_t size)
{
    if (!ref_link_hash_ok(hash)) {
        snprintf(err, size, "not a content hash");
        return -1;
    }
    snprintf(path, path_size, "%s/%s", c->dir, hash);
    struct stat st;
    if (lstat(path, &st) == 0) {
        char why[256] = "";
        if (S_ISDIR(st.st_mode) && intact(c, path, hash, why, sizeof why)) {
            utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);   /* used now */
            return 0;
        }
        fprintf(stderr, "referee worker: the cached copy of bot %.12s... changed (%s): "
                "discarded, fetched again\n", hash, S_ISDIR(st.st_mode) ? why : "not a folder");
        if (S_ISDIR(st.st_mode))
            store_remove(path);
        else
            unlink(path);
        if (lstat(path, &st) == 0) {
            snprintf(err, size, "cannot discard the changed copy %s", path);
            return -1;
        }
    }
    return fetch_into(c, hash, fetch, ctx, path, path_size, err, size);
}

int ref_cache_verified(const ref_cache *c, const char *hash, char *path, size_t path_size,
                       char *err, size_t size)
{
    struct stat st;
    if (!ref_link_hash_ok(hash)) {
        snprintf(err, size, "not a content hash");
        return -1;
    }
    snprintf(path, path_size, "%s/%s", c->dir, hash);
    if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, size, "bot %.12s... left the cache after its check", hash);
        return -1;
    }
    return 0;
}

/* ---- least recently used out ------------------------------------------- */

typedef struct entry {
    char     hash[REF_LINK_HASH_HEX + 1];
    uint64_t bytes;
    struct timespec used;
} entry;

static uint64_t tree_bytes;

static int add_size(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)path, (void)f;
    if (flag == FTW_F || flag == FTW_SL)
        tree_bytes += (uint64_t)st->st_size;
    return 0;
}

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const entry *)a)->used, *y = &((const entry *)b)->used;
    return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1)
                                  : (x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec);
}

static int kept(const char *hash, const char *const *keep, int n)
{
    for (int i = 0; i < n; i++)
        if (keep[i] && !strcmp(keep[i], hash))
            return 1;
    return 0;
}

void ref_cache_trim(const ref_cache *c, const char *const *keep, int n)
{
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    entry *e = NULL;
    int count = 0, cap = 0;
    uint64_t total = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", c->dir, de->d_name);
        if (!ref_link_hash_ok(de->d_name) || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
            continue;
        if (count == cap) {
            entry *grown = realloc(e, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *e);
            if (!grown)
                break;
            e = grown;
        }
        tree_bytes = 0;
        nftw(path, add_size, 16, FTW_PHYS);
        e[count] = (entry){ .bytes = tree_bytes, .used = st.st_mtim };
        memcpy(e[count].hash, de->d_name, sizeof e[count].hash);   /* 64 digits and NUL */
        total += e[count++].bytes;
    }
    closedir(d);
    if (count)
        qsort(e, (size_t)count, sizeof *e, older_first);
    for (int i = 0; i < count && total > c->max_bytes; i++) {
        if (kept(e[i].hash, keep, n))
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", c->dir, e[i].hash);
        store_remove(path);
        total -= e[i].bytes;
        fprintf(stderr, "referee worker: evicted bot %.12s... from the cache (least recently "
                "used; %llu MB cap)\n", e[i].hash, (unsigned long long)(c->max_bytes >> 20));
    }
    free(e);
}

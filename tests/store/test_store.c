/*
 * test_store.c - the store by content hash (store/store.h) on real files:
 * a folder stored once under the hash of its contents, read-only, the same
 * hash from the folder and from its archive; and hostile inputs the test
 * makes itself (archives written entry by entry with libarchive, folders
 * on disk): a link out, a path out of an archive, an absolute path, 300 MB
 * of zeros, a compression bomb, 100,000 files, a fifo, a device, a name
 * that is not UTF-8, a hard link, a damaged archive. Each is refused with
 * its reason, and nothing is written anywhere: the test's folder holds
 * afterwards exactly what it held before.
 */
#define _GNU_SOURCE
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "store.h"

static char base[256];        /* the test's folder: the store and every input in it */
static char root[300];        /* base/arena.db.store */

/* ---- archives made entry by entry ----------------------------------------- */

typedef struct mem {
    char *buf;
    size_t len, cap;
} mem;

static la_ssize_t mem_write(struct archive *a, void *ctx, const void *data, size_t n)
{
    (void)a;
    mem *m = ctx;
    if (m->len + n > m->cap) {
        m->cap = (m->len + n) * 2;
        m->buf = realloc(m->buf, m->cap);
        assert_non_null(m->buf);
    }
    memcpy(m->buf + m->len, data, n);
    m->len += n;
    return (la_ssize_t)n;
}

typedef struct writer {
    struct archive *a;
    mem out;
} writer;

static void w_open(writer *w, int gzip)
{
    memset(w, 0, sizeof *w);
    w->a = archive_write_new();
    if (gzip) {
        archive_write_add_filter_gzip(w->a);
        archive_write_set_filter_option(w->a, "gzip", "compression-level", "1");
    }
    archive_write_set_format_gnutar(w->a);
    assert_int_equal(archive_write_open2(w->a, &w->out, NULL, mem_write, NULL, NULL),
                     ARCHIVE_OK);
}

/* An entry of any type; a regular file's `size` bytes are zeros when data
 * is NULL, written in pieces (so 300 MB never sits in memory). */
static void w_entry(writer *w, const char *path, mode_t type, const char *data, uint64_t size,
                    const char *link)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, path);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, 0644);
    if (type == AE_IFLNK)
        archive_entry_set_symlink(e, link);
    if (type == AE_IFREG && link)
        archive_entry_set_hardlink(e, link);
    if (type == AE_IFREG)
        archive_entry_set_size(e, (la_int64_t)size);
    assert_int_equal(archive_write_header(w->a, e), ARCHIVE_OK);
    static char zeros[1 << 16];
    for (uint64_t at = 0; type == AE_IFREG && at < size;) {
        size_t n = size - at < sizeof zeros ? (size_t)(size - at) : sizeof zeros;
        assert_true(archive_write_data(w->a, data ? data + at : zeros, n) > 0);
        at += n;
    }
    archive_entry_free(e);
}

static void w_close(writer *w)
{
    archive_write_close(w->a);
    archive_write_free(w->a);
}

/* ---- the test's folder ------------------------------------------------------ */

static int count_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)p, (void)st, (void)flag, (void)f;
    return 0;
}

static int nentries;
static int count_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)p, (void)st, (void)flag, (void)f;
    nentries++;
    return count_one(p, st, flag, f);
}

/* Everything under base, counted. */
static int entries_under_base(void)
{
    nentries = 0;
    nftw(base, count_entry, 16, FTW_PHYS);
    return nentries;
}

/* An archive refused with a reason holding `why`, and nothing written. */
static void refused_archive(const mem *m, const char *why)
{
    int before = entries_under_base();
    store_tree t;
    store_tree_init(&t, 0, 0);
    char err[512] = "";
    assert_int_equal(store_read_archive(&t, m->buf, m->len, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("refused for '%s', not '%s'", err, why);
    store_tree_free(&t);
    assert_int_equal(entries_under_base(), before);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* A small bot folder: base/NAME with a script, a library folder, a link. */
static void make_bot(const char *name, char *dir, size_t size)
{
    snprintf(dir, size, "%s/%s", base, name);
    char p[1024];
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(p, sizeof p, "%s/bot.sh", dir);
    write_file(p, "#!/bin/sh\nexec python3 lib/main.py\n", 0755);
    snprintf(p, sizeof p, "%s/lib", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/lib/main.py", dir);
    write_file(p, "print('hello')\n", 0644);
    snprintf(p, sizeof p, "%s/main.py", dir);
    assert_int_equal(symlink("lib/main.py", p), 0);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_stored_once_read_only_same_hash(void **state)
{
    (void)state;
    char dir[512], err[512] = "", hex[STORE_HASH_HEX + 1], hex2[STORE_HASH_HEX + 1];
    char stored[600], stored2[600];
    make_bot("good", dir, sizeof dir);
    store_tree t;
    store_tree_init(&t, 0, 0);
    if (store_read_dir(&t, dir, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(t.n, 4);
    assert_int_equal(store_put(root, &t, hex, stored, sizeof stored, err, sizeof err), 1);
    assert_int_equal(strlen(hex), 64);
    /* read-only, the exec bit kept, the link a link */
    struct stat st;
    char p[700];
    snprintf(p, sizeof p, "%s/bot.sh", stored);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0555);
    snprintf(p, sizeof p, "%s/lib/main.py", stored);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0444);
    assert_int_equal(stat(stored, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0555);
    snprintf(p, sizeof p, "%s/main.py", stored);
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    /* the same files packed and read back: the same hash, stored already */
    void *buf;
    size_t len;
    assert_int_equal(store_pack(&t, &buf, &len, err, sizeof err), 0);
    store_tree back;
    store_tree_init(&back, 0, 0);
    if (store_read_archive(&back, buf, len, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(store_put(root, &back, hex2, stored2, sizeof stored2, err, sizeof err), 0);
    assert_string_equal(hex, hex2);
    assert_string_equal(stored, stored2);
    /* the stored copy read as a folder: the same hash again */
    store_tree again;
    store_tree_init(&again, 0, 0);
    assert_int_equal(store_read_dir(&again, stored, err, sizeof err), 0);
    store_tree_hash(&again, hex2);
    assert_string_equal(hex, hex2);
    /* one byte changed: another hash */
    back.e[0].data[0] ^= 1;
    store_tree_hash(&back, hex2);
    assert_string_not_equal(hex, hex2);
    free(buf);
    store_tree_free(&t);
    store_tree_free(&back);
    store_tree_free(&again);
}

static void test_archive_paths_refused(void **state)
{
    (void)state;
    struct { const char *path, *why; } cases[] = {
        { "../escape.txt", "'..'" },
        { "bot/../../escape.txt", "'..'" },
        { "/tmp/escape.txt", "absolute path" },
        { "bad\xff\xfename", "not valid UTF-8" },
        { "bad\nname", "not valid UTF-8" },
        { "over\xc0\xaflong", "not valid UTF-8" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        writer w;
        w_open(&w, 1);
        w_entry(&w, "ok.txt", AE_IFREG, "fine", 4, NULL);
        w_entry(&w, cases[i].path, AE_IFREG, "evil", 4, NULL);
        w_close(&w);
        refused_archive(&w.out, cases[i].why);
        free(w.out.buf);
    }
}

static void test_archive_links_and_specials_refused(void **state)
{
    (void)state;
    struct { const char *path; mode_t type; const char *link, *why; } cases[] = {
        { "out", AE_IFLNK, "/etc/passwd", "points outside" },
        { "out", AE_IFLNK, "../../etc", "points outside" },
        { "out", AE_IFLNK, "sub/../..", "points outside" },
        { "out", AE_IFLNK, "nowhere", "to nothing" },
        { "fifo", AE_IFIFO, NULL, "fifo" },
        { "dev", AE_IFCHR, NULL, "device" },
        { "hard", AE_IFREG, "ok.txt", "hard link" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        writer w;
        w_open(&w, 1);
        w_entry(&w, "ok.txt", AE_IFREG, "fine", 4, NULL);
        w_entry(&w, "sub/", AE_IFDIR, NULL, 0, NULL);
        w_entry(&w, cases[i].path, cases[i].type, NULL, 0, cases[i].link);
        w_close(&w);
        refused_archive(&w.out, cases[i].why);
        free(w.out.buf);
    }
    /* a link through a link: up.. reached through "l" (a link to "sub")
     * would be the root's parent */
    writer w;
    w_open(&w, 0);
    w_entry(&w, "sub/deep/", AE_IFDIR, NULL, 0, NULL);
    w_entry(&w, "sub/deep/up", AE_IFLNK, NULL, 0, "..");
    w_entry(&w, "sneak", AE_IFLNK, NULL, 0, "sub/deep/up/../..");
    w_close(&w);
    refused_archive(&w.out, "points outside");
    free(w.out.buf);
    /* a file written through a link */
    w_open(&w, 0);
    w_entry(&w, "sub/", AE_IFDIR, NULL, 0, NULL);
    w_entry(&w, "l", AE_IFLNK, NULL, 0, "sub");
    w_entry(&w, "l/x", AE_IFREG, "x", 1, NULL);
    w_close(&w);
    refused_archive(&w.out, "through a link");
    free(w.out.buf);
}

static void test_archive_sizes_refused(void **state)
{
    (void)state;
    writer w;
    /* 300 MB of zeros, really written and compressed */
    w_open(&w, 1);
    w_entry(&w, "zeros", AE_IFREG, NULL, 300ull << 20, NULL);
    w_close(&w);
    assert_true(w.out.len < (2u << 20));
    refused_archive(&w.out, "too big");
    free(w.out.buf);
    /* a compression bomb: files of 8 MB of zeros, each under the limit,
     * their sum far over it */
    w_open(&w, 1);
    for (int i = 0; i < 20; i++) {
        char name[32];
        snprintf(name, sizeof name, "part%d", i);
        w_entry(&w, name, AE_IFREG, NULL, 8u << 20, NULL);
    }
    w_close(&w);
    refused_archive(&w.out, "too big");
    free(w.out.buf);
    /* 100,000 files */
    w_open(&w, 1);
    for (int i = 0; i < 100000; i++) {
        char name[32];
        snprintf(name, sizeof name, "f%06d", i);
        w_entry(&w, name, AE_IFREG, "", 0, NULL);
    }
    w_close(&w);
    refused_archive(&w.out, "too many files");
    free(w.out.buf);
    /* damaged: cut in the middle of a file */
    w_open(&w, 0);
    w_entry(&w, "a", AE_IFREG, NULL, 100000, NULL);
    w_close(&w);
    w.out.len = 50000;
    refused_archive(&w.out, "damaged");
    free(w.out.buf);
    /* not an archive at all */
    mem junk = { .buf = "this is not a tar archive, not even close to one", .len = 48 };
    refused_archive(&junk, "archive");
}

static void test_folders_refused(void **state)
{
    (void)state;
    struct { const char *name, *why; } cases[] = {
        { "linkout", "points outside" },
        { "fifo", "fifo" },
        { "zeros", "too big" },
        { "many", "too many files" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[512], p[600];
        snprintf(dir, sizeof dir, "%s/%s", base, cases[i].name);
        assert_int_equal(mkdir(dir, 0755), 0);
        snprintf(p, sizeof p, "%s/bot.sh", dir);
        write_file(p, "#!/bin/sh\n", 0755);
        snprintf(p, sizeof p, "%s/x", dir);
        if (i == 0) {
            assert_int_equal(symlink("/etc", p), 0);
        } else if (i == 1) {
            assert_int_equal(mkfifo(p, 0644), 0);
        } else if (i == 2) {                 /* 300 MB of zeros, sparse on disk */
            int fd = open(p, O_WRONLY | O_CREAT, 0644);
            assert_int_equal(ftruncate(fd, 300 << 20), 0);
            close(fd);
        } else {
            for (int k = 0; k < STORE_MAX_FILES + 1; k++) {
                snprintf(p, sizeof p, "%s/f%d", dir, k);
                write_file(p, "", 0644);
            }
        }
        int before = entries_under_base();
        store_tree t;
        store_tree_init(&t, 0, 0);
        char err[512] = "";
        assert_int_equal(store_read_dir(&t, dir, err, sizeof err), -1);
        if (!strstr(err, cases[i].why))
            fail_msg("%s refused for '%s', not '%s'", cases[i].name, err, cases[i].why);
        store_tree_free(&t);
        assert_int_equal(entries_under_base(), before);
    }
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag == FTW_DP)
        return rmdir(p), 0;
    return unlink(p), 0;
}

/* The limits are the tree's own, whoever reads into it: the size is the
 * sum of every file (each one under it is not enough), the count exact. */
static void test_tree_limits(void **state)
{
    (void)state;
    char err[512] = "", bytes[60] = { 0 };
    store_tree t;
    store_tree_init(&t, 100, 4);
    assert_int_equal(store_tree_add(&t, "a", STORE_FILE, 0, bytes, 60, err, sizeof err), 0);
    assert_int_equal(store_tree_add(&t, "b", STORE_FILE, 0, bytes, 60, err, sizeof err), -1);
    if (!strstr(err, "too big"))
        fail_msg("refused for '%s', not its size", err);
    assert_int_equal(store_tree_add(&t, "b", STORE_FILE, 0, bytes, 40, err, sizeof err), 0);
    assert_int_equal(store_tree_add(&t, "c", STORE_DIR, 0, NULL, 0, err, sizeof err), 0);
    assert_int_equal(store_tree_add(&t, "c/d", STORE_FILE, 0, bytes, 0, err, sizeof err), 0);
    assert_int_equal(t.n, 4);
    err[0] = 0;
    assert_int_equal(store_tree_add(&t, "e", STORE_FILE, 0, bytes, 0, err, sizeof err), -1);
    if (!strstr(err, "too many files"))
        fail_msg("refused for '%s', not the count", err);
    store_tree_free(&t);
}

/* What a bot runs is in its hash: the exec bit, a name, a link's target. */
static void test_hash_covers_what_runs(void **state)
{
    (void)state;
    char err[512] = "", hex[4][STORE_HASH_HEX + 1];
    for (int v = 0; v < 4; v++) {
        store_tree t;
        store_tree_init(&t, 0, 0);
        assert_int_equal(store_tree_add(&t, v == 2 ? "run" : "bot", STORE_FILE, v == 1,
                                        "#!/bin/sh\n", 10, err, sizeof err), 0);
        assert_int_equal(store_tree_add(&t, "to", STORE_LINK, 0, v >= 2 ? "run" : "bot", 3,
                                        err, sizeof err), 0);
        if (v == 3)
            assert_int_equal(store_tree_add(&t, "run", STORE_FILE, 0, "", 0, err, sizeof err),
                             0);
        if (store_tree_check(&t, err, sizeof err) != 0)
            fail_msg("%s", err);
        store_tree_hash(&t, hex[v]);
        store_tree_free(&t);
    }
    for (int i = 0; i < 4; i++)
        for (int k = i + 1; k < 4; k++)
            if (!strcmp(hex[i], hex[k]))
                fail_msg("trees %d and %d share the hash %s", i, k, hex[i]);
}

static int writable(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)f;
    if (flag == FTW_D)
        chmod(p, 0700);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    snprintf(base, sizeof base, "%s/test-store-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                          : "/tmp");
    assert_non_null(mkdtemp(base));
    snprintf(root, sizeof root, "%s/arena.db.store", base);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    nftw(base, writable, 16, FTW_PHYS);
    nftw(base, remove_entry, 16, FTW_PHYS | FTW_DEPTH);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_once_read_only_same_hash),
        cmocka_unit_test(test_archive_paths_refused),
        cmocka_unit_test(test_archive_links_and_specials_refused),
        cmocka_unit_test(test_archive_sizes_refused),
        cmocka_unit_test(test_folders_refused),
        cmocka_unit_test(test_tree_limits),
        cmocka_unit_test(test_hash_covers_what_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

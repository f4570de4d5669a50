/*
 * test_ref_cache.c - a worker's cache of bots by content hash (ref_cache.h)
 * on a real folder, with a fetch that packs trees held here as the arena
 * would (store_pack): a bot fetched once and used from the cache after;
 * a copy changed by hand (a file, a new file, a file removed) fetched
 * again; an arena sending files that hash to another name refused with
 * nothing written; the least recently used bot evicted past the cap,
 * never one the job keeps; a copy checked before found again unread (the
 * match's process), and nothing found that is not there.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "ref_cache.h"
#include "store.h"

#define BOT_BYTES (600 << 10)   /* two of them pass a 1 MB cache */

typedef struct arena_side {
    store_tree bots[3];
    char       hash[3][STORE_HASH_HEX + 1];
    int        fetched[3];      /* fetches served, per bot */
    int        lie;             /* send bot 1's files whatever is asked */
} arena_side;

static arena_side A;
static char dir[256];

/* A bot of incompressible bytes, told apart by its seed. */
static void make_bot(int k)
{
    store_tree *t = &A.bots[k];
    store_tree_init(t, 0, 0);
    char *data = malloc(BOT_BYTES);
    uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(k + 1);
    for (size_t i = 0; i < BOT_BYTES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        data[i] = (char)x;
    }
    char err[200];
    assert_int_equal(store_tree_add(t, "bot.py", STORE_FILE, 1, "print(1)\n", 9, err,
                                    sizeof err), 0);
    assert_int_equal(store_tree_add(t, "lib/weights", STORE_FILE, 0, data, BOT_BYTES, err,
                                    sizeof err), 0);
    free(data);
    assert_int_equal(store_tree_check(t, err, sizeof err), 0);
    store_tree_hash(t, A.hash[k]);
}

static int fetch(void *ctx, const char *hash, void **buf, size_t *len, char *err, size_t size)
{
    (void)ctx;
    for (int k = 0; k < 3; k++)
        if (!strcmp(hash, A.hash[k])) {
            A.fetched[k]++;
            return store_pack(&A.bots[A.lie ? 1 : k], buf, len, err, size);
        }
    snprintf(err, size, "not a bot of your match");
    return -1;
}

static int setup(void **state)
{
    (void)state;
    memset(&A, 0, sizeof A);
    for (int k = 0; k < 3; k++)
        make_bot(k);
    snprintf(dir, sizeof dir, "%s/ref-cache-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cache[300];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    for (int k = 0; k < 3; k++) {
        char entry[400];
        snprintf(entry, sizeof entry, "%s/%s", cache, A.hash[k]);
        store_remove(entry);
        store_tree_free(&A.bots[k]);
    }
    rmdir(cache);
    rmdir(dir);
    return 0;
}

static void get(ref_cache *c, int k, char *path)
{
    char err[512] = "";
    if (ref_cache_get(c, A.hash[k], fetch, NULL, path, 512, err, sizeof err) < 0)
        fail_msg("bot %d: %s", k, err);
}

static int cached(const ref_cache *c, int k)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", c->dir, A.hash[k]);
    return access(path, F_OK) == 0;
}

/* Changes the cached copy at path by hand, as its owner may. */
static void tamper(const char *path, int how)
{
    char file[600], lib[600];
    snprintf(lib, sizeof lib, "%s/lib", path);
    snprintf(file, sizeof file, "%s/%s", path, how == 2 ? "lib/weights" : how ? "extra" : "bot.py");
    chmod(path, 0755);
    chmod(lib, 0755);
    if (how == 2) {
        assert_int_equal(unlink(file), 0);
        return;
    }
    chmod(file, 0644);
    FILE *f = fopen(file, "a");
    assert_non_null(f);
    fputs("import os; os.system('rm -rf ~')\n", f);
    fclose(f);
}

static void test_fetch_once_then_cached(void **state)
{
    (void)state;
    ref_cache c;
    char cache[300], err[256], path[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(ref_cache_open(&c, cache, 64, err, sizeof err), 0);
    get(&c, 0, path);
    get(&c, 0, path);
    assert_int_equal(A.fetched[0], 1);
    struct stat st;
    char file[600];
    snprintf(file, sizeof file, "%s/bot.py", path);
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0555);    /* read-only, as the store writes */
    for (int how = 0; how < 3; how++) {           /* changed, added to, cut: fetched again */
        tamper(path, how);
        get(&c, 0, path);
        assert_int_equal(A.fetched[0], 2 + how);
        get(&c, 0, path);
        assert_int_equal(A.fetched[0], 2 + how);
    }
}

static void test_lying_arena_refused(void **state)
{
    (void)state;
    ref_cache c;
    char cache[300], err[512] = "", path[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(ref_cache_open(&c, cache, 64, err, sizeof err), 0);
    A.lie = 1;
    assert_int_equal(ref_cache_get(&c, A.hash[2], fetch, NULL, path, sizeof path, err,
                                   sizeof err), -1);
    A.lie = 0;
    assert_non_null(strstr(err, "the arena sent files that hash to"));
    assert_false(cached(&c, 2));
    assert_false(cached(&c, 1));                  /* nor under the name they hash to */
    assert_int_equal(ref_cache_get(&c, "../../etc", fetch, NULL, path, sizeof path, err,
                                   sizeof err), -1);
}

static void test_verified_found_unread(void **state)
{
    (void)state;
    ref_cache c;
    char cache[300], err[256] = "", path[512], again[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(ref_cache_open(&c, cache, 64, err, sizeof err), 0);
    get(&c, 0, path);
    assert_int_equal(ref_cache_verified(&c, A.hash[0], again, sizeof again, err, sizeof err), 0);
    assert_string_equal(again, path);
    assert_int_equal(A.fetched[0], 1);
    assert_int_equal(ref_cache_verified(&c, A.hash[1], again, sizeof again, err, sizeof err), -1);
    assert_non_null(strstr(err, "left the cache"));
    assert_false(cached(&c, 1));                  /* never fetched */
    assert_int_equal(ref_cache_verified(&c, "../../etc", again, sizeof again, err, sizeof err),
                     -1);
}

static void test_least_recently_used_out(void **state)
{
    (void)state;
    ref_cache c;
    char cache[300], err[256], path[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    assert_int_equal(ref_cache_open(&c, cache, 1, err, sizeof err), 0);
    get(&c, 0, path);
    usleep(20000);
    get(&c, 1, path);
    usleep(20000);
    get(&c, 0, path);                             /* 0 used last: 1 goes first */
    const char *keep[] = { A.hash[2] };
    get(&c, 2, path);
    ref_cache_trim(&c, keep, 1);
    assert_false(cached(&c, 1));
    assert_false(cached(&c, 0));                  /* still over 1 MB: the next oldest */
    assert_true(cached(&c, 2));                   /* the job's own, over the cap or not */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fetch_once_then_cached, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lying_arena_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verified_found_unread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_least_recently_used_out, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

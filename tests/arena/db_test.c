/*
 * db_test.c - what the arena database tests share: a private temporary
 * directory, raw SQL that bypasses the library (to build odd files and
 * to tamper), and small builders of bots and matches.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "db_test.h"

char dir[256];
char err[512];

/* ---- helpers ------------------------------------------------------------ */

/* A fresh file name in the test directory for each call. */
const char *db_path(const char *name)
{
    static char buf[8][512];
    static int slot;
    char *p = buf[slot++ % 8];
    snprintf(p, 512, "%s/%s.db", dir, name);
    return p;
}

arena_db *open_new(const char *name)
{
    arena_db *db = NULL;
    assert_int_equal(arena_db_open(&db, db_path(name), 1, err, sizeof err), 0);
    assert_non_null(db);
    return db;
}

/* Raw SQL on a file, bypassing the library (to build odd files, to tamper). */
void raw_exec(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_free(msg);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
}

int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    return v;
}

int64_t add_bot(arena_db *db, const char *name)
{
    arena_bot b = {0};
    snprintf(b.name, sizeof b.name, "%s", name);
    snprintf(b.cmd, sizeof b.cmd, "./agents/%s --fast", name);
    snprintf(b.version, sizeof b.version, "1.0");
    if (arena_db_bot_add(db, &b, err, sizeof err) != 0)
        fail_msg("bot_add %s: %s", name, err);
    arena_bot got;
    assert_int_equal(arena_db_bot_by_name(db, name, &got), 0);
    return got.id;
}

arena_match match2(int64_t a, int64_t b, double score_a, double k)
{
    arena_match m = {0};
    m.game_index = -1;
    snprintf(m.game, sizeof m.game, "duel");
    m.seed = 42;
    m.seats = 2;
    m.bot[0] = a;
    m.bot[1] = b;
    m.team[0] = 0;
    m.team[1] = 1;
    m.score[0] = score_a;
    m.score[1] = 1.0 - score_a;
    snprintf(m.reason, sizeof m.reason, "markers");
    m.culprit = -1;
    m.elo_k = k;
    return m;
}

arena_match match4(const int64_t bot[4], double score_team0, double k)
{
    arena_match m = match2(bot[0], bot[1], score_team0, k);
    m.seats = 4;
    m.bot[2] = bot[2];
    m.bot[3] = bot[3];
    m.team[2] = 0;
    m.team[3] = 1;
    m.score[2] = m.score[0];
    m.score[3] = m.score[1];
    return m;
}

void store_ok(arena_db *db, arena_match *m)
{
    if (arena_db_match_store(db, m, err, sizeof err) != 0)
        fail_msg("match_store: %s", err);
    assert_true(m->id > 0);
}

double elo_of(arena_db *db, int64_t bot)
{
    arena_rating *r = NULL;
    int n = arena_db_results(db, 0, &r);
    assert_true(n >= 0);
    double e = NAN;
    for (int i = 0; i < n; i++)
        if (r[i].bot_id == bot)
            e = r[i].elo;
    free(r);
    assert_false(isnan(e));
    return e;
}

void expect_err(const char *part)
{
    if (!strstr(err, part))
        fail_msg("expected \"%s\" in \"%s\"", part, err);
    assert_null(strchr(err, '\n'));
}

void check_equal(arena_db *db)
{
    err[0] = 0;
    if (arena_db_check_ratings(db, err, sizeof err) != 0)
        fail_msg("check_ratings: %s", err);
    if (arena_db_check_summaries(db, err, sizeof err) != 0)
        fail_msg("check_summaries: %s", err);
}

int db_test_make_dir(void **state)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_arena_db.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

int db_test_remove_dir(void **state)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    char p[600];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(d);
    return rmdir(dir);
}


/*
 * db_test.h - helpers of the arena database tests (db_test.c). Each
 * asserts through cmocka, so a test reads as the behaviour it checks.
 */
#ifndef DB_TEST_H
#define DB_TEST_H

#include <stdint.h>

#include "arena_db.h"

extern char dir[256];        /* the test directory (db_test_make_dir) */
extern char err[512];        /* the last error line of the library */

/* cmocka group setup and teardown: the directory and everything in it. */
int db_test_make_dir(void **state);
int db_test_remove_dir(void **state);

/* DIR/NAME.db (a few at once stay valid), and a fresh database there. */
const char *db_path(const char *name);
arena_db *open_new(const char *name);

/* Raw SQL on a file; raw_int reads the first column of the first row. */
void raw_exec(const char *path, const char *sql);
int64_t raw_int(const char *path, const char *sql);

/* A bot named `name` (version 1.0); its id. */
int64_t add_bot(arena_db *db, const char *name);
/* Matches of the game "duel" outside tournaments: two seats (teams 0, 1),
 * and four (teams 0+2 against 1+3). */
arena_match match2(int64_t a, int64_t b, double score_a, double k);
arena_match match4(const int64_t bot[4], double score_team0, double k);
void store_ok(arena_db *db, arena_match *m);
double elo_of(arena_db *db, int64_t bot);         /* the live rating */
void expect_err(const char *part);                /* in err, on one line */
void check_equal(arena_db *db);                   /* the replay checks pass */

#endif

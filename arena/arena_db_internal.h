/*
 * arena_db_internal.h - what the arena_db_*.c files share and nobody else
 * sees: the handle's layout, the prepared-statement cache, transactions,
 * error lines, and the one Elo rule that both storing a match and
 * checking the ratings must apply identically.
 *
 * arena_db.c      open, schema migrations, helpers, bots
 * arena_db_match.c tournaments, matches and the rating update
 * arena_db_check.c results, pair results, the ratings replay check
 */
#ifndef ARENA_DB_INTERNAL_H
#define ARENA_DB_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "arena_db.h"
#include "clk.h"

/* Distinct SQL texts in the library; the cache asserts it never fills. */
#define ADB_CACHE 48

struct arena_db {
    sqlite3 *h;
    int ncache;
    struct {
        const char *sql;          /* keyed by pointer: each call site owns its text */
        sqlite3_stmt *st;
    } cache[ADB_CACHE];
};

/* Writes one line into err (NULL or size 0: nothing). */
void adb_err(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "WHAT: <sqlite's message>", then returns -1, so callers can
 * `return adb_sqlerr(...)`. Call it before anything that could replace
 * sqlite's message (reset, rollback). */
int adb_sqlerr(arena_db *db, char *err, size_t size, const char *what);

/* The cached statement for `sql` (a string with static storage), reset
 * and with its bindings cleared; NULL when it cannot be prepared. */
sqlite3_stmt *adb_stmt(arena_db *db, const char *sql);
/* Every user of adb_stmt ends with this, so no statement keeps a read
 * transaction open or points at a caller's buffer. */
void adb_done(sqlite3_stmt *st);

/* BEGIN IMMEDIATE (take the write lock now, so a busy database waits in
 * busy_timeout instead of failing half-way), COMMIT, ROLLBACK. */
int adb_begin(arena_db *db, char *err, size_t size);
int adb_begin_read(arena_db *db, char *err, size_t size);
int adb_commit(arena_db *db, char *err, size_t size);
void adb_rollback(arena_db *db);

/* Copies column `col` (NULL becomes "") into a fixed buffer, truncating. */
void adb_col_text(sqlite3_stmt *st, int col, char *dst, size_t size);

/* A C string inside a fixed-size field: 1 if terminated within `size`
 * and (when `nonempty`) not empty. Guards structs a caller filled badly. */
int adb_text_ok(const char *s, size_t size, int nonempty);

/* SQLite INTEGER is signed 64-bit; seeds keep their exact bit pattern. */
static inline int64_t adb_u2i(uint64_t u)
{
    int64_t i;
    memcpy(&i, &u, sizeof i);
    return i;
}
static inline uint64_t adb_i2u(int64_t i) { return (uint64_t)i; }

/* The score values a seat can have, as game.h defines them. */
int adb_score_ok(double s);

/*
 * One match's rating change. elo[i] holds, on entry, the current rating of
 * seat i's bot (equal for seats of the same bot) and, on return, that
 * bot's rating after the match. 2 seats: Elo of seat 0 against seat 1.
 * 4 seats: team 0+2 against 1+3, each team rated as the mean of its two
 * bots, the team's delta added to each member. A bot in several seats
 * gets each of its seats' deltas in turn. Scores and k must be valid
 * (adb_match_ok).
 */
void adb_elo_match(int seats, const int64_t bot[ARENA_MAX_SEATS],
                   const double score[ARENA_MAX_SEATS], double k,
                   double elo[ARENA_MAX_SEATS]);

/* Checks the seats/scores/K of a match; writes why not into err. */
int adb_match_ok(int seats, const double score[ARENA_MAX_SEATS], double k,
                 char *err, size_t size);

#endif

/*
 * arena_db_internal.h - what the arena_db_*.c files share and nobody else
 * sees: the handle's layout, the prepared-statement cache, transactions,
 * error lines, binding by name, and the check of a match's result that both
 * storing a match and checking the ratings apply.
 *
 * arena_db.c            open, migrating, helpers
 * arena_db_schema.c     the schema: its migration scripts
 * arena_db_bot.c        bots: versions, statuses, labels
 * arena_db_tournament.c tournaments
 * arena_db_ladder.c     ladders, their forfeit records and rating fits
 * arena_db_match.c      matches, their seats and the rating update
 * arena_db_check.c      results, pair results, the ratings replay check
 * arena_db_totals.c     per-scope result totals the reports read (schema 18)
 * arena_db_log.c        seats' logs kept with their matches, retention
 * arena_read*.c         what the web shows (arena_read.h)
 * arena_db_user.c       participants (their keys) and their submissions
 * arena_db_worker.c     remote workers admitted by their keys
 */
#ifndef ARENA_DB_INTERNAL_H
#define ARENA_DB_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

#include "arena_db.h"
#include "clk.h"

/* Distinct SQL texts in the library; the cache asserts it never fills. */
#define ADB_CACHE 128

struct arena_db {
    sqlite3 *h;
    int batch;                    /* in a batch: transactions are its savepoints */
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

/* PRAGMA foreign_key_check: 0 when every reference holds, 1 when one does
 * not ("WHAT: table T, row R, refers to a missing row of P"), -1 error.
 * Step 10 of SQLite's ALTER procedure after each migration, which runs
 * with foreign keys off; and part of the replay check. */
int adb_foreign_keys_hold(arena_db *db, char *err, size_t size, const char *what);

/* Binding by name (":name"; the statement must use it). The text is bound
 * SQLITE_STATIC: it must outlive the step. NULL text binds NULL. Each
 * returns sqlite's code; ADB_BIND chains them, keeping the first failure
 * in the caller's `rc`. */
int adb_bind_text(sqlite3_stmt *st, const char *name, const char *v);
int adb_bind_int(sqlite3_stmt *st, const char *name, int64_t v);
int adb_bind_double(sqlite3_stmt *st, const char *name, double v);
#define ADB_BIND(call) do { if (rc == SQLITE_OK) rc = (call); } while (0)

/* The schema's migration scripts, in order: ARENA_DB_SCHEMA of them
 * (arena_db_schema.c). */
extern const char *const adb_migrations[ARENA_DB_SCHEMA];

/* Per-bot summaries computed from the seats, as schema 11 fills its tables
 * and as `arena check` recomputes them: each bot's W-D-L against each bot
 * on another team of its matches (a seat's score against the other's),
 * and the matches each bot forfeited (the culprit's seat). */
#define ADB_OPPONENTS_FROM_SEATS \
    "SELECT s.bot_id, o.bot_id, sum(s.score > o.score), sum(s.score = o.score)," \
    " sum(s.score < o.score) FROM match_seats s" \
    " JOIN match_seats o ON o.match_id = s.match_id AND o.team <> s.team" \
    " GROUP BY s.bot_id, o.bot_id"
#define ADB_FORFEITS_FROM_SEATS \
    "SELECT s.bot_id, s.match_id FROM matches m" \
    " JOIN match_seats s ON s.match_id = m.id AND s.seat = m.culprit"

/* The result totals' tables (schema 18, arena_db_totals.c): created so by
 * the migration, and as TEMP tables of the same names (no references to
 * main's) by `arena check`, which replays the matches into them. */
#define ADB_TOTALS_TABLES(TEMP, REFS) \
    "CREATE " TEMP "TABLE result_scopes(" \
    "  id INTEGER PRIMARY KEY," \
    "  game TEXT NOT NULL, seats INTEGER NOT NULL," \
    "  tournament_id INTEGER NOT NULL, ladder_id INTEGER NOT NULL," /* 0: every */ \
    "  matches INTEGER NOT NULL,"                  /* void ones too */ \
    "  exact INTEGER NOT NULL,"                    /* 0: the reports read the matches */ \
    "  team_fit INTEGER NOT NULL,"                 /* every rated match 2 v 2 */ \
    "  UNIQUE (tournament_id, ladder_id, game, seats));" \
    "CREATE " TEMP "TABLE result_bots(" \
    "  scope_id INTEGER NOT NULL" REFS("result_scopes") "," \
    "  bot_id INTEGER NOT NULL" REFS("bots") "," \
    "  seen INTEGER NOT NULL,"                     /* match id * 64 + seat, first seen */ \
    "  games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL," \
    "  losses INTEGER NOT NULL, points REAL NOT NULL, elo REAL NOT NULL," \
    "  PRIMARY KEY (scope_id, bot_id)) WITHOUT ROWID;" \
    "CREATE " TEMP "TABLE result_pairs(" \
    "  scope_id INTEGER NOT NULL" REFS("result_scopes") "," \
    "  a INTEGER NOT NULL" REFS("bots") "," \
    "  b INTEGER NOT NULL" REFS("bots") ","         /* a < b */ \
    "  seen INTEGER NOT NULL,"                     /* match id * 64 + game, first met */ \
    "  wins_a INTEGER NOT NULL, draws INTEGER NOT NULL, wins_b INTEGER NOT NULL," \
    "  PRIMARY KEY (scope_id, a, b)) WITHOUT ROWID;" \
    "CREATE " TEMP "TABLE result_teams(" \
    "  scope_id INTEGER NOT NULL" REFS("result_scopes") "," \
    "  a0 INTEGER NOT NULL, a1 INTEGER NOT NULL, b0 INTEGER NOT NULL, b1 INTEGER NOT NULL," \
    "  score REAL NOT NULL,"                       /* team a's */ \
    "  seen INTEGER NOT NULL,"                     /* the match first played */ \
    "  games INTEGER NOT NULL," \
    "  PRIMARY KEY (scope_id, a0, a1, b0, b1, score)) WITHOUT ROWID;"
#define ADB_REFERENCES(table) " REFERENCES " table "(id)"
#define ADB_NO_REFERENCES(table) ""

/* Result totals (arena_db_totals.c): a stored match into them, inside the
 * store's transaction (mid its new id); every match into them from empty
 * (the migration); the kinds of match f selects from them (count, -2 when
 * they cannot answer f, -1). 0, or -1 with err. */
int adb_totals_add(arena_db *db, const arena_match *m, int64_t mid, char *err, size_t size);
int adb_totals_fill(arena_db *db, char *err, size_t size);
int adb_totals_kinds(arena_db *db, const arena_match_filter *f, arena_match_filter **out);
/* Each seat's player for ratings/: a bot is known by its first seat. */
void adb_match_players(const arena_match *m, int *player);

/* A kind of match (game, seats) read from columns 0 and 1, with the
 * filter ctx's tournament and ladder: adb_collect's row of kinds. */
void adb_kind_row(sqlite3_stmt *st, void *out, const void *ctx);

/* A bot's label in SQL, for the bots row aliased `b`: its name, then
 * "@VERSION" when another row has the same name, or "#ID" when the
 * version does not tell them apart either (arena_bot.label). */
#define ADB_BOT_LABEL(b) \
    "(" b ".name || CASE" \
    " WHEN NOT EXISTS (SELECT 1 FROM bots o WHERE o.name = " b ".name AND o.id <> " b ".id)" \
    "  THEN ''" \
    " WHEN " b ".version <> '' AND NOT EXISTS (SELECT 1 FROM bots o WHERE o.name = " b ".name" \
    "  AND o.version = " b ".version AND o.id <> " b ".id) THEN '@' || " b ".version" \
    " ELSE '#' || " b ".id END)"

/* A name of a bot or a participant: 1-63 characters of [A-Za-z0-9_.-]. */
int adb_name_ok(const char *name);

/* Copies column `col` (NULL becomes "") into a fixed buffer, truncating. */
void adb_col_text(sqlite3_stmt *st, int col, char *dst, size_t size);

/* Grows a malloc'ed array (*v, NULL at first) to hold at least n + 1
 * elements of `elem` bytes, doubling *cap: 0, or -1 (*v unchanged). */
int adb_grow(void **v, int *cap, int n, size_t elem);

/* Reads one result row into an element the caller's array holds (zeroed
 * first); ctx is what the caller passed along. */
typedef void adb_row_fn(sqlite3_stmt *st, void *elem, const void *ctx);
/* Steps st (its binding's code in rc) to the end, one element per row:
 * the count, *out malloc'ed (never NULL then, even for no rows); or -1.
 * Resets st. */
int adb_collect(sqlite3_stmt *st, int rc, size_t elem, adb_row_fn *row, const void *ctx,
                void **out);

/* A C string inside a fixed-size field: 1 if terminated within `size`
 * and (when `nonempty`) not empty. Guards structs a caller filled badly. */
int adb_text_ok(const char *s, size_t size, int nonempty);

/* A bot's or a worker's name: 1-63 letters, digits, '_', '.', '-'. */
int adb_name_ok(const char *name);

/* SQLite INTEGER is signed 64-bit; seeds keep their exact bit pattern. */
static inline int64_t adb_u2i(uint64_t u)
{
    int64_t i;
    memcpy(&i, &u, sizeof i);
    return i;
}
static inline uint64_t adb_i2u(int64_t i) { return (uint64_t)i; }

/* Matches as `f` selects them (NULL: all), in id order, without records,
 * one at a time: the cursor's first step is in *rc (SQLITE_ROW: a match
 * is there to read; SQLITE_DONE: none; else an error). adb_match_next
 * reads the match and steps to the next, leaving the step's code in *rc
 * (SQLITE_CORRUPT for a damaged match, and -1). End with adb_done. */
sqlite3_stmt *adb_match_cursor(arena_db *db, const arena_match_filter *f, int *rc);
int adb_match_next(sqlite3_stmt *st, int *rc, arena_match *m);

/* Checks what rating a match needs (seats, teams, scores, K): 1 fine, or
 * 0 with why not in err. Storing and the replay check both ask it, then
 * rate with arena_elo_match. */
int adb_match_ok(const arena_match *m, char *err, size_t size);

/* Inserts a match's seat logs, inside the caller's transaction. 0, or -1. */
int adb_logs_store(arena_db *db, int64_t match_id, const arena_log *logs, int n, char *err,
                   size_t size);

#endif

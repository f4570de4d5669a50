/*
 * arena_db.c - opening the arena's SQLite database and migrating its
 * schema, and the helpers the other arena_db_*.c files share.
 *
 * The schema is an ordered list of migration scripts; PRAGMA user_version
 * counts how many have been applied, each in its own transaction, so a
 * database is always at exactly one version. Tournaments, matches and
 * ratings live in arena_db_match.c, reports and the replay check in
 * arena_db_check.c (see arena_db_internal.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"
#include "txt.h"
#include "game.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

/* 'ArNa' in the header's application_id: tells our files from other
 * SQLite files that happen to have a user_version. */
#define ADB_APPLICATION_ID 1098010209

/* ---- schema ------------------------------------------------------------- */

/*
 * Times are Unix milliseconds. Seeds are 64-bit patterns stored as signed
 * INTEGER; hashes are 16 lower-case hex digits. Bots are never deleted
 * (removed_at marks them) so every match keeps its bots.
 *
 * A migration is one script: it runs in one transaction with foreign keys
 * off, then `PRAGMA foreign_key_check` must find nothing (SQLite's 12-step
 * ALTER procedure, https://sqlite.org/lang_altertable.html#otheralter).
 * Scripts may use the named parameters of migrate_params().
 */

/* One field of a schema-1 tournament key ("format=F games=N ... bots=1,2 |
 * options"), from `head`, the part before " | " with a space in front;
 * NULL when the field is missing, which the NOT NULL columns then refuse. */
#define KEY_FIELD(name) \
    "substr(head, NULLIF(instr(head, ' " name "='), 0) + length(' " name "='))"

/*
 * Schema 11's triggers: seat S's results (NEW or OLD) against the seats of
 * other teams in its match, added to bot_opponents both ways with SIGN ""
 * or taken away with "-" (a pair left at 0-0-0 goes), and its forfeit.
 */
#define SUMS_UPSERT \
    " ON CONFLICT (bot_id, opponent_id) DO UPDATE SET wins = wins + excluded.wins," \
    " draws = draws + excluded.draws, losses = losses + excluded.losses;"
#define PAIRS_OF(S, SIGN, A, B) \
    "INSERT INTO bot_opponents(bot_id, opponent_id, wins, draws, losses)" \
    " SELECT " A ".bot_id, " B ".bot_id, " SIGN "(" A ".score > " B ".score)," \
    " " SIGN "(" A ".score = " B ".score), " SIGN "(" A ".score < " B ".score)" \
    " FROM match_seats o WHERE o.match_id = " S ".match_id AND o.team <> " S ".team" SUMS_UPSERT
#define ADD_SEAT(S) \
    PAIRS_OF(S, "", S, "o") PAIRS_OF(S, "", "o", S) \
    "INSERT OR IGNORE INTO bot_forfeits(bot_id, match_id) SELECT " S ".bot_id, " S ".match_id" \
    " FROM matches m WHERE m.id = " S ".match_id AND m.culprit = " S ".seat;"
#define DROP_SEAT(S) \
    PAIRS_OF(S, "-", S, "o") PAIRS_OF(S, "-", "o", S) \
    "DELETE FROM bot_opponents WHERE bot_id = " S ".bot_id" \
    " AND wins = 0 AND draws = 0 AND losses = 0;" \
    "DELETE FROM bot_opponents WHERE opponent_id = " S ".bot_id" \
    " AND bot_id IN (SELECT bot_id FROM match_seats WHERE match_id = " S ".match_id)" \
    " AND wins = 0 AND draws = 0 AND losses = 0;" \
    "DELETE FROM bot_forfeits WHERE bot_id = " S ".bot_id AND match_id = " S ".match_id" \
    " AND " S ".seat = (SELECT culprit FROM matches WHERE id = " S ".match_id);"

static const char *const migrations[] = {
    /* 1: the first schema */
    "CREATE TABLE bots("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  cmd TEXT NOT NULL,"
    "  cwd TEXT NOT NULL DEFAULT '',"
    "  version TEXT NOT NULL DEFAULT '',"
    "  added_at INTEGER NOT NULL,"
    "  removed_at INTEGER);"
    "CREATE UNIQUE INDEX bots_registered_name ON bots(name) WHERE removed_at IS NULL;"
    "CREATE TABLE tournaments("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL UNIQUE,"
    "  format TEXT NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  bots TEXT NOT NULL,"
    "  planned INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  finished_at INTEGER);"
    "CREATE TABLE matches("
    "  id INTEGER PRIMARY KEY,"
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seats INTEGER NOT NULL CHECK (seats IN (2, 4)),"
    "  bot0 INTEGER NOT NULL REFERENCES bots(id),"
    "  bot1 INTEGER NOT NULL REFERENCES bots(id),"
    "  bot2 INTEGER REFERENCES bots(id),"
    "  bot3 INTEGER REFERENCES bots(id),"
    "  score0 REAL NOT NULL,"
    "  score1 REAL NOT NULL,"
    "  score2 REAL,"
    "  score3 REAL,"
    "  reason TEXT NOT NULL,"
    "  culprit INTEGER,"
    "  detail TEXT NOT NULL,"
    "  decisions INTEGER NOT NULL,"
    "  hash TEXT NOT NULL CHECK (length(hash) = 16),"
    "  record TEXT,"
    "  started_ms INTEGER NOT NULL,"
    "  finished_ms INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  UNIQUE (tournament_id, game_index),"
    "  CHECK ((seats = 2) = (bot2 IS NULL AND bot3 IS NULL"
    "                        AND score2 IS NULL AND score3 IS NULL)));"
    "CREATE TABLE ratings("
    "  bot_id INTEGER PRIMARY KEY REFERENCES bots(id),"
    "  elo REAL NOT NULL,"
    "  games INTEGER NOT NULL);"
    "CREATE TABLE rating_history("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  elo_before REAL NOT NULL,"
    "  elo_after REAL NOT NULL,"
    "  PRIMARY KEY (match_id, bot_id)) WITHOUT ROWID;"
    "PRAGMA application_id = 1098010209;",

    /*
     * 2: any game, any number of seats.
     * - Tournaments name their game and keep their whole spec in columns
     *   (read from the schema-1 key); the spec columns are the identity.
     * - Matches name their game; their seats move to match_seats, one row
     *   per seat. Schema 1 rated 4 seats as teams 0+2 against 1+3 and 2
     *   seats one against the other: team = seat % 2 says both.
     * - Every row written before holds :legacy_game.
     */
    "CREATE TABLE tournaments_new("
    "  id INTEGER PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  format TEXT NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  bots TEXT NOT NULL,"                    /* entrant ids in order, space-separated */
    "  move_ms INTEGER NOT NULL,"
    "  bank_ms INTEGER NOT NULL,"
    "  handshake_ms INTEGER NOT NULL,"
    "  strikes INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  memory_mb INTEGER NOT NULL,"            /* -1: the referee's default */
    "  planned INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL,"
    "  finished_at INTEGER);"
    "INSERT INTO tournaments_new"
    " SELECT id, :legacy_game, format, games, options, seed, bots,"
    "  CAST(" KEY_FIELD("move_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("bank_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("handshake_ms") " AS INTEGER),"
    "  CAST(" KEY_FIELD("strikes") " AS INTEGER),"
    "  CAST(" KEY_FIELD("elo_k") " AS REAL),"
    "  COALESCE(CAST(" KEY_FIELD("memory_mb") " AS INTEGER), -1),"
    "  planned, created_at, finished_at"
    " FROM (SELECT *, ' ' || substr(key, 1, NULLIF(instr(key, ' | '), 0)) AS head"
    "       FROM tournaments);"
    "DROP TABLE tournaments;"
    "ALTER TABLE tournaments_new RENAME TO tournaments;"
    "CREATE UNIQUE INDEX tournaments_spec ON tournaments(game, format, games, options,"
    "  seed, bots, move_ms, bank_ms, handshake_ms, strikes, elo_k, memory_mb);"

    "CREATE TABLE matches_new("
    "  id INTEGER PRIMARY KEY,"
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  game TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seats INTEGER NOT NULL CHECK (seats >= 2),"
    "  reason TEXT NOT NULL,"
    "  culprit INTEGER CHECK (culprit BETWEEN 0 AND seats - 1),"
    "  detail TEXT NOT NULL,"
    "  decisions INTEGER NOT NULL,"
    "  hash TEXT NOT NULL CHECK (length(hash) = 16),"
    "  record TEXT,"
    "  started_ms INTEGER NOT NULL,"
    "  finished_ms INTEGER NOT NULL,"
    "  elo_k REAL NOT NULL,"
    "  UNIQUE (tournament_id, game_index));"
    "INSERT INTO matches_new"
    " SELECT id, tournament_id, game_index, :legacy_game, seed, options, seats, reason,"
    "  culprit, detail, decisions, hash, record, started_ms, finished_ms, elo_k"
    " FROM matches;"
    "CREATE TABLE match_seats("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  seat INTEGER NOT NULL CHECK (seat >= 0),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  team INTEGER NOT NULL CHECK (team >= 0),"
    "  score REAL NOT NULL,"
    "  PRIMARY KEY (match_id, seat)) WITHOUT ROWID;"
    "INSERT INTO match_seats"
    "       SELECT id, 0, bot0, 0, score0 FROM matches"
    " UNION ALL SELECT id, 1, bot1, 1, score1 FROM matches"
    " UNION ALL SELECT id, 2, bot2, 0, score2 FROM matches WHERE seats = 4"
    " UNION ALL SELECT id, 3, bot3, 1, score3 FROM matches WHERE seats = 4;"
    "DROP TABLE matches;"
    "ALTER TABLE matches_new RENAME TO matches;"
    /* A bot's matches, newest first, a page at a time. */
    "CREATE INDEX match_seats_bot ON match_seats(bot_id, match_id);"
    "CREATE INDEX matches_game ON matches(game, seats);",

    /*
     * 3: versions, statuses, ladders and their rating history.
     * - A name may have several registered versions, one row each; a
     *   version names the one it follows. Every bot is active until
     *   disabled (with a reason) or retired.
     * - A ladder's matches carry its id and its own count as game_index.
     * - Each Bradley-Terry refresh of a ladder is a fit, with a row per bot.
     */
    "ALTER TABLE bots ADD COLUMN status TEXT NOT NULL DEFAULT 'active'"
    "  CHECK (status IN ('active', 'disabled', 'retired'));"
    "ALTER TABLE bots ADD COLUMN status_reason TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE bots ADD COLUMN status_ms INTEGER;"
    "ALTER TABLE bots ADD COLUMN previous_id INTEGER REFERENCES bots(id);"
    "DROP INDEX bots_registered_name;"
    "CREATE UNIQUE INDEX bots_registered_version ON bots(name, version)"
    "  WHERE removed_at IS NULL;"
    "CREATE INDEX bots_name ON bots(name, version);"
    "CREATE TABLE ladders("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL UNIQUE,"
    "  game TEXT NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  created_at INTEGER NOT NULL);"
    "ALTER TABLE matches ADD COLUMN ladder_id INTEGER REFERENCES ladders(id);"
    "CREATE UNIQUE INDEX matches_ladder ON matches(ladder_id, game_index)"
    "  WHERE ladder_id IS NOT NULL;"
    "CREATE TABLE rating_fits("
    "  id INTEGER PRIMARY KEY,"
    "  ladder_id INTEGER NOT NULL REFERENCES ladders(id),"
    "  at_ms INTEGER NOT NULL,"
    "  matches INTEGER NOT NULL);"
    "CREATE TABLE rating_fit_bots("
    "  fit_id INTEGER NOT NULL REFERENCES rating_fits(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  rating REAL NOT NULL,"
    "  ci95 REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  PRIMARY KEY (fit_id, bot_id)) WITHOUT ROWID;"
    "CREATE INDEX rating_fit_bots_bot ON rating_fit_bots(bot_id, fit_id);",

    /* 4: each seat's log, an excerpt under the tournament's cap (ref_log.h),
     * kept with its match; retention deletes these rows only. */
    "CREATE TABLE match_logs("
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  seat INTEGER NOT NULL CHECK (seat >= 0),"
    "  bytes INTEGER NOT NULL CHECK (bytes >= 0),"    /* the whole log's size */
    "  text BLOB NOT NULL,"                           /* the excerpt, any bytes */
    "  PRIMARY KEY (match_id, seat));",

    /*
     * 5: a bot's seats with their results, and its rating history, from an
     * index alone (a bot's W-D-L, its page of matches, its rating plot).
     */
    "DROP INDEX match_seats_bot;"
    "CREATE INDEX match_seats_bot ON match_seats(bot_id, match_id, team, score);"
    "CREATE INDEX rating_history_bot ON rating_history(bot_id, match_id);",

    /*
     * 6: the time control's clock is part of a tournament's spec (issue 17).
     * Tournaments stored before were played on the wall clock with bots
     * free to run between their turns, and keep saying so.
     */
    "ALTER TABLE tournaments ADD COLUMN clock TEXT NOT NULL DEFAULT 'wall';"
    "ALTER TABLE tournaments ADD COLUMN wall_ceiling_pct INTEGER NOT NULL DEFAULT 300;"
    "ALTER TABLE tournaments ADD COLUMN ponder INTEGER NOT NULL DEFAULT 1;"
    "DROP INDEX tournaments_spec;"
    "CREATE UNIQUE INDEX tournaments_spec ON tournaments(game, format, games, options,"
    "  seed, bots, move_ms, bank_ms, handshake_ms, strikes, elo_k, memory_mb, clock,"
    "  wall_ceiling_pct, ponder);",

    /* 7: a bot version's own environment (issue 11), NAME=VALUE lines
     * (referee/ref_env.h) handed to the bot besides ARENA_*; '' for none. */
    "ALTER TABLE bots ADD COLUMN env TEXT NOT NULL DEFAULT '';",

    /*
     * 8: matches an arena has handed to its workers and not yet stored, so
     * that a second arena on the same tournament plays the others; a claim
     * lapses when its arena stops renewing it (arena_db_claim.c).
     */
    "CREATE TABLE match_claims("
    "  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),"
    "  game_index INTEGER NOT NULL,"
    "  owner INTEGER NOT NULL,"                       /* a running arena's random id */
    "  expires_ms INTEGER NOT NULL,"                  /* wall clock */
    "  PRIMARY KEY (tournament_id, game_index)) WITHOUT ROWID;"
    "CREATE INDEX match_claims_owner ON match_claims(owner);",

    /*
     * 9: a bot's rating history from indexes alone (the web's bot page,
     * `arena history`, a tournament's starting ratings): both ratings in
     * its index, and each match's finish time in an index of its own, far
     * denser than the rows it would otherwise read one per point.
     */
    "DROP INDEX rating_history_bot;"
    "CREATE INDEX rating_history_bot ON rating_history(bot_id, match_id, elo_before, elo_after);"
    "CREATE INDEX matches_finished ON matches(id, finished_ms);",

    /*
     * 10: each decision of a ladder's SPRT gate (arena_ladder_gate.h): the
     * new version, the older one it had to beat, the test's hypotheses and
     * its answer on their games. Judged again after a restart, a verdict is
     * the same: one row per outcome.
     */
    "CREATE TABLE gate_verdicts("
    "  id INTEGER PRIMARY KEY,"
    "  ladder_id INTEGER NOT NULL REFERENCES ladders(id),"
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  opponent_id INTEGER NOT NULL REFERENCES bots(id),"
    "  outcome TEXT NOT NULL CHECK (outcome IN ('passed', 'failed', 'capped', 'overruled')),"
    "  elo0 REAL NOT NULL, elo1 REAL NOT NULL, alpha REAL NOT NULL, beta REAL NOT NULL,"
    "  llr REAL NOT NULL, lower REAL NOT NULL, upper REAL NOT NULL,"
    "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    "  pairs INTEGER NOT NULL,"
    "  decided_ms INTEGER NOT NULL,"                  /* wall clock */
    "  UNIQUE (ladder_id, bot_id, opponent_id, outcome));",

    /*
     * 11: what a bot's page sums over all its matches, kept as matches are
     * stored: its W-D-L against each opponent, and the matches it
     * forfeited, each read by its bot from a few pages at any size (a
     * GROUP BY over a bot's seats, or a walk of all its matches for its
     * few forfeits, took milliseconds per thousand matches). Triggers keep
     * them, so every writer does, and a seat changed or deleted by hand
     * too: a pair is counted when the later of its two seats goes in (a
     * match's seats go in after it). `arena check` recomputes both.
     */
    "CREATE TABLE bot_opponents("
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  opponent_id INTEGER NOT NULL REFERENCES bots(id),"
    "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,"
    "  PRIMARY KEY (bot_id, opponent_id)) WITHOUT ROWID;"
    "CREATE TABLE bot_forfeits("
    "  bot_id INTEGER NOT NULL REFERENCES bots(id),"
    "  match_id INTEGER NOT NULL REFERENCES matches(id),"
    "  PRIMARY KEY (bot_id, match_id)) WITHOUT ROWID;"
    "INSERT INTO bot_opponents " ADB_OPPONENTS_FROM_SEATS ";"
    "INSERT INTO bot_forfeits " ADB_FORFEITS_FROM_SEATS ";"
    "CREATE TRIGGER match_seat_added AFTER INSERT ON match_seats BEGIN " ADD_SEAT("NEW") " END;"
    "CREATE TRIGGER match_seat_removed BEFORE DELETE ON match_seats BEGIN " DROP_SEAT("OLD")
    " END;"
    "CREATE TRIGGER match_seat_leaving BEFORE UPDATE ON match_seats BEGIN " DROP_SEAT("OLD")
    " END;"
    "CREATE TRIGGER match_seat_changed AFTER UPDATE ON match_seats BEGIN " ADD_SEAT("NEW")
    " END;"
    "CREATE TRIGGER match_culprit_changed AFTER UPDATE OF culprit ON matches BEGIN"
    "  DELETE FROM bot_forfeits WHERE match_id = OLD.id AND bot_id ="
    "    (SELECT bot_id FROM match_seats WHERE match_id = OLD.id AND seat = OLD.culprit);"
    "  INSERT OR IGNORE INTO bot_forfeits(bot_id, match_id) SELECT s.bot_id, NEW.id"
    "    FROM match_seats s WHERE s.match_id = NEW.id AND s.seat = NEW.culprit;"
    "END;",

    /*
     * 12: the arenas at work (arena_db_claim.c): what each plays, its
     * workers, when it was last seen. An arena writes its row when it
     * starts, again as it renews its claims, and deletes it when it stops;
     * one killed leaves a row that stops being seen. The web's live page
     * reads them.
     */
    "CREATE TABLE arena_runs("
    "  owner INTEGER PRIMARY KEY,"                    /* its claims' owner, random */
    "  tournament_id INTEGER REFERENCES tournaments(id),"
    "  ladder_id INTEGER REFERENCES ladders(id),"
    "  host TEXT NOT NULL,"
    "  pid INTEGER NOT NULL,"
    "  workers INTEGER NOT NULL,"                     /* ready, local and remote */
    "  taken INTEGER NOT NULL,"                       /* matches handed to them */
    "  listening TEXT,"                               /* where remote workers connect */
    "  started_ms INTEGER NOT NULL,"                  /* wall clock */
    "  seen_ms INTEGER NOT NULL);",
};
#define LATEST ((int)(sizeof migrations / sizeof migrations[0]))
_Static_assert(LATEST == ARENA_DB_SCHEMA, "ARENA_DB_SCHEMA names the last migration");

/* ---- shared helpers ----------------------------------------------------- */

void adb_err(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    txt_vset(err, size, fmt, ap);
    va_end(ap);
    /* One line, whatever a path or sqlite's message contained. */
    for (char *p = err; err && size && *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int adb_sqlerr(arena_db *db, char *err, size_t size, const char *what)
{
    adb_err(err, size, "%s: %s", what, db && db->h ? sqlite3_errmsg(db->h) : "no database");
    return -1;
}

sqlite3_stmt *adb_stmt(arena_db *db, const char *sql)
{
    for (int i = 0; i < db->ncache; i++)
        if (db->cache[i].sql == sql) {
            sqlite3_stmt *st = db->cache[i].st;
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            return st;
        }
    assert(db->ncache < ADB_CACHE);   /* a fixed set of call sites */
    if (db->ncache >= ADB_CACHE)
        return NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    db->cache[db->ncache].sql = sql;
    db->cache[db->ncache].st = st;
    db->ncache++;
    return st;
}

void adb_done(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

static int exec_simple(arena_db *db, const char *sql, char *err, size_t size, const char *what)
{
    if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return adb_sqlerr(db, err, size, what);
    return 0;
}

int adb_begin(arena_db *db, char *err, size_t size)
{
    return exec_simple(db, "BEGIN IMMEDIATE", err, size, "cannot start a transaction");
}

int adb_begin_read(arena_db *db, char *err, size_t size)
{
    return exec_simple(db, "BEGIN", err, size, "cannot start a transaction");
}

int adb_commit(arena_db *db, char *err, size_t size)
{
    if (exec_simple(db, "COMMIT", err, size, "cannot commit") != 0) {
        adb_rollback(db);
        return -1;
    }
    return 0;
}

void adb_rollback(arena_db *db)
{
    /* Harmless when SQLite already rolled back on its own (it does after
     * some errors); the transaction is gone either way. */
    if (!sqlite3_get_autocommit(db->h))
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

void adb_col_text(sqlite3_stmt *st, int col, char *dst, size_t size)
{
    assert(size > 0);
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

/* A parameter the statement does not name is a bug in its caller. */
static int param(sqlite3_stmt *st, const char *name)
{
    int i = sqlite3_bind_parameter_index(st, name);
    assert(i > 0);
    return i;
}

int adb_bind_text(sqlite3_stmt *st, const char *name, const char *v)
{
    int i = param(st, name);
    if (i <= 0)
        return SQLITE_RANGE;
    return v ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

int adb_bind_int(sqlite3_stmt *st, const char *name, int64_t v)
{
    int i = param(st, name);
    return i > 0 ? sqlite3_bind_int64(st, i, v) : SQLITE_RANGE;
}

int adb_bind_double(sqlite3_stmt *st, const char *name, double v)
{
    int i = param(st, name);
    return i > 0 ? sqlite3_bind_double(st, i, v) : SQLITE_RANGE;
}

int adb_grow(void **v, int *cap, int n, size_t elem)
{
    if (*v && n < *cap)
        return 0;
    int c = *cap ? *cap * 2 : 16;
    void *w = realloc(*v, (size_t)c * elem);
    if (!w)
        return -1;
    *v = w;
    *cap = c;
    return 0;
}

int adb_collect(sqlite3_stmt *st, int rc, size_t elem, adb_row_fn *row, const void *ctx,
                void **out)
{
    char *v = NULL;
    int n = 0, cap = 0;
    *out = NULL;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (adb_grow((void **)&v, &cap, n, elem) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        memset(v + (size_t)n * elem, 0, elem);
        row(st, v + (size_t)n++ * elem, ctx);
        rc = SQLITE_OK;
    }
    adb_done(st);
    if (rc == SQLITE_DONE && adb_grow((void **)&v, &cap, n, elem) != 0)
        rc = SQLITE_NOMEM;          /* never NULL on success, even for 0 rows */
    if (rc != SQLITE_DONE) {
        free(v);
        return -1;
    }
    *out = v;
    return n;
}

int adb_text_ok(const char *s, size_t size, int nonempty)
{
    if (!s)
        return 0;
    size_t n = strnlen(s, size);
    return n < size && (!nonempty || n > 0);
}

/* ---- open and migrate --------------------------------------------------- */

/* A one-row, one-integer query; returns sqlite's result code. */
static int query_int(arena_db *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *out = sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

static const char FOREIGN_TABLES[] =
    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'";
/* The tables every schema since the first has. */
static const char OUR_TABLES[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
    "('bots', 'tournaments', 'matches', 'ratings', 'rating_history')";

/* What the header says about the file: 0 fine (version in *version),
 * -1 with the reason written. Read-only, so a file that is not ours is
 * never touched. */
static int inspect(arena_db *db, const char *path, int *version, char *err, size_t size)
{
    int64_t uv = 0, app = 0, tables = 0, ours = 0;
    int rc = query_int(db, "PRAGMA user_version", &uv);
    if (rc == SQLITE_OK)
        rc = query_int(db, "PRAGMA application_id", &app);
    if (rc == SQLITE_OK)
        rc = query_int(db, FOREIGN_TABLES, &tables);
    if (rc == SQLITE_OK)
        rc = query_int(db, OUR_TABLES, &ours);
    if ((rc & 0xff) == SQLITE_NOTADB) {
        adb_err(err, size, "%s is not an arena database", path);
        return -1;
    }
    if (rc != SQLITE_OK) {
        adb_err(err, size, "cannot read %s: %s", path, sqlite3_errmsg(db->h));
        return -1;
    }
    if ((app != 0 && app != ADB_APPLICATION_ID) || (uv == 0 && tables > 0) || uv < 0 ||
        (uv > 0 && uv <= LATEST && ours != 5)) {
        adb_err(err, size, "%s is not an arena database", path);
        return -1;
    }
    if (uv > LATEST) {
        adb_err(err, size, "%s was written by a newer arena (schema %lld)", path, (long long)uv);
        return -1;
    }
    *version = (int)uv;
    return 0;
}

/* Runs every statement of a migration script, binding the named
 * parameters it uses: 0, or -1 with err. */
static int exec_script(arena_db *db, const char *sql, char *err, size_t size, const char *what)
{
    const game_api *legacy = game_legacy();
    assert(legacy && legacy->name);
    const struct { const char *name, *value; } params[] = {
        { ":legacy_game", legacy->name },
    };
    while (*sql) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, &tail);
        if (rc == SQLITE_OK && st) {
            for (int i = 1; rc == SQLITE_OK && i <= sqlite3_bind_parameter_count(st); i++) {
                const char *name = sqlite3_bind_parameter_name(st, i);
                size_t k = 0, n = sizeof params / sizeof params[0];
                while (k < n && !(name && strcmp(name, params[k].name) == 0))
                    k++;
                assert(k < n);          /* a script names only parameters we give */
                /* k < n guards the index (cppcheck reads the assert as a doubt) */
                // cppcheck-suppress arrayIndexOutOfBoundsCond
                rc = k < n ? sqlite3_bind_text(st, i, params[k].value, -1, SQLITE_STATIC)
                           : SQLITE_RANGE;
            }
            while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
                rc = SQLITE_OK;
        }
        if (rc != SQLITE_OK && rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, what);
            sqlite3_finalize(st);
            return -1;
        }
        sqlite3_finalize(st);
        sql = tail;
    }
    return 0;
}

int adb_foreign_keys_hold(arena_db *db, char *err, size_t size, const char *what)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA foreign_key_check", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? 1 : -1;
    if (ret > 0 && sqlite3_column_type(st, 1) == SQLITE_NULL)    /* WITHOUT ROWID */
        adb_err(err, size, "%s: table %s refers to a missing row of %s", what,
                (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 2));
    else if (ret > 0)
        adb_err(err, size, "%s: table %s, row %lld, refers to a missing row of %s", what,
                (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1),
                (const char *)sqlite3_column_text(st, 2));
    else if (ret < 0)
        adb_sqlerr(db, err, size, what);
    sqlite3_finalize(st);
    return ret;
}

/* Applies the missing migrations, one transaction each, with foreign keys
 * off (a table rebuild drops a table others refer to). The version is
 * read again inside each transaction: another process may have migrated
 * while we waited for the write lock. */
static int migrate(arena_db *db, const char *path, char *err, size_t size)
{
    if (exec_simple(db, "PRAGMA foreign_keys = OFF", err, size, "cannot migrate") != 0)
        return -1;
    int ret = -1;
    for (;;) {
        if (adb_begin(db, err, size) != 0)
            goto out;
        int v;
        if (inspect(db, path, &v, err, size) != 0) {
            adb_rollback(db);
            goto out;
        }
        if (v == LATEST) {
            adb_rollback(db);
            break;
        }
        assert(v >= 0 && v < LATEST);
        char set[64];
        snprintf(set, sizeof set, "PRAGMA user_version = %d", v + 1);
        char what[1100];
        snprintf(what, sizeof what, "cannot migrate %.1024s to schema %d", path, v + 1);
        if (exec_script(db, migrations[v], err, size, what) != 0 ||
            adb_foreign_keys_hold(db, err, size, what) != 0 ||
            exec_simple(db, set, err, size, what) != 0) {
            adb_rollback(db);
            goto out;
        }
        if (adb_commit(db, err, size) != 0)
            goto out;
    }
    ret = 0;
out:
    if (exec_simple(db, "PRAGMA foreign_keys = ON", ret ? NULL : err, ret ? 0 : size,
                    "cannot enable foreign keys") != 0)
        ret = -1;
    return ret;
}

static int set_pragmas(arena_db *db, char *err, size_t size)
{
    /* journal_mode answers with the mode now in force: a file system
     * without shared memory would silently stay in "delete". */
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->h, "PRAGMA journal_mode = WAL", -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        if (!mode || (strcasecmp(mode, "wal") != 0 && strcasecmp(mode, "memory") != 0)) {
            adb_err(err, size, "cannot use WAL mode (journal mode stays %s)", mode ? mode : "?");
            sqlite3_finalize(st);
            return -1;
        }
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot set WAL mode");
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return exec_simple(db, "PRAGMA synchronous = NORMAL", err, size, "cannot set synchronous");
}

/* A handle on path with sqlite's `flags`, configured but not yet
 * inspected: 0, or -1 with err (*out NULL). */
static int db_connect(arena_db **out, const char *path, int create, int flags, char *err,
                   size_t size)
{
    if (!out) {
        adb_err(err, size, "no place for the database handle");
        return -1;
    }
    *out = NULL;
    if (!path || !*path) {
        adb_err(err, size, "the database path is empty");
        return -1;
    }
    struct stat sb;
    if (!create && stat(path, &sb) != 0 && errno == ENOENT) {
        adb_err(err, size, "no database at %s", path);
        return -1;
    }
    arena_db *db = calloc(1, sizeof *db);
    if (!db) {
        adb_err(err, size, "out of memory");
        return -1;
    }
    if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
        if (!db->h)
            adb_err(err, size, "cannot open %s: out of memory", path);
        else
            adb_err(err, size, "cannot open %s: %s", path, sqlite3_errmsg(db->h));
        arena_db_close(db);
        return -1;
    }
    if (sqlite3_extended_result_codes(db->h, 1) != SQLITE_OK ||
        sqlite3_busy_timeout(db->h, 5000) != SQLITE_OK) {
        adb_sqlerr(db, err, size, "cannot configure the database");
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int arena_db_open(arena_db **out, const char *path, int create, char *err, size_t size)
{
    int version;
    if (db_connect(out, path, create, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
                   err, size) != 0)
        return -1;
    arena_db *db = *out;
    *out = NULL;
    /* Look before writing anything (WAL mode writes the header). */
    if (inspect(db, path, &version, err, size) != 0 ||
        set_pragmas(db, err, size) != 0 ||
        migrate(db, path, err, size) != 0) {
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

int arena_db_open_readonly(arena_db **out, const char *path, char *err, size_t size)
{
    int version;
    if (db_connect(out, path, 0, SQLITE_OPEN_READONLY, err, size) != 0)
        return -1;
    arena_db *db = *out;
    *out = NULL;
    if (inspect(db, path, &version, err, size) != 0) {
        arena_db_close(db);
        return -1;
    }
    if (version != LATEST) {
        adb_err(err, size, "%s has schema %d, not %d: run an arena command on it once to upgrade it",
                path, version, LATEST);
        arena_db_close(db);
        return -1;
    }
    if (exec_simple(db, "PRAGMA query_only = 1", err, size, "cannot set query_only") != 0) {
        arena_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

sqlite3 *arena_db_sqlite(arena_db *db) { return db->h; }

void arena_db_close(arena_db *db)
{
    if (!db)
        return;
    for (int i = 0; i < db->ncache; i++)
        sqlite3_finalize(db->cache[i].st);
    /* Every statement is finalized, so close cannot be refused as busy. */
    int rc = sqlite3_close(db->h);
    assert(rc == SQLITE_OK);
    (void)rc;
    free(db);
}

int arena_db_schema_version(arena_db *db)
{
    int64_t v;
    if (!db || query_int(db, "PRAGMA user_version", &v) != SQLITE_OK)
        return -1;
    return (int)v;
}

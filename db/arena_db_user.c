/*
 * arena_db_user.c - participants and their submissions (arena_db.h).
 *
 * A participant is a name and a CURVE public key: the gateway admits a
 * connection by its key (users.public_key) and reads the participant
 * again at each request, so a revoke takes effect at their next one.
 * Their submissions, accepted or refused, are kept: what they sent, the
 * verdict, and the time, which the gateway's rate limit counts.
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"

#include <stdio.h>
#include <stdlib.h>

#define USER_COLUMNS "u.id, u.name, u.public_key, u.endpoint, u.added_ms," \
    " COALESCE(u.revoked_ms, 0), (SELECT count(*) FROM bots b WHERE b.owner_id = u.id" \
    " AND b.removed_at IS NULL) FROM users u "

static const char USER_INSERT[] =
    "INSERT INTO users(name, public_key, endpoint, added_ms)"
    " VALUES (:name, :key, :endpoint, :now)";
static const char USER_LIST[] = "SELECT " USER_COLUMNS "ORDER BY u.name";
static const char USER_BY_NAME[] = "SELECT " USER_COLUMNS "WHERE u.name = :v";
static const char USER_BY_KEY[] = "SELECT " USER_COLUMNS "WHERE u.public_key = :v";
static const char USER_REVOKE[] =
    "UPDATE users SET revoked_ms = :now WHERE name = :name AND revoked_ms IS NULL";
static const char SUBMISSION_INSERT[] =
    "INSERT INTO submissions(user_id, bot, version, games, content_hash, bytes, accepted,"
    " reason, bot_id, at_ms) VALUES (:user, :bot, :version, :games, :hash, :bytes,"
    " :accepted, :reason, :bot_id, :now)";
static const char SUBMISSIONS_SINCE[] =
    "SELECT count(*) FROM submissions WHERE user_id = :user AND at_ms >= :since";

static const char BOT_CHECKED[] =
    "SELECT COALESCE(max(at_ms), 0) FROM submissions"
    " WHERE user_id = :user AND bot_id = :bot AND accepted = 1";

static void user_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    arena_user *u = out;
    memset(u, 0, sizeof *u);
    u->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, u->name, sizeof u->name);
    adb_col_text(st, 2, u->public_key, sizeof u->public_key);
    adb_col_text(st, 3, u->endpoint, sizeof u->endpoint);
    u->added_ms = sqlite3_column_int64(st, 4);
    u->revoked_ms = sqlite3_column_int64(st, 5);
    u->bots = sqlite3_column_int(st, 6);
}

int arena_db_user_add(arena_db *db, arena_user *u, char *err, size_t size)
{
    if (!db || !u || !adb_name_ok(u->name)) {
        adb_err(err, size, "a participant's name must be 1-63 characters of letters, digits, "
                           "'_', '.', '-'");
        return -1;
    }
    if (strlen(u->public_key) != 40 || !adb_text_ok(u->endpoint, sizeof u->endpoint, 1)) {
        adb_err(err, size, "%s: a public key of 40 characters and an endpoint are needed",
                u->name);
        return -1;
    }
    sqlite3_stmt *st = adb_stmt(db, USER_INSERT);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot add a participant");
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_text(st, ":name", u->name));
    ADB_BIND(adb_bind_text(st, ":key", u->public_key));
    ADB_BIND(adb_bind_text(st, ":endpoint", u->endpoint));
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT) {
        adb_err(err, size, "a participant named %s (or with that key) is registered already",
                u->name);
        return -1;
    }
    if (rc != SQLITE_DONE)
        return adb_sqlerr(db, err, size, "cannot add a participant");
    u->id = sqlite3_last_insert_rowid(db->h);
    return 0;
}

int arena_db_user_list(arena_db *db, arena_user **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, USER_LIST) : NULL;
    if (!st)
        return -1;
    return adb_collect(st, SQLITE_OK, sizeof **out, user_row, NULL, (void **)out);
}

static int user_one(arena_db *db, const char *sql, const char *value, arena_user *out)
{
    sqlite3_stmt *st = db && value ? adb_stmt(db, sql) : NULL;
    if (!st)
        return -1;
    int rc = adb_bind_text(st, ":v", value);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    if (ret == 0 && out)
        user_row(st, out, NULL);
    adb_done(st);
    return ret;
}

int arena_db_user_get(arena_db *db, const char *name, arena_user *out)
{
    return user_one(db, USER_BY_NAME, name, out);
}

int arena_db_user_by_key(arena_db *db, const char *public_key, arena_user *out)
{
    return user_one(db, USER_BY_KEY, public_key, out);
}

int arena_db_user_revoke(arena_db *db, const char *name, char *err, size_t size)
{
    arena_user u;
    int found = arena_db_user_get(db, name, &u);
    if (found != 0) {
        adb_err(err, size, found > 0 ? "no participant named %s" : "cannot read %s", name);
        return -1;
    }
    if (u.revoked_ms)
        return 1;
    sqlite3_stmt *st = adb_stmt(db, USER_REVOKE);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot revoke");
    int rc = adb_bind_text(st, ":name", name);
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : adb_sqlerr(db, err, size, "cannot revoke");
}

int arena_db_submission_add(arena_db *db, const arena_submission *s, char *err, size_t size)
{
    sqlite3_stmt *st = db && s ? adb_stmt(db, SUBMISSION_INSERT) : NULL;
    if (!st)
        return adb_sqlerr(db, err, size, "cannot store a submission");
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":user", s->user_id));
    ADB_BIND(adb_bind_text(st, ":bot", s->bot ? s->bot : ""));
    ADB_BIND(adb_bind_text(st, ":version", s->version ? s->version : ""));
    ADB_BIND(adb_bind_text(st, ":games", s->games ? s->games : ""));
    ADB_BIND(adb_bind_text(st, ":hash", s->content_hash));
    ADB_BIND(adb_bind_int(st, ":bytes", s->bytes));
    ADB_BIND(adb_bind_int(st, ":accepted", s->accepted != 0));
    ADB_BIND(adb_bind_text(st, ":reason", s->reason ? s->reason : ""));
    if (s->bot_id)
        ADB_BIND(adb_bind_int(st, ":bot_id", s->bot_id));
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : adb_sqlerr(db, err, size, "cannot store a submission");
}

/* The one number a query over a participant's submissions answers, its
 * :user and its second parameter bound; -1 on error. */
static int64_t submissions_number(arena_db *db, const char *sql, int64_t user_id,
                                  const char *key, int64_t value)
{
    sqlite3_stmt *st = db ? adb_stmt(db, sql) : NULL;
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":user", user_id);
    ADB_BIND(adb_bind_int(st, key, value));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int64_t n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    adb_done(st);
    return n;
}

int arena_db_submissions_since(arena_db *db, int64_t user_id, int64_t since_ms)
{
    return (int)submissions_number(db, SUBMISSIONS_SINCE, user_id, ":since", since_ms);
}

int64_t arena_db_bot_checked_ms(arena_db *db, int64_t user_id, int64_t bot_id)
{
    return submissions_number(db, BOT_CHECKED, user_id, ":bot", bot_id);
}

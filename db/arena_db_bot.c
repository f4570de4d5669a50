/*
 * arena_db_bot.c - bots: their versions, statuses and labels.
 *
 * A row is one version of a bot. Bots are never deleted (removed_at marks
 * them), so every match keeps its bots; a version's status (active,
 * disabled with a reason, retired) says whether a ladder may pair it.
 * Statuses change from any shell while a ladder runs: the ladder reads
 * them again every few seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int adb_name_ok(const char *name)
{
    if (!name)
        return 0;
    size_t n = 0;
    for (; n < 64 && name[n]; n++) {
        char c = name[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return n >= 1 && n <= 63;
}

#define BAD_NAME "bot name must be 1-63 characters of letters, digits, '_', '.', '-'"

/* A reference: NAME, NAME@VERSION or NAME#ID (what a label shows). */
typedef struct bot_ref {
    char name[64];
    const char *version;      /* NULL: the newest registered version */
    int64_t id;               /* 0: none given */
} bot_ref;

static int ref_parse(const char *ref, bot_ref *r)
{
    memset(r, 0, sizeof *r);
    if (!ref)
        return -1;
    size_t n = strcspn(ref, "@#");
    if (n >= sizeof r->name)
        return -1;
    memcpy(r->name, ref, n);
    r->name[n] = 0;
    if (!adb_name_ok(r->name))
        return -1;
    if (ref[n] == '@') {
        r->version = ref + n + 1;
        return strlen(r->version) < 64 ? 0 : -1;
    }
    if (ref[n] == '#') {
        char *end;
        long long id = strtoll(ref + n + 1, &end, 10);
        if (end == ref + n + 1 || *end || id <= 0)
            return -1;
        r->id = id;
    }
    return 0;
}

#define BOT_COLUMNS "b.id, b.name, b.cmd, b.cwd, b.version, b.removed_at IS NOT NULL," \
    " b.status, b.status_reason, COALESCE(b.status_ms, 0), COALESCE(b.previous_id, 0)," \
    " COALESCE(r.games, 0), COALESCE(r.elo, 1500.0), " ADB_BOT_LABEL("b") ", b.env" \
    " FROM bots b LEFT JOIN ratings r ON r.bot_id = b.id "

static void bot_row(sqlite3_stmt *st, void *out, const void *ctx)
{
    (void)ctx;
    arena_bot *b = out;
    memset(b, 0, sizeof *b);
    b->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, b->name, sizeof b->name);
    adb_col_text(st, 2, b->cmd, sizeof b->cmd);
    adb_col_text(st, 3, b->cwd, sizeof b->cwd);
    adb_col_text(st, 4, b->version, sizeof b->version);
    b->removed = sqlite3_column_int(st, 5);
    adb_col_text(st, 6, b->status, sizeof b->status);
    adb_col_text(st, 7, b->reason, sizeof b->reason);
    b->status_ms = sqlite3_column_int64(st, 8);
    b->previous_id = sqlite3_column_int64(st, 9);
    b->games = sqlite3_column_int(st, 10);
    b->elo = sqlite3_column_double(st, 11);
    adb_col_text(st, 12, b->label, sizeof b->label);
    adb_col_text(st, 13, b->env, sizeof b->env);
}

static const char BOT_NEWEST[] =
    "SELECT " BOT_COLUMNS "WHERE b.name = :name AND b.removed_at IS NULL"
    " ORDER BY b.id DESC LIMIT 1";
static const char BOT_VERSION[] =
    "SELECT " BOT_COLUMNS "WHERE b.name = :name AND b.version = :version"
    " AND b.removed_at IS NULL";
static const char BOT_NAMED_ID[] =
    "SELECT " BOT_COLUMNS "WHERE b.name = :name AND b.id = :id AND b.removed_at IS NULL";
static const char BOT_BY_ID[] = "SELECT " BOT_COLUMNS "WHERE b.id = :id";
static const char BOT_LIST[] =
    "SELECT " BOT_COLUMNS "WHERE b.removed_at IS NULL ORDER BY b.name, b.id";

/* Runs one bot query; 0 found, 1 none, -1 error. */
static int bot_one(arena_db *db, const char *sql, const bot_ref *ref, int64_t id, arena_bot *out)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    if (ref) {
        ADB_BIND(adb_bind_text(st, ":name", ref->name));
        if (ref->version)
            ADB_BIND(adb_bind_text(st, ":version", ref->version));
        if (ref->id)
            ADB_BIND(adb_bind_int(st, ":id", ref->id));
    } else {
        ADB_BIND(adb_bind_int(st, ":id", id));
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    if (ret == 0 && out)
        bot_row(st, out, NULL);
    adb_done(st);
    return ret;
}

static int bot_by_ref(arena_db *db, const bot_ref *r, arena_bot *out)
{
    return bot_one(db, r->version ? BOT_VERSION : r->id ? BOT_NAMED_ID : BOT_NEWEST, r, 0, out);
}

int arena_db_bot_by_name(arena_db *db, const char *ref, arena_bot *out)
{
    if (!db)
        return -1;
    bot_ref r;
    if (ref_parse(ref, &r) != 0)
        return 1;        /* no bot can have that name */
    return bot_by_ref(db, &r, out);
}

int arena_db_bot_by_id(arena_db *db, int64_t id, arena_bot *out)
{
    if (!db)
        return -1;
    return bot_one(db, BOT_BY_ID, NULL, id, out);
}

int arena_db_bot_list(arena_db *db, arena_bot **out)
{
    if (!out)
        return -1;
    *out = NULL;
    if (!db)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, BOT_LIST);
    if (!st)
        return -1;
    return adb_collect(st, SQLITE_OK, sizeof **out, bot_row, NULL, (void **)out);
}

const char *arena_bot_status_shown(const arena_bot *b)
{
    if (!strcmp(b->status, "active") &&
        !strncmp(b->reason, ARENA_BOT_TRIAL, sizeof ARENA_BOT_TRIAL - 1))
        return "trial";
    if (!strcmp(b->status, "active") && b->games < ARENA_PROVISIONAL_GAMES)
        return "provisional";
    return b->status;
}

/* ---- adding and removing -------------------------------------------------- */

static const char BOT_INSERT[] =
    "INSERT INTO bots(name, cmd, cwd, version, env, added_at, previous_id)"
    " VALUES (:name, :cmd, :cwd, :version, :env, :now, :previous)";

static int bot_fields_ok(const arena_bot *bot, char *err, size_t size)
{
    if (!adb_name_ok(bot->name)) {
        adb_err(err, size, BAD_NAME);
        return 0;
    }
    if (!adb_text_ok(bot->cmd, sizeof bot->cmd, 1)) {
        adb_err(err, size, "bot %s: the command must be 1-%zu characters", bot->name,
                sizeof bot->cmd - 1);
        return 0;
    }
    if (!adb_text_ok(bot->cwd, sizeof bot->cwd, 0) ||
        !adb_text_ok(bot->version, sizeof bot->version, 0) ||
        !adb_text_ok(bot->env, sizeof bot->env, 0)) {
        adb_err(err, size, "bot %s: the directory, version or environment is too long",
                bot->name);
        return 0;
    }
    return 1;
}

/* Inside the caller's transaction: the new row, following the newest
 * registered version of its name when there is one. */
static int add_in_txn(arena_db *db, const arena_bot *bot, char *err, size_t size)
{
    bot_ref r = {.version = NULL};
    snprintf(r.name, sizeof r.name, "%s", bot->name);
    arena_bot prev;
    int found = bot_by_ref(db, &r, &prev);
    if (found < 0)
        return adb_sqlerr(db, err, size, "cannot add a bot");
    if (found == 0 && !bot->version[0]) {
        adb_err(err, size, "a bot named %s is already registered (a new version needs --version)",
                bot->name);
        return -1;
    }
    sqlite3_stmt *st = adb_stmt(db, BOT_INSERT);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot add a bot");
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_text(st, ":name", bot->name));
    ADB_BIND(adb_bind_text(st, ":cmd", bot->cmd));
    ADB_BIND(adb_bind_text(st, ":cwd", bot->cwd));
    ADB_BIND(adb_bind_text(st, ":version", bot->version));
    ADB_BIND(adb_bind_text(st, ":env", bot->env));
    ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (found == 0)
        ADB_BIND(adb_bind_int(st, ":previous", prev.id));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT) {
        adb_err(err, size, "%s version %s is already registered", bot->name, bot->version);
        return -1;
    }
    if (rc != SQLITE_DONE)
        return adb_sqlerr(db, err, size, "cannot add a bot");
    return 0;
}

int arena_db_bot_add(arena_db *db, const arena_bot *bot, char *err, size_t size)
{
    if (!db || !bot) {
        adb_err(err, size, "no database or no bot");
        return -1;
    }
    if (!bot_fields_ok(bot, err, size) || adb_begin(db, err, size) != 0)
        return -1;
    if (add_in_txn(db, bot, err, size) != 0) {
        adb_rollback(db);
        return -1;
    }
    return adb_commit(db, err, size);
}

static const char BOT_REMOVE[] =
    "UPDATE bots SET removed_at = :now WHERE id = :id AND removed_at IS NULL";
static const char BOT_STATUS[] =
    "UPDATE bots SET status = :status, status_reason = :reason, status_ms = :now"
    " WHERE id = :id AND removed_at IS NULL";

/* Runs an UPDATE of one bot by id (and :now when it has it, :status and
 * :reason when given):
 * the rows changed, or -1. */
static int update_bot(arena_db *db, const char *sql, int64_t id, const char *status,
                      const char *reason)
{
    sqlite3_stmt *st = adb_stmt(db, sql);
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":id", id);
    if (sqlite3_bind_parameter_index(st, ":now") > 0)    /* a note keeps the status time */
        ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
    if (status) {
        ADB_BIND(adb_bind_text(st, ":status", status));
        ADB_BIND(adb_bind_text(st, ":reason", reason));
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? sqlite3_changes(db->h) : -1;
}

/* The registered bot `ref` names, or -1 with why not. */
static int find_ref(arena_db *db, const char *ref, arena_bot *b, char *err, size_t size)
{
    bot_ref r;
    if (ref_parse(ref, &r) != 0) {
        adb_err(err, size, BAD_NAME);
        return -1;
    }
    int found = bot_by_ref(db, &r, b);
    if (found < 0)
        return adb_sqlerr(db, err, size, "cannot find the bot");
    if (found > 0) {
        adb_err(err, size, "no registered bot named %s", ref);
        return -1;
    }
    return 0;
}

/* 0 removed; -1 with the reason, also when no registered bot has the name
 * (callers treat any failure alike). */
int arena_db_bot_remove(arena_db *db, const char *ref, char *err, size_t size)
{
    if (!db) {
        adb_err(err, size, "no database");
        return -1;
    }
    arena_bot b = { 0 };
    if (find_ref(db, ref, &b, err, size) != 0)
        return -1;
    if (update_bot(db, BOT_REMOVE, b.id, NULL, NULL) < 0)
        return adb_sqlerr(db, err, size, "cannot remove a bot");
    return 0;
}

int arena_db_bot_set_status(arena_db *db, const char *ref, const char *status,
                            const char *reason, char *err, size_t size)
{
    if (!db || !status) {
        adb_err(err, size, "no database or no status");
        return -1;
    }
    if (strcmp(status, "active") && strcmp(status, "disabled") && strcmp(status, "retired")) {
        adb_err(err, size, "unknown status '%s' (active, disabled, retired)", status);
        return -1;
    }
    if (!reason)
        reason = "";
    if (strlen(reason) >= sizeof ((arena_bot *)0)->reason) {
        adb_err(err, size, "the reason is too long (at most %zu characters)",
                sizeof ((arena_bot *)0)->reason - 1);
        return -1;
    }
    arena_bot b = { 0 };
    if (adb_begin(db, err, size) != 0)
        return -1;
    if (find_ref(db, ref, &b, err, size) != 0) {
        adb_rollback(db);
        return -1;
    }
    if (!strcmp(b.status, "retired") && strcmp(status, "retired")) {
        adb_rollback(db);
        adb_err(err, size, "%s is retired", b.label);
        return -1;
    }
    if (update_bot(db, BOT_STATUS, b.id, status, reason) < 0) {
        adb_sqlerr(db, err, size, "cannot change the bot's status");
        adb_rollback(db);
        return -1;
    }
    return adb_commit(db, err, size);
}

static const char BOT_DISABLE_ACTIVE[] =
    "UPDATE bots SET status = :status, status_reason = :reason, status_ms = :now"
    " WHERE id = :id AND removed_at IS NULL AND status = 'active'";

static const char BOT_NOTE_ACTIVE[] =
    "UPDATE bots SET status_reason = :reason"
    " WHERE id = :id AND removed_at IS NULL AND status = :status";

/* An active bot's new status (disabled, retired) or note (active): 0 changed, 1
 * not active, -1 with err. */
static int change_active(arena_db *db, const char *sql, int64_t id, const char *status,
                         const char *reason, char *err, size_t size)
{
    if (!db || !reason || strlen(reason) >= sizeof ((arena_bot *)0)->reason) {
        adb_err(err, size, "no database, or no reason or too long a one");
        return -1;
    }
    int n = update_bot(db, sql, id, status, reason);
    if (n < 0)
        return adb_sqlerr(db, err, size, "cannot change the bot's status");
    return n > 0 ? 0 : 1;
}

int arena_db_bot_disable_id(arena_db *db, int64_t id, const char *reason, char *err,
                            size_t size)
{
    return change_active(db, BOT_DISABLE_ACTIVE, id, "disabled", reason, err, size);
}

int arena_db_bot_retire_id(arena_db *db, int64_t id, const char *reason, char *err,
                           size_t size)
{
    return change_active(db, BOT_DISABLE_ACTIVE, id, "retired", reason, err, size);
}

int arena_db_bot_note_id(arena_db *db, int64_t id, const char *reason, char *err, size_t size)
{
    return change_active(db, BOT_NOTE_ACTIVE, id, "active", reason, err, size);
}

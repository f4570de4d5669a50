/*
 * arena_db_remote.c - remote bots and their connection state (arena_db.h).
 *
 * A remote bot is a registered version with a remote_bots row: it has no
 * files here, its participant runs it at home with `arena connect`. The
 * gateway writes whether a connection holds it and when it last heard it;
 * the ladder pairs it only while that is fresh, `bot list` shows it.
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char REMOTE_ADD[] = "INSERT OR IGNORE INTO remote_bots(bot_id) VALUES (:bot)";
static const char REMOTE_GET[] =
    "SELECT connected, since_ms, seen_ms, gateway FROM remote_bots WHERE bot_id = :bot";
static const char REMOTE_STATE[] =
    "UPDATE remote_bots SET since_ms = CASE WHEN connected = :connected AND since_ms > 0"
    " THEN since_ms ELSE :now END, connected = :connected, seen_ms = :now,"
    " gateway = COALESCE(:gateway, gateway) WHERE bot_id = :bot";

int arena_db_remote_add(arena_db *db, int64_t bot_id, char *err, size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, REMOTE_ADD);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot mark a bot remote");
    int rc = adb_bind_int(st, ":bot", bot_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : adb_sqlerr(db, err, size, "cannot mark a bot remote");
}

int arena_db_remote_get(arena_db *db, int64_t bot_id, arena_remote_bot *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = adb_stmt(db, REMOTE_GET);
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":bot", bot_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->bot_id = bot_id;
        out->connected = sqlite3_column_int(st, 0);
        out->since_ms = sqlite3_column_int64(st, 1);
        out->seen_ms = sqlite3_column_int64(st, 2);
        adb_col_text(st, 3, out->gateway, sizeof out->gateway);
    }
    adb_done(st);
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

int arena_db_remote_state(arena_db *db, int64_t bot_id, int connected, const char *gateway,
                          int64_t now_ms)
{
    sqlite3_stmt *st = adb_stmt(db, REMOTE_STATE);
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    ADB_BIND(adb_bind_int(st, ":bot", bot_id));
    ADB_BIND(adb_bind_int(st, ":connected", connected != 0));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    ADB_BIND(adb_bind_text(st, ":gateway", gateway));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int arena_db_remote_ready(arena_db *db, int64_t bot_id, int64_t now_ms)
{
    arena_remote_bot r;
    int got = arena_db_remote_get(db, bot_id, &r);
    if (got != 0)
        return got == 1 ? 1 : -1;
    return r.connected && now_ms - r.seen_ms <= ARENA_REMOTE_FRESH_MS;
}

const char *arena_remote_bot_state(const arena_remote_bot *r, int64_t now_ms, int64_t absent_after_ms)
{
    if (!r->bot_id)
        return "";
    if (r->connected && now_ms - r->seen_ms <= ARENA_REMOTE_FRESH_MS)
        return "connected";
    int64_t gone = r->connected ? r->seen_ms : r->since_ms;
    return !r->since_ms || now_ms - gone > absent_after_ms ? "absent" : "not connected";
}

int arena_db_remote_relay_cmd(arena_db *db, int64_t bot_id, char *cmd, size_t size)
{
    arena_remote_bot r;
    int got = arena_db_remote_get(db, bot_id, &r);
    if (got != 0)
        return got == 1 ? 0 : -1;
    /* The arena program running this: the relay is its own subcommand. */
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *path = sqlite3_db_filename(db->h, "main");
    if (n <= 0 || !path || !path[0])
        return -1;
    self[n] = 0;
    if (strchr(self, '\'') || strchr(path, '\''))
        return -1;
    int len = snprintf(cmd, size, "'%s' --db '%s' relay --bot %lld", self, path,
                       (long long)bot_id);
    return len > 0 && (size_t)len < size ? 1 : -1;
}

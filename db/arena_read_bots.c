/*
 * arena_read_bots.c - bots as the web's tables show them, and what a bot's
 * page reads about one bot: its rating plot, opponents, forfeits and logs
 * (arena_read.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "arena_db_internal.h"
#include "arena_read.h"
#include "kv.h"

int arena_read_begin(arena_db *db, char *err, size_t size)
{
    return db ? adb_begin_read(db, err, size) : -1;
}

void arena_read_end(arena_db *db)
{
    if (db)
        adb_commit(db, NULL, 0);      /* rolls back when it cannot commit */
}

/* Each bot with its label and what the status shown is made of (the CLI's
 * rule, arena_bot_status_shown); its last activity is its newest seat's
 * match (match_seats by bot: one seek). */
static const char BOTS[] =
    "SELECT b.id, " ADB_BOT_LABEL("b") ", b.name, b.version, b.status, b.status_reason,"
    " (SELECT m.finished_ms FROM matches m WHERE m.id ="
    "   (SELECT max(s.match_id) FROM match_seats s WHERE s.bot_id = b.id)),"
    " b.removed_at IS NULL, coalesce(r.games, 0),"
    " (SELECT group_concat(g.game, ' ') FROM bot_games g WHERE g.bot_id = b.id),"
    " rb.bot_id, rb.connected, rb.since_ms, rb.seen_ms"
    " FROM bots b LEFT JOIN ratings r ON r.bot_id = b.id"
    " LEFT JOIN remote_bots rb ON rb.bot_id = b.id ORDER BY b.id";

static void bot_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_bot_row *v = elem;
    arena_bot b = { .games = sqlite3_column_int(st, 8) };
    v->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, v->label, sizeof v->label);
    adb_col_text(st, 2, v->name, sizeof v->name);
    adb_col_text(st, 3, v->version, sizeof v->version);
    adb_col_text(st, 4, b.status, sizeof b.status);
    adb_col_text(st, 5, b.reason, sizeof b.reason);
    v->played = sqlite3_column_type(st, 6) != SQLITE_NULL;
    v->last_active_ms = sqlite3_column_int64(st, 6);
    v->registered = sqlite3_column_int(st, 7);
    snprintf(v->status, sizeof v->status, "%s",
             v->registered ? arena_bot_status_shown(&b) : "removed");
    memcpy(v->reason, b.reason, sizeof v->reason);
    adb_col_text(st, 9, v->plays, sizeof v->plays);
    arena_remote_bot rb = { .bot_id = sqlite3_column_int64(st, 10),
                            .connected = sqlite3_column_int(st, 11),
                            .since_ms = sqlite3_column_int64(st, 12),
                            .seen_ms = sqlite3_column_int64(st, 13) };
    snprintf(v->remote, sizeof v->remote, "%s",
             arena_remote_bot_state(&rb, clk_wall_ms(), ARENA_REMOTE_ABSENT_MS));
}

int arena_read_bots(arena_db *db, arena_bot_row **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, BOTS) : NULL;
    if (!st)
        return -1;
    return adb_collect(st, SQLITE_OK, sizeof **out, bot_row, NULL, (void **)out);
}

/* A name the arena would refuse today: the exact name, registered first. */
static const char BOT_EXACT[] =
    "SELECT id FROM bots WHERE name = :name ORDER BY removed_at IS NULL DESC, id DESC LIMIT 1";

int arena_read_bot_ref(arena_db *db, const char *ref, int64_t *id)
{
    arena_bot b;
    const char *hash = strrchr(ref, '#');
    int rc = arena_db_bot_by_name(db, ref, &b);
    if (rc == 1 && hash && kv_i64(hash + 1, 1, INT64_MAX, id) == 0 &&
        arena_db_bot_by_id(db, *id, &b) == 0 && strlen(b.name) == (size_t)(hash - ref) &&
        !strncmp(b.name, ref, (size_t)(hash - ref)))
        rc = 0;
    if (rc == 0) {
        *id = b.id;
        return 0;
    }
    sqlite3_stmt *st = adb_stmt(db, BOT_EXACT);
    rc = st ? adb_bind_text(st, ":name", ref) : SQLITE_ERROR;
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    adb_done(st);
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

/* ---- the rating plot ---------------------------------------------------------- */

/* The ratings from their index, and a point's time from the index of
 * finish times (schema 9). */
static const char HISTORY[] =
    "SELECT match_id, elo_after FROM rating_history WHERE bot_id = :bot ORDER BY match_id";
static const char FINISHED[] =
    "SELECT finished_ms FROM matches INDEXED BY matches_finished WHERE id = :id";

/* The point after i of n sent every step: the last one is always sent. */
static int64_t next_point(int64_t i, int64_t step, int64_t n)
{
    return i + 1 == n ? n : i + step < n ? i + step : n - 1;
}

/* Every step of the bot's history into out->p (match and Elo): 0, or -1. */
static int plot_steps(arena_db *db, int64_t bot_id, arena_plot *out)
{
    sqlite3_stmt *st = adb_stmt(db, HISTORY);
    int rc = st ? adb_bind_int(st, ":bot", bot_id) : SQLITE_ERROR;
    int cap = 0, n = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (adb_grow((void **)&out->p, &cap, n, sizeof *out->p) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        out->p[n++] = (arena_plot_point){ 0, sqlite3_column_double(st, 1),
                                          sqlite3_column_int64(st, 0) };
    }
    adb_done(st);
    out->total = n;
    return rc == SQLITE_DONE ? 0 : -1;
}

int arena_read_plot(arena_db *db, int64_t bot_id, int64_t max_points, arena_plot *out)
{
    memset(out, 0, sizeof *out);
    if (!db || max_points < 1 || plot_steps(db, bot_id, out) != 0) {
        free(out->p);
        memset(out, 0, sizeof *out);
        return -1;
    }
    int64_t total = out->total;
    out->step = total > max_points ? (total + max_points - 1) / max_points : 1;
    sqlite3_stmt *at = adb_stmt(db, FINISHED);
    int rc = at ? SQLITE_OK : SQLITE_ERROR;
    for (int64_t i = 0; rc == SQLITE_OK && i < total; i = next_point(i, out->step, total)) {
        sqlite3_reset(at);
        rc = adb_bind_int(at, ":id", out->p[i].match_id);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(at) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
        arena_plot_point p = out->p[i];
        p.finished_ms = sqlite3_column_int64(at, 0);
        out->p[out->n++] = p;       /* n <= i: the points sent move to the front */
    }
    adb_done(at);
    if (rc != SQLITE_OK) {
        free(out->p);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

/* ---- opponents, forfeits, logs ------------------------------------------------- */

static const char OPPONENTS[] =
    "SELECT " ADB_BOT_LABEL("b") ", o.opponent_id, o.wins, o.draws, o.losses"
    " FROM bot_opponents o JOIN bots b ON b.id = o.opponent_id WHERE o.bot_id = :bot"
    " ORDER BY b.name, b.id";

static void opponent_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_opponent_row *o = elem;
    adb_col_text(st, 0, o->label, sizeof o->label);
    o->opponent_id = sqlite3_column_int64(st, 1);
    o->wins = sqlite3_column_int64(st, 2);
    o->draws = sqlite3_column_int64(st, 3);
    o->losses = sqlite3_column_int64(st, 4);
}

static const char FORFEITS[] =
    "SELECT m.id, m.finished_ms, m.reason, m.detail FROM bot_forfeits f"
    " JOIN matches m ON m.id = f.match_id WHERE f.bot_id = :bot"
    " ORDER BY f.match_id DESC LIMIT :limit";

static void forfeit_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_forfeit_row *f = elem;
    f->match_id = sqlite3_column_int64(st, 0);
    f->finished_ms = sqlite3_column_int64(st, 1);
    adb_col_text(st, 2, f->reason, sizeof f->reason);
    adb_col_text(st, 3, f->detail, sizeof f->detail);
}

/* The walk of the bot's matches, newest first, stops at the oldest match
 * with a log, at the ARENA_READ_LOGS-th found, or after the walk's length. */
static const char LOGS[] =
    "SELECT l.match_id, l.seat, l.bytes FROM"
    " (SELECT match_id, seat FROM match_seats WHERE bot_id = :bot"
    "  AND match_id >= (SELECT coalesce(min(match_id), 1 << 62) FROM match_logs)"
    "  ORDER BY match_id DESC LIMIT :walk) s"
    " JOIN match_logs l ON l.match_id = s.match_id AND l.seat = s.seat"
    " ORDER BY s.match_id DESC LIMIT :limit";

static void log_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_log_row *l = elem;
    l->match_id = sqlite3_column_int64(st, 0);
    l->seat = sqlite3_column_int(st, 1);
    l->bytes = sqlite3_column_int64(st, 2);
}

/* One bot's rows of `sql` (binding :bot, and :limit, :walk when it has
 * them) into *out, elem bytes each: the count, or -1. */
static int bot_rows(arena_db *db, const char *sql, int64_t bot_id, size_t elem, adb_row_fn *row,
                    void **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, sql) : NULL;
    if (!st)
        return -1;
    int rc = adb_bind_int(st, ":bot", bot_id);
    if (sql == FORFEITS)
        ADB_BIND(adb_bind_int(st, ":limit", ARENA_READ_FORFEITS));
    if (sql == LOGS) {
        ADB_BIND(adb_bind_int(st, ":limit", ARENA_READ_LOGS));
        ADB_BIND(adb_bind_int(st, ":walk", ARENA_READ_LOGS_WALK));
    }
    return adb_collect(st, rc, elem, row, NULL, out);
}

int arena_read_opponents(arena_db *db, int64_t bot_id, arena_opponent_row **out)
{
    return bot_rows(db, OPPONENTS, bot_id, sizeof **out, opponent_row, (void **)out);
}

int arena_read_forfeits(arena_db *db, int64_t bot_id, arena_forfeit_row **out)
{
    return bot_rows(db, FORFEITS, bot_id, sizeof **out, forfeit_row, (void **)out);
}

int arena_read_logs(arena_db *db, int64_t bot_id, arena_log_row **out)
{
    return bot_rows(db, LOGS, bot_id, sizeof **out, log_row, (void **)out);
}

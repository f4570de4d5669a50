/*
 * arena_db_claim.c - claims on a tournament's matches (match_claims), so
 * that arenas started on the same tournament share its remaining work.
 *
 * An arena claims a match before handing it to a worker, renews its claims
 * while it runs (a lease on the wall clock), drops a match's claim once it
 * is stored (so that renewing touches only the matches in flight), and
 * drops the rest when it stops.
 * A claim whose lease ran out belongs to an arena that died: the next claim
 * takes it over. Each claim is one statement, atomic under SQLite's write
 * lock, so two arenas never both win the same match. Beside its claims an
 * arena keeps a row of its own (arena_runs): what it plays, its workers,
 * when it was last seen, for the web's live page.
 */
#include "arena_db_internal.h"

/* Claimed when the match is not stored and the row is new, expired, or
 * already ours. */
static const char C_CLAIM[] =
    "INSERT INTO match_claims(tournament_id, game_index, owner, expires_ms)"
    " SELECT :tournament, :index, :owner, :expires WHERE NOT EXISTS"
    " (SELECT 1 FROM matches WHERE tournament_id = :tournament AND game_index = :index)"
    " ON CONFLICT(tournament_id, game_index) DO UPDATE"
    " SET owner = excluded.owner, expires_ms = excluded.expires_ms"
    " WHERE match_claims.expires_ms < :now OR match_claims.owner = :owner";
static const char C_RENEW[] = "UPDATE match_claims SET expires_ms = :expires WHERE owner = :owner";
static const char C_OTHERS[] =
    "SELECT count(*) FROM match_claims c WHERE c.tournament_id = :tournament"
    " AND c.owner != :owner AND c.expires_ms >= :now AND NOT EXISTS"
    " (SELECT 1 FROM matches m WHERE m.tournament_id = c.tournament_id"
    "  AND m.game_index = c.game_index)";
static const char C_DROP_ONE[] =
    "DELETE FROM match_claims WHERE tournament_id = :tournament AND game_index = :index"
    " AND owner = :owner";
static const char C_DROP_OWNER[] =
    "DELETE FROM match_claims WHERE tournament_id = :tournament AND owner = :owner";
static const char C_DROP_ALL[] = "DELETE FROM match_claims WHERE tournament_id = :tournament";

/* Steps a write statement: the rows it changed, or -1. */
static int write_step(arena_db *db, sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int changed = rc == SQLITE_DONE ? sqlite3_changes(db->h) : -1;
    adb_done(st);
    return changed;
}

int arena_db_claim(arena_db *db, int64_t tournament_id, int index, int64_t owner,
                   int64_t now_ms, int64_t lease_ms)
{
    sqlite3_stmt *st = adb_stmt(db, C_CLAIM);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    ADB_BIND(adb_bind_int(st, ":index", index));
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    ADB_BIND(adb_bind_int(st, ":expires", now_ms + lease_ms));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    if (!st)
        return -1;
    int changed = write_step(db, st, rc);
    return changed < 0 ? -1 : changed > 0;
}

int arena_db_claims_renew(arena_db *db, int64_t owner, int64_t now_ms, int64_t lease_ms)
{
    sqlite3_stmt *st = adb_stmt(db, C_RENEW);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    ADB_BIND(adb_bind_int(st, ":expires", now_ms + lease_ms));
    return st && write_step(db, st, rc) >= 0 ? 0 : -1;
}

int arena_db_claims_others(arena_db *db, int64_t tournament_id, int64_t owner, int64_t now_ms)
{
    sqlite3_stmt *st = adb_stmt(db, C_OTHERS);
    int rc = st ? SQLITE_OK : SQLITE_ERROR, n = -1;
    ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    ADB_BIND(adb_bind_int(st, ":now", now_ms));
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    if (st)
        adb_done(st);
    return n;
}

int arena_db_claims_drop(arena_db *db, int64_t tournament_id, int64_t owner, int index)
{
    sqlite3_stmt *st = adb_stmt(db, index >= 0 ? C_DROP_ONE : owner ? C_DROP_OWNER : C_DROP_ALL);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":tournament", tournament_id));
    if (index >= 0)
        ADB_BIND(adb_bind_int(st, ":index", index));
    if (owner || index >= 0)
        ADB_BIND(adb_bind_int(st, ":owner", owner));
    return st && write_step(db, st, rc) >= 0 ? 0 : -1;
}

/* ---- the arenas at work -------------------------------------------------- */

static const char R_SEEN[] =
    "INSERT INTO arena_runs(owner, tournament_id, ladder_id, host, pid, workers, taken,"
    " listening, started_ms, seen_ms) VALUES (:owner, NULLIF(:tournament, 0),"
    " NULLIF(:ladder, 0), :host, :pid, :workers, :taken, NULLIF(:listening, ''), :started,"
    " :seen) ON CONFLICT(owner) DO UPDATE SET workers = excluded.workers,"
    " taken = excluded.taken, listening = excluded.listening, seen_ms = excluded.seen_ms";
static const char R_END[] = "DELETE FROM arena_runs WHERE owner = :owner";
static const char R_FORGET[] = "DELETE FROM arena_runs WHERE seen_ms < :before";

int arena_db_run_seen(arena_db *db, const arena_run_row *r)
{
    sqlite3_stmt *st = adb_stmt(db, R_SEEN);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":owner", r->owner));
    ADB_BIND(adb_bind_int(st, ":tournament", r->tournament_id));
    ADB_BIND(adb_bind_int(st, ":ladder", r->ladder_id));
    ADB_BIND(adb_bind_text(st, ":host", r->host));
    ADB_BIND(adb_bind_int(st, ":pid", r->pid));
    ADB_BIND(adb_bind_int(st, ":workers", r->workers));
    ADB_BIND(adb_bind_int(st, ":taken", r->taken));
    ADB_BIND(adb_bind_text(st, ":listening", r->listening));
    ADB_BIND(adb_bind_int(st, ":started", r->started_ms));
    ADB_BIND(adb_bind_int(st, ":seen", r->seen_ms));
    return st && write_step(db, st, rc) >= 0 ? 0 : -1;
}

int arena_db_run_end(arena_db *db, int64_t owner)
{
    sqlite3_stmt *st = adb_stmt(db, R_END);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":owner", owner));
    return st && write_step(db, st, rc) >= 0 ? 0 : -1;
}

int arena_db_runs_forget(arena_db *db, int64_t before_ms)
{
    sqlite3_stmt *st = adb_stmt(db, R_FORGET);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":before", before_ms));
    return st ? write_step(db, st, rc) : -1;
}

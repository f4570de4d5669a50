/*
 * arena_db_ladder.c - ladders: their rows, how each bot has done in one
 * (games, forfeits in a row), their rating history (a Bradley-Terry
 * fit stored at every refresh, one row per bot, ready for plots), and the
 * verdicts of their SPRT gates.
 *
 * The matches themselves go in through arena_db_match_store like any
 * other, with the ladder's id and its own count as game_index, which a
 * unique index makes a match's identity: a ladder restarted after a crash
 * cannot store one twice.
 */
#define _POSIX_C_SOURCE 200809L
#include "arena_db_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char L_GET[] =
    "SELECT l.id, l.name, l.game, l.options, l.seed,"
    " (SELECT COALESCE(max(game_index) + 1, 0) FROM matches WHERE ladder_id = l.id),"
    " (SELECT count(*) FROM matches WHERE ladder_id = l.id)"
    " FROM ladders l WHERE l.name = :name";
static const char L_INSERT[] =
    "INSERT INTO ladders(name, game, options, seed, created_at)"
    " VALUES (:name, :game, :options, :seed, :now)";

int arena_db_ladder_get(arena_db *db, const char *name, arena_ladder *out)
{
    if (!db || !name || !out)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, L_GET);
    if (!st)
        return -1;
    int rc = adb_bind_text(st, ":name", name);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int ret = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
    if (ret == 0) {
        memset(out, 0, sizeof *out);
        out->id = sqlite3_column_int64(st, 0);
        adb_col_text(st, 1, out->name, sizeof out->name);
        adb_col_text(st, 2, out->game, sizeof out->game);
        adb_col_text(st, 3, out->options, sizeof out->options);
        out->seed = adb_i2u(sqlite3_column_int64(st, 4));
        out->next_index = sqlite3_column_int64(st, 5);
        out->matches = sqlite3_column_int64(st, 6);
    }
    adb_done(st);
    return ret;
}

int arena_db_ladder_open(arena_db *db, arena_ladder *l, char *err, size_t size)
{
    if (!db || !l) {
        adb_err(err, size, "no database or no ladder");
        return -1;
    }
    if (!adb_text_ok(l->name, sizeof l->name, 1) || !adb_text_ok(l->game, sizeof l->game, 0) ||
        !adb_text_ok(l->options, sizeof l->options, 0)) {
        adb_err(err, size, "a ladder's name, game or options are missing or too long");
        return -1;
    }
    if (adb_begin(db, err, size) != 0)
        return -1;
    int r = arena_db_ladder_get(db, l->name, l);
    if (r == 1 && !l->game[0]) {
        adb_rollback(db);
        adb_err(err, size, "no ladder named %s, and no game to start one", l->name);
        return -1;
    }
    if (r == 1) {
        sqlite3_stmt *st = adb_stmt(db, L_INSERT);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_text(st, ":name", l->name));
        ADB_BIND(adb_bind_text(st, ":game", l->game));
        ADB_BIND(adb_bind_text(st, ":options", l->options));
        ADB_BIND(adb_bind_int(st, ":seed", adb_u2i(l->seed)));
        ADB_BIND(adb_bind_int(st, ":now", clk_wall_ms()));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        adb_done(st);
        if (rc != SQLITE_DONE) {
            adb_sqlerr(db, err, size, "cannot create the ladder");
            adb_rollback(db);
            return -1;
        }
        l->id = sqlite3_last_insert_rowid(db->h);
        l->next_index = l->matches = 0;
    } else if (r < 0) {
        adb_sqlerr(db, err, size, "cannot read the ladder");
        adb_rollback(db);
        return -1;
    }
    if (adb_commit(db, err, size) != 0)
        return -1;
    return r == 0 ? 1 : 0;
}

static const char L_PREFIX[] =
    "SELECT name FROM ladders WHERE substr(name, 1, length(:prefix)) = :prefix"
    " ORDER BY name LIMIT 4";

int arena_db_ladder_find(arena_db *db, const char *ref, arena_ladder *out, char *err,
                         size_t size)
{
    int got = arena_db_ladder_get(db, ref, out);
    if (got != 1) {
        if (got < 0)
            adb_sqlerr(db, err, size, "cannot read the ladders");
        return got;
    }
    sqlite3_stmt *st = adb_stmt(db, L_PREFIX);
    if (!st)
        return adb_sqlerr(db, err, size, "cannot read the ladders");
    char names[4][128];
    int n = 0, rc = adb_bind_text(st, ":prefix", ref);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        adb_col_text(st, 0, names[n], sizeof names[n]);
        n++;
        rc = SQLITE_OK;
    }
    adb_done(st);
    if (rc != SQLITE_DONE)
        return adb_sqlerr(db, err, size, "cannot read the ladders");
    if (n == 0) {
        adb_err(err, size, "no ladder named '%s'", ref);
        return 1;
    }
    if (n > 1) {
        adb_err(err, size, "'%s' begins the names of several ladders (%s, %s%s%s%s): give more "
                "of one", ref, names[0], names[1], n > 2 ? ", " : "", n > 2 ? names[2] : "",
                n > 3 ? ", ..." : "");
        return 2;
    }
    got = arena_db_ladder_get(db, names[0], out);
    if (got != 0)
        adb_sqlerr(db, err, size, "cannot read the ladders");
    return got;
}

static const char L_SAME[] =
    "SELECT name FROM ladders WHERE game = :game AND options = :options ORDER BY id LIMIT 1";
static const char L_TAKEN[] = "SELECT 1 FROM ladders WHERE name = :name";

int arena_db_ladder_default(arena_db *db, const char *game, const char *options, char *name,
                            size_t size)
{
    sqlite3_stmt *st = adb_stmt(db, L_SAME);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_text(st, ":game", game));
    ADB_BIND(adb_bind_text(st, ":options", options));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        adb_col_text(st, 0, name, size);
    adb_done(st);
    if (rc == SQLITE_ROW)
        return 0;
    if (rc != SQLITE_DONE)
        return -1;
    for (int k = 1; k < 1000000; k++) {
        if ((size_t)(k == 1 ? snprintf(name, size, "%s", game)
                            : snprintf(name, size, "%s-%d", game, k)) >= size)
            return -1;
        st = adb_stmt(db, L_TAKEN);
        rc = st ? adb_bind_text(st, ":name", name) : SQLITE_ERROR;
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        adb_done(st);
        if (rc == SQLITE_DONE)
            return 0;
        if (rc != SQLITE_ROW)
            return -1;
    }
    return -1;
}

/* ---- a bot's record in a ladder ---------------------------------------- */

static const char L_GAMES[] =
    "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE s.bot_id = :bot AND m.ladder_id = :ladder";
/* Its latest matches there, newest first: did its seat forfeit? */
/* A remote bot's match lost by its connection ('disconnected', the
 * referee's REF_DISCONNECTED) is not a forfeit of the bot's (offline is not
 * a forfeit): it neither counts in a run of forfeits nor ends one, so a
 * participant's network fault in the middle of several matches at once
 * cannot retire their bot. */
static const char L_LATEST[] =
    "SELECT m.id, m.culprit IS NOT NULL AND m.culprit = s.seat, m.reason"
    " FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE s.bot_id = :bot AND m.ladder_id = :ladder"
    " AND NOT (m.culprit IS s.seat AND m.reason IS 'disconnected')"
    " ORDER BY s.match_id DESC LIMIT :max";

int arena_db_ladder_record(arena_db *db, int64_t ladder_id, int64_t bot_id, int max,
                           arena_ladder_record *out)
{
    if (!db || !out || max < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->bot_id = bot_id;
    sqlite3_stmt *st = adb_stmt(db, L_GAMES);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":bot", bot_id));
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        out->games = sqlite3_column_int(st, 0);
    adb_done(st);
    if (rc != SQLITE_ROW)
        return -1;
    st = adb_stmt(db, L_LATEST);
    rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":bot", bot_id));
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    ADB_BIND(adb_bind_int(st, ":max", max));
    int counting = 1;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (!counting || !sqlite3_column_int(st, 1)) {
            counting = 0;
            continue;
        }
        if (out->forfeits_in_a_row++ == 0) {
            out->last_match = sqlite3_column_int64(st, 0);
            adb_col_text(st, 2, out->last_reason, sizeof out->last_reason);
        }
    }
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- rating history ------------------------------------------------------ */

static const char F_INSERT[] =
    "INSERT INTO rating_fits(ladder_id, at_ms, matches) VALUES (:ladder, :at, :matches)";
static const char F_ROW[] =
    "INSERT INTO rating_fit_bots(fit_id, bot_id, rating, ci95, games)"
    " VALUES (:fit, :bot, :rating, :ci95, :games)";

static int fit_rows(arena_db *db, int64_t fit, const arena_fit_row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        sqlite3_stmt *st = adb_stmt(db, F_ROW);
        int rc = st ? SQLITE_OK : SQLITE_ERROR;
        ADB_BIND(adb_bind_int(st, ":fit", fit));
        ADB_BIND(adb_bind_int(st, ":bot", rows[i].bot_id));
        ADB_BIND(adb_bind_double(st, ":rating", rows[i].rating));
        ADB_BIND(adb_bind_double(st, ":ci95", rows[i].ci95));
        ADB_BIND(adb_bind_int(st, ":games", rows[i].games));
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        adb_done(st);
        if (rc != SQLITE_DONE)
            return -1;
    }
    return 0;
}

int arena_db_fit_store(arena_db *db, int64_t ladder_id, int64_t at_ms, int64_t matches,
                       const arena_fit_row *rows, int n, char *err, size_t size)
{
    if (!db || (n > 0 && !rows) || n < 0) {
        adb_err(err, size, "no database or no fit");
        return -1;
    }
    if (adb_begin(db, err, size) != 0)
        return -1;
    sqlite3_stmt *st = adb_stmt(db, F_INSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    ADB_BIND(adb_bind_int(st, ":at", at_ms));
    ADB_BIND(adb_bind_int(st, ":matches", matches));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc != SQLITE_DONE || fit_rows(db, sqlite3_last_insert_rowid(db->h), rows, n) != 0) {
        adb_sqlerr(db, err, size, "cannot store the rating fit");
        adb_rollback(db);
        return -1;
    }
    return adb_commit(db, err, size);
}

/* ---- the SPRT gate's verdicts --------------------------------------------- */

static const char G_INSERT[] =
    "INSERT INTO gate_verdicts(ladder_id, bot_id, opponent_id, outcome, elo0, elo1,"
    " alpha, beta, llr, lower, upper, wins, draws, losses, pairs, decided_ms)"
    " VALUES (:ladder, :bot, :opponent, :outcome, :elo0, :elo1, :alpha, :beta, :llr, :lower,"
    " :upper, :wins, :draws, :losses, :pairs, :at)"
    " ON CONFLICT (ladder_id, bot_id, opponent_id, outcome) DO NOTHING";

int arena_db_gate_verdict_store(arena_db *db, const arena_gate_verdict *v, char *err,
                                size_t size)
{
    if (!db || !v || !v->outcome) {
        adb_err(err, size, "no database or no verdict");
        return -1;
    }
    sqlite3_stmt *st = adb_stmt(db, G_INSERT);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":ladder", v->ladder_id));
    ADB_BIND(adb_bind_int(st, ":bot", v->bot_id));
    ADB_BIND(adb_bind_int(st, ":opponent", v->opponent_id));
    ADB_BIND(adb_bind_text(st, ":outcome", v->outcome));
    const struct { const char *name; double value; } reals[] = {
        { ":elo0", v->elo0 }, { ":elo1", v->elo1 }, { ":alpha", v->alpha }, { ":beta", v->beta },
        { ":llr", v->llr }, { ":lower", v->lower }, { ":upper", v->upper },
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        ADB_BIND(adb_bind_double(st, reals[i].name, reals[i].value));
    ADB_BIND(adb_bind_int(st, ":wins", v->wins));
    ADB_BIND(adb_bind_int(st, ":draws", v->draws));
    ADB_BIND(adb_bind_int(st, ":losses", v->losses));
    ADB_BIND(adb_bind_int(st, ":pairs", v->pairs));
    ADB_BIND(adb_bind_int(st, ":at", v->decided_ms));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    adb_done(st);
    if (rc != SQLITE_DONE)
        return adb_sqlerr(db, err, size, "cannot store the gate's verdict");
    return sqlite3_changes(db->h) > 0;
}

static const char F_HISTORY[] =
    "SELECT f.at_ms, b.bot_id, b.rating, b.ci95, b.games"
    " FROM rating_fit_bots b JOIN rating_fits f ON f.id = b.fit_id"
    " WHERE b.bot_id = :bot AND (:ladder = 0 OR f.ladder_id = :ladder)"
    " ORDER BY b.fit_id";

int arena_db_fit_history(arena_db *db, int64_t ladder_id, int64_t bot_id, int64_t **at_ms,
                         arena_fit_row **rows)
{
    if (!db || !at_ms || !rows)
        return -1;
    *at_ms = NULL;
    *rows = NULL;
    sqlite3_stmt *st = adb_stmt(db, F_HISTORY);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    ADB_BIND(adb_bind_int(st, ":bot", bot_id));
    ADB_BIND(adb_bind_int(st, ":ladder", ladder_id));
    int n = 0, cap = 0, cap2 = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (adb_grow((void **)at_ms, &cap, n, sizeof **at_ms) != 0 ||
            adb_grow((void **)rows, &cap2, n, sizeof **rows) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
        (*at_ms)[n] = sqlite3_column_int64(st, 0);
        arena_fit_row *r = &(*rows)[n++];
        r->bot_id = sqlite3_column_int64(st, 1);
        r->rating = sqlite3_column_double(st, 2);
        r->ci95 = sqlite3_column_double(st, 3);
        r->games = sqlite3_column_int(st, 4);
    }
    adb_done(st);
    if (rc != SQLITE_DONE) {
        free(*at_ms);
        free(*rows);
        *at_ms = NULL;
        *rows = NULL;
        return -1;
    }
    return n;
}

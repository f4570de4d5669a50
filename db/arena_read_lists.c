/*
 * arena_read_lists.c - the short lists the web shows beside its reports:
 * the newest tournaments and ladders, the live view (how fast matches land,
 * what runs, the arenas at work, the ladders playing) and the verdicts of
 * the ladders' SPRT gates (arena_read.h).
 */
#include <stdlib.h>

#include "arena_db_internal.h"
#include "arena_read.h"

/* Rows of `sql` (binding the whole numbers named in `ints`, NULL-ended)
 * into *out, elem bytes each: the count, or -1. */
typedef struct int_param { const char *name; int64_t value; } int_param;
static int rows_of(arena_db *db, const char *sql, const int_param *ints, size_t elem,
                   adb_row_fn *row, void **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, sql) : NULL;
    if (!st)
        return -1;
    int rc = SQLITE_OK;
    for (int i = 0; ints && ints[i].name; i++)
        ADB_BIND(adb_bind_int(st, ints[i].name, ints[i].value));
    return adb_collect(st, rc, elem, row, NULL, out);
}

static const char TOURNAMENTS[] =
    "SELECT id, game, format, games, options, planned, created_at, finished_at"
    " FROM tournaments ORDER BY id DESC LIMIT :limit";

static void tournament_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_tournament_row *t = elem;
    t->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, t->game, sizeof t->game);
    adb_col_text(st, 2, t->format, sizeof t->format);
    t->games = sqlite3_column_int64(st, 3);
    adb_col_text(st, 4, t->options, sizeof t->options);
    t->planned = sqlite3_column_int64(st, 5);
    t->created_ms = sqlite3_column_int64(st, 6);
    t->finished = sqlite3_column_type(st, 7) != SQLITE_NULL;
    t->finished_ms = sqlite3_column_int64(st, 7);
}

int arena_read_tournaments(arena_db *db, arena_tournament_row **out)
{
    const int_param p[] = { { ":limit", ARENA_READ_NEWEST }, { NULL, 0 } };
    return rows_of(db, TOURNAMENTS, p, sizeof **out, tournament_row, (void **)out);
}

static const char LADDERS[] =
    "SELECT id, name, game, options, created_at FROM ladders ORDER BY id DESC LIMIT :limit";

static void ladder_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_ladder_row *l = elem;
    l->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, l->name, sizeof l->name);
    adb_col_text(st, 2, l->game, sizeof l->game);
    adb_col_text(st, 3, l->options, sizeof l->options);
    l->created_ms = sqlite3_column_int64(st, 4);
}

int arena_read_ladders(arena_db *db, arena_ladder_row **out)
{
    const int_param p[] = { { ":limit", ARENA_READ_NEWEST }, { NULL, 0 } };
    return rows_of(db, LADDERS, p, sizeof **out, ladder_row, (void **)out);
}

/* ---- the live view ---------------------------------------------------------- */

static const char RECENT_TIMES[] = "SELECT finished_ms FROM matches ORDER BY id DESC LIMIT 1000";

int arena_read_pace(arena_db *db, arena_pace *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = db ? adb_stmt(db, RECENT_TIMES) : NULL;
    if (!st)
        return -1;
    int rc;
    for (int first = 1; (rc = sqlite3_step(st)) == SQLITE_ROW; first = 0) {
        int64_t t = sqlite3_column_int64(st, 0);
        if (first)
            out->latest_ms = t;
        out->minute += t > out->latest_ms - 60000;
        out->ten_minutes += t > out->latest_ms - 600000;
    }
    adb_done(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* An arena claims what it hands to its workers, playing or next in line,
 * and renews the lease while it plays: the unexpired claims are taken. */
static const char RUNNING[] =
    "SELECT t.id, t.game, t.format, t.planned,"
    " (SELECT count(*) FROM matches m WHERE m.tournament_id = t.id), t.created_at,"
    " (SELECT count(*) FROM match_claims c WHERE c.tournament_id = t.id AND c.expires_ms > :now),"
    " (SELECT count(DISTINCT owner) FROM match_claims c"
    "  WHERE c.tournament_id = t.id AND c.expires_ms > :now)"
    " FROM tournaments t WHERE t.finished_at IS NULL ORDER BY t.id DESC LIMIT 20";

static void running_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_running_row *r = elem;
    r->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, r->game, sizeof r->game);
    adb_col_text(st, 2, r->format, sizeof r->format);
    r->planned = sqlite3_column_int64(st, 3);
    r->stored = sqlite3_column_int64(st, 4);
    r->created_ms = sqlite3_column_int64(st, 5);
    r->taken = sqlite3_column_int64(st, 6);
    r->arenas = sqlite3_column_int64(st, 7);
}

int arena_read_running(arena_db *db, int64_t now_ms, arena_running_row **out)
{
    const int_param p[] = { { ":now", now_ms }, { NULL, 0 } };
    return rows_of(db, RUNNING, p, sizeof **out, running_row, (void **)out);
}

/* An arena renews its row every two seconds; one killed stops being seen. */
static const char ARENAS[] =
    "SELECT r.host, r.pid, r.tournament_id, l.name, r.workers, r.taken, r.listening,"
    " r.started_ms, r.seen_ms, r.owner, r.ladder_id"
    " FROM arena_runs r LEFT JOIN ladders l ON l.id = r.ladder_id"
    " ORDER BY r.started_ms DESC LIMIT 50";

static void arena_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_work_row *a = elem;
    adb_col_text(st, 0, a->run.host, sizeof a->run.host);
    a->run.pid = sqlite3_column_int64(st, 1);
    a->run.tournament_id = sqlite3_column_int64(st, 2);
    adb_col_text(st, 3, a->ladder, sizeof a->ladder);
    a->run.workers = sqlite3_column_int(st, 4);
    a->run.taken = sqlite3_column_int(st, 5);
    adb_col_text(st, 6, a->run.listening, sizeof a->run.listening);
    a->run.started_ms = sqlite3_column_int64(st, 7);
    a->run.seen_ms = sqlite3_column_int64(st, 8);
    a->run.owner = sqlite3_column_int64(st, 9);
    a->run.ladder_id = sqlite3_column_int64(st, 10);
}

int arena_read_arenas(arena_db *db, arena_work_row **out)
{
    return rows_of(db, ARENAS, NULL, sizeof **out, arena_row, (void **)out);
}

/* Among the newest 1,000 matches; what a ladder scheduled comes from the
 * (ladder, index) index. */
static const char LADDERS_ACTIVE[] =
    "SELECT l.name, l.game, count(*), max(m.finished_ms),"
    " (SELECT max(x.game_index) + 1 FROM matches x WHERE x.ladder_id = l.id)"
    " FROM (SELECT ladder_id, finished_ms FROM matches ORDER BY id DESC LIMIT 1000) m"
    " JOIN ladders l ON l.id = m.ladder_id GROUP BY l.id ORDER BY max(m.finished_ms) DESC";

static void ladder_live_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_ladder_live_row *l = elem;
    adb_col_text(st, 0, l->name, sizeof l->name);
    adb_col_text(st, 1, l->game, sizeof l->game);
    l->matches = sqlite3_column_int64(st, 2);
    l->latest_ms = sqlite3_column_int64(st, 3);
    l->scheduled = sqlite3_column_int64(st, 4);
}

int arena_read_ladders_live(arena_db *db, arena_ladder_live_row **out)
{
    return rows_of(db, LADDERS_ACTIVE, NULL, sizeof **out, ladder_live_row, (void **)out);
}

/* ---- gates ------------------------------------------------------------------- */

static const char GATES[] =
    "SELECT g.id, l.name, g.bot_id, " ADB_BOT_LABEL("b") ", g.opponent_id,"
    " " ADB_BOT_LABEL("o") ", g.outcome, g.elo0, g.elo1, g.alpha, g.beta, g.llr, g.lower,"
    " g.upper, g.wins, g.draws, g.losses, g.pairs, g.decided_ms"
    " FROM gate_verdicts g JOIN ladders l ON l.id = g.ladder_id"
    " JOIN bots b ON b.id = g.bot_id JOIN bots o ON o.id = g.opponent_id"
    " WHERE (:ladder = 0 OR g.ladder_id = :ladder)"
    " AND (:bot = 0 OR :bot IN (g.bot_id, g.opponent_id))"
    " ORDER BY g.id DESC LIMIT :limit";

static void gate_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_gate_row *g = elem;
    g->id = sqlite3_column_int64(st, 0);
    adb_col_text(st, 1, g->ladder, sizeof g->ladder);
    g->bot_id = sqlite3_column_int64(st, 2);
    adb_col_text(st, 3, g->bot, sizeof g->bot);
    g->opponent_id = sqlite3_column_int64(st, 4);
    adb_col_text(st, 5, g->opponent, sizeof g->opponent);
    adb_col_text(st, 6, g->outcome, sizeof g->outcome);
    double *reals[] = { &g->elo0, &g->elo1, &g->alpha, &g->beta, &g->llr, &g->lower, &g->upper };
    for (int i = 0; i < 7; i++)
        *reals[i] = sqlite3_column_double(st, 7 + i);
    int64_t *ints[] = { &g->wins, &g->draws, &g->losses, &g->pairs, &g->decided_ms };
    for (int i = 0; i < 5; i++)
        *ints[i] = sqlite3_column_int64(st, 14 + i);
}

int arena_read_gates(arena_db *db, int64_t ladder_id, int64_t bot_id, arena_gate_row **out)
{
    const int_param p[] = { { ":ladder", ladder_id }, { ":bot", bot_id },
                            { ":limit", ARENA_READ_NEWEST }, { NULL, 0 } };
    return rows_of(db, GATES, p, sizeof **out, gate_row, (void **)out);
}

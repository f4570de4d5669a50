/*
 * arena_read_matches.c - pages of matches as the web lists them, the kinds
 * of match stored, the newest match (arena_read.h).
 *
 * A page is keyset-paginated, newest first: `before` is the cursor (the
 * last id of the previous page), never an OFFSET. With a bot, the
 * (bot_id, match_id) index walks that bot's matches; without one, the
 * primary key walks all matches, and filters no index serves (game,
 * reason, ...) are checked over at most ARENA_READ_SCAN ids per page.
 * Either way a page reads a bounded number of rows, at any depth of a
 * database of any size.
 */
#include <stdlib.h>

#include "arena_db_internal.h"
#include "arena_read.h"

static const char NEWEST[] = "SELECT coalesce(max(id), 0) FROM matches";

int64_t arena_read_newest(arena_db *db)
{
    sqlite3_stmt *st = db ? adb_stmt(db, NEWEST) : NULL;
    int64_t id = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    adb_done(st);
    return id;
}

/* The unary + keeps SQLite on the primary key (newest first) instead of
 * an index on the filtered column that would then need a sort. */
#define FILTERS \
    " AND (:game = '' OR +m.game = :game) AND (:players = 0 OR +m.seats = :players)" \
    " AND (:tournament = 0 OR +m.tournament_id = :tournament)" \
    " AND (:ladder = 0 OR +m.ladder_id = :ladder)" \
    " AND (:reason = '' OR +m.reason = :reason)"
static const char PAGE_BY_BOT[] =
    "SELECT m.id FROM match_seats s JOIN matches m ON m.id = s.match_id"
    " WHERE s.bot_id = :bot AND s.match_id < :before AND (:score < 0 OR s.score = :score)" FILTERS
    " ORDER BY s.match_id DESC LIMIT :limit";
static const char PAGE_ALL[] =
    "SELECT m.id FROM matches m WHERE m.id < :before AND m.id >= :floor"
    " AND (:score < 0 OR (SELECT x.score FROM match_seats x WHERE x.match_id = m.id"
    "                     AND x.seat = 0) = :score)" FILTERS
    " ORDER BY m.id DESC LIMIT :limit";
static const char MATCH_ROW[] =
    "SELECT m.id, m.game, m.seats, m.tournament_id, m.reason, m.culprit, m.detail, m.decisions,"
    " m.started_ms, m.finished_ms, s.seat, s.bot_id, " ADB_BOT_LABEL("b") ", b.version,"
    " s.team, s.score"
    " FROM matches m JOIN match_seats s ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id"
    " WHERE m.id = :id ORDER BY s.seat";

/* The ids of q's page, at most limit + 1 (one more says there is a next
 * page) into ids: their count, or -1. */
static int page_ids(arena_db *db, const arena_page_query *q, int64_t before, int64_t floor,
                    int64_t *ids)
{
    sqlite3_stmt *st = adb_stmt(db, q->bot ? PAGE_BY_BOT : PAGE_ALL);
    int rc = st ? SQLITE_OK : SQLITE_ERROR;
    if (q->bot)
        ADB_BIND(adb_bind_int(st, ":bot", q->bot));
    else
        ADB_BIND(adb_bind_int(st, ":floor", floor));
    ADB_BIND(adb_bind_int(st, ":before", before));
    ADB_BIND(adb_bind_int(st, ":limit", q->limit + 1));
    ADB_BIND(adb_bind_int(st, ":tournament", q->tournament));
    ADB_BIND(adb_bind_int(st, ":ladder", q->ladder));
    ADB_BIND(adb_bind_int(st, ":players", q->players));
    ADB_BIND(adb_bind_text(st, ":game", q->game ? q->game : ""));
    ADB_BIND(adb_bind_text(st, ":reason", q->reason ? q->reason : ""));
    ADB_BIND(adb_bind_double(st, ":score", q->score));
    int n = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (n <= q->limit)
            ids[n++] = sqlite3_column_int64(st, 0);
    }
    adb_done(st);
    return rc == SQLITE_DONE ? n : -1;
}

/* Match `id` with its seats into *m: 1 read, 0 not there (or no seats),
 * -1 error. */
static int match_read(arena_db *db, int64_t id, arena_match_row *m)
{
    sqlite3_stmt *st = adb_stmt(db, MATCH_ROW);
    int rc = st ? adb_bind_int(st, ":id", id) : SQLITE_ERROR;
    memset(m, 0, sizeof *m);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (m->nseats == 0) {
            m->id = sqlite3_column_int64(st, 0);
            adb_col_text(st, 1, m->game, sizeof m->game);
            m->players = sqlite3_column_int(st, 2);
            m->tournament_id = sqlite3_column_int64(st, 3);
            adb_col_text(st, 4, m->reason, sizeof m->reason);
            m->culprit = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5);
            adb_col_text(st, 6, m->detail, sizeof m->detail);
            m->decisions = sqlite3_column_int(st, 7);
            m->started_ms = sqlite3_column_int64(st, 8);
            m->finished_ms = sqlite3_column_int64(st, 9);
        }
        if (m->nseats == ARENA_MAX_SEATS)
            continue;
        arena_seat_row *s = &m->seat[m->nseats++];
        s->seat = sqlite3_column_int(st, 10);
        s->bot_id = sqlite3_column_int64(st, 11);
        adb_col_text(st, 12, s->bot, sizeof s->bot);
        adb_col_text(st, 13, s->version, sizeof s->version);
        s->team = sqlite3_column_int(st, 14);
        s->score = sqlite3_column_double(st, 15);
    }
    adb_done(st);
    return rc != SQLITE_DONE ? -1 : m->nseats > 0;
}

int arena_read_page(arena_db *db, const arena_page_query *q, arena_page *out)
{
    memset(out, 0, sizeof *out);
    if (!db || q->limit < 1 || q->limit > INT32_MAX - 1)
        return -1;
    int filtered = (q->game && *q->game) || (q->reason && *q->reason) || q->tournament ||
                   q->ladder || q->players || q->score >= 0;
    int64_t before = q->before, floor = 0;
    if (!q->bot && filtered) {
        /* the window starts at the newest match, not at the cursor's default */
        int64_t newest = arena_read_newest(db);
        if (newest < 0)
            return -1;
        if (newest + 1 < before)
            before = newest + 1;
        floor = before > ARENA_READ_SCAN ? before - ARENA_READ_SCAN : 0;
    }
    int64_t *ids = malloc((size_t)(q->limit + 1) * sizeof *ids);
    int n = ids ? page_ids(db, q, before, floor, ids) : -1;
    int shown = n > q->limit ? (int)q->limit : n;
    if (n >= 0 && !(out->m = malloc((size_t)(shown > 0 ? shown : 1) * sizeof *out->m)))
        n = -1;
    for (int i = 0; n >= 0 && i < shown; i++) {
        int rc = match_read(db, ids[i], &out->m[out->n]);
        if (rc < 0)
            n = -1;
        out->n += rc > 0;
    }
    if (n >= 0) {
        int more = n > q->limit;
        out->partial = !more && floor > 0;
        out->next = more ? ids[shown - 1] : out->partial ? floor : 0;
    }
    free(ids);
    if (n < 0) {
        arena_read_page_free(out);
        return -1;
    }
    return 0;
}

void arena_read_page_free(arena_page *p)
{
    free(p->m);
    memset(p, 0, sizeof *p);
}

/* The distinct (game, seats) of every match, by skipping through the
 * matches_game index: one seek per kind instead of a scan of a million
 * rows (GROUP BY reads every entry of the index). Each step goes to the
 * next seat count of the same game, else to the smallest of the next game. */
#define NEXT_SEATS "(SELECT min(m.seats) FROM matches m WHERE m.game = k.game AND m.seats > k.seats)"
#define NEXT_GAME "(SELECT min(m.game) FROM matches m WHERE m.game > k.game)"
static const char KINDS[] =
    "WITH RECURSIVE k(game, seats) AS ("
    " SELECT * FROM (SELECT game, seats FROM matches ORDER BY game, seats LIMIT 1)"
    " UNION ALL"
    " SELECT CASE WHEN " NEXT_SEATS " IS NOT NULL THEN k.game ELSE " NEXT_GAME " END,"
    "  coalesce(" NEXT_SEATS ", (SELECT min(m.seats) FROM matches m WHERE m.game = " NEXT_GAME "))"
    " FROM k WHERE k.game IS NOT NULL)"
    " SELECT game, seats, (SELECT max(m.id) FROM matches m WHERE m.game = k.game AND m.seats = k.seats)"
    " FROM k WHERE game IS NOT NULL";

static void kind_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    arena_kind_row *k = elem;
    adb_col_text(st, 0, k->game, sizeof k->game);
    k->players = sqlite3_column_int(st, 1);
    k->newest = sqlite3_column_int64(st, 2);    /* the index's last column */
}

int arena_read_kinds(arena_db *db, arena_kind_row **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, KINDS) : NULL;
    return st ? adb_collect(st, SQLITE_OK, sizeof **out, kind_row, NULL, (void **)out) : -1;
}

static const char RECORDED[] = "SELECT id FROM matches WHERE record IS NOT NULL ORDER BY id";

static void id_row(sqlite3_stmt *st, void *elem, const void *ctx)
{
    (void)ctx;
    *(int64_t *)elem = sqlite3_column_int64(st, 0);
}

int arena_read_recorded(arena_db *db, int64_t **out)
{
    *out = NULL;
    sqlite3_stmt *st = db ? adb_stmt(db, RECORDED) : NULL;
    return st ? adb_collect(st, SQLITE_OK, sizeof **out, id_row, NULL, (void **)out) : -1;
}

/*
 * test_arena_migrate.c - schema migrations on a real database: one made by
 * the arena of schema 1, before games and seats had rows of their own
 * (tests/arena/fixtures/schema1, see its README), and one of schema 13,
 * before bots had games (fixtures/schema13).
 *
 *   test_arena_migrate SCHEMA1.db SCHEMA13.db
 *
 * Opened by today's library, the copy migrates with every row moved over
 * exactly: the same matches seat by seat, the tournaments with the spec
 * their old keys spelled, the same bots, ratings and history. A newer
 * schema is refused untouched; a migration that fails midway (a bad row,
 * a broken reference, an unreadable key) leaves the file exactly as it
 * was, at its old version, and succeeds once the row is mended.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "db_test.h"
#include "game.h"

static const char *fixture, *fixture13;

/* Every row of a query as text, columns joined by '|', rows by '\n'
 * (malloc'ed). NULL prints as "~". */
static char *dump(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(h));
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            fprintf(f, "%s%s", i ? "|" : "", t ? (const char *)t : "~");
        }
        fputc('\n', f);
    }
    fclose(f);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_close(h), SQLITE_OK);
    return out;
}

/* A fixture copied to DIR/NAME.db; its path. */
static const char *copy_file(const char *from, const char *name)
{
    const char *path = db_path(name);
    FILE *in = fopen(from, "rb"), *out = fopen(path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
    return path;
}

/* The schema-1 fixture copied to DIR/NAME.db; its path. */
static const char *copy_fixture(const char *name)
{
    return copy_file(fixture, name);
}

/* ---- rows move over exactly ---------------------------------------------- */

/* Matches seat by seat, written for schema 1 and for schema 2: the same
 * text for the same data. */
static const char OLD_MATCHES[] =
    "SELECT id, tournament_id, game_index, seed, options, seats, bot0, score0, bot1, score1,"
    " bot2, score2, bot3, score3, reason, culprit, detail, decisions, hash, record,"
    " started_ms, finished_ms, elo_k FROM matches ORDER BY id";
#define SEAT(n) \
    " (SELECT bot_id FROM match_seats WHERE match_id = m.id AND seat = " #n ")," \
    " (SELECT score FROM match_seats WHERE match_id = m.id AND seat = " #n "),"
static const char NEW_MATCHES[] =
    "SELECT id, tournament_id, game_index, seed, options, seats," SEAT(0) SEAT(1) SEAT(2) SEAT(3)
    " reason, culprit, detail, decisions, hash, record, started_ms, finished_ms, elo_k"
    " FROM matches m ORDER BY id";
/* What did not change shape. */
static const char *const SAME[] = {
    "SELECT id, format, games, options, seed, bots, planned, created_at, finished_at"
    " FROM tournaments ORDER BY id",
    "SELECT id, name, cmd, cwd, version, added_at, removed_at FROM bots ORDER BY id",
    "SELECT * FROM ratings ORDER BY bot_id",
    "SELECT * FROM rating_history ORDER BY match_id, bot_id",
};
#define NSAME (sizeof SAME / sizeof SAME[0])

/* The number after " NAME=" in a schema-1 key, or `missing`. */
static double key_field(const char *key, const char *name, double missing)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", name);
    char head[1024];
    snprintf(head, sizeof head, " %s", key);
    char *bar = strstr(head, " | ");
    assert_non_null(bar);
    *bar = 0;
    const char *at = strstr(head, pat);
    return at ? strtod(at + strlen(pat), NULL) : missing;
}

static void test_rows_move_exactly(void **state)
{
    (void)state;
    const char *path = copy_fixture("moved");
    assert_int_equal(raw_int(path, "PRAGMA user_version"), 1);
    char *old_matches = dump(path, OLD_MATCHES), *old_same[NSAME];
    for (size_t i = 0; i < NSAME; i++)
        old_same[i] = dump(path, SAME[i]);
    char *keys = dump(path, "SELECT id, key FROM tournaments ORDER BY id");
    int64_t nmatches = raw_int(path, "SELECT count(*) FROM matches");
    int64_t nseats = raw_int(path, "SELECT sum(seats) FROM matches");
    assert_true(nmatches > 0 && raw_int(path, "SELECT count(*) FROM matches WHERE seats = 4") > 0);

    arena_db *db = NULL;
    if (arena_db_open(&db, path, 0, err, sizeof err) != 0)
        fail_msg("open: %s", err);
    assert_int_equal(arena_db_schema_version(db), ARENA_DB_SCHEMA);
    check_equal(db);

    char *new_matches = dump(path, NEW_MATCHES);
    assert_string_equal(new_matches, old_matches);
    for (size_t i = 0; i < NSAME; i++) {
        char *now = dump(path, SAME[i]);
        assert_string_equal(now, old_same[i]);
        free(now);
        free(old_same[i]);
    }
    assert_int_equal(raw_int(path, "SELECT count(*) FROM match_seats"), nseats);
    /* Schema 1 rated 2 seats one against the other, 4 as 0+2 against 1+3. */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM match_seats WHERE team != seat % 2"), 0);

    /* Every row names the game schema 1 played; the spec comes from the key. */
    const char *legacy = game_legacy()->name;
    char *line = keys, *next;
    int tournaments = 0;
    for (; *line; line = next + 1, tournaments++) {
        next = strchr(line, '\n');
        assert_non_null(next);
        *next = 0;
        char *bar = strchr(line, '|');
        int64_t id = strtoll(line, NULL, 10);
        const char *key = bar + 1;
        arena_tournament t;
        assert_int_equal(arena_db_tournament_get(db, id, &t), 0);
        assert_string_equal(t.game, legacy);
        assert_true(t.terms.move_ms == key_field(key, "move_ms", -2));
        assert_true(t.terms.bank_ms == key_field(key, "bank_ms", -2));
        assert_true(t.terms.handshake_ms == key_field(key, "handshake_ms", -2));
        assert_true(t.terms.strikes == key_field(key, "strikes", -2));
        assert_true(t.elo_k == key_field(key, "elo_k", -2));
        assert_true(t.terms.memory_mb == key_field(key, "memory_mb", -1));
        assert_true(t.nbots >= 2);
        assert_true(t.seed == (uint64_t)strtoull(strstr(key, " seed=") + 6, NULL, 10));
    }
    assert_int_equal(tournaments, 3);
    for (int64_t id = 1; id <= nmatches; id++) {
        arena_match m;
        assert_int_equal(arena_db_match_get(db, id, &m), 0);
        assert_string_equal(m.game, legacy);
        assert_non_null(m.record);
        arena_match_free(&m);
    }
    arena_db_close(db);

    /* A bot's rating history is read from indexes alone (schema 9). */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_index_info('rating_history_bot')"),
                     4);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_index_info('matches_finished')"),
                     2);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches INDEXED BY matches_finished"
                                   " WHERE id > 0"), nmatches);

    /* The old shape is gone; what is left is sound. */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_table_info('tournaments')"
                                   " WHERE name = 'key'"), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM pragma_table_info('matches')"
                                   " WHERE name GLOB 'bot*' OR name GLOB 'score*'"), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master"
                                   " WHERE name GLOB '*_new'"), 0);
    char *ok = dump(path, "PRAGMA integrity_check");
    assert_string_equal(ok, "ok\n");
    free(ok);
    char *fk = dump(path, "PRAGMA foreign_key_check");
    assert_string_equal(fk, "");
    free(fk);
    free(old_matches);
    free(new_matches);
    free(keys);
}

/* ---- refused, or failed midway -------------------------------------------- */

/* Everything in the file, schema included, as text. */
static char *dump_all(const char *path)
{
    static const char *const tables[] = {
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name",
        "PRAGMA user_version", OLD_MATCHES,
        "SELECT * FROM tournaments ORDER BY id", "SELECT * FROM bots ORDER BY id",
        "SELECT * FROM ratings ORDER BY bot_id",
        "SELECT * FROM rating_history ORDER BY match_id, bot_id",
    };
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    assert_non_null(f);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char *d = dump(path, tables[i]);
        fprintf(f, "%s\n--\n", d);
        free(d);
    }
    fclose(f);
    return all;
}

static void test_newer_refused(void **state)
{
    (void)state;
    arena_db *db = open_new("latest");
    int latest = arena_db_schema_version(db);
    arena_db_close(db);
    assert_int_equal(latest, ARENA_DB_SCHEMA);
    const char *path = copy_fixture("newer");
    char set[64];
    snprintf(set, sizeof set, "PRAGMA user_version = %d", latest + 1);
    raw_exec(path, set);
    char *before = dump_all(path);
    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), -1);
    char want[600];
    snprintf(want, sizeof want, "%s was written by a newer arena (schema %d)", path, latest + 1);
    assert_string_equal(err, want);
    char *after = dump_all(path);
    assert_string_equal(after, before);
    free(before);
    free(after);
}

static void test_fails_midway(void **state)
{
    (void)state;
    /* Each breaks migration 2 at another step, and how it is mended. */
    static const struct { const char *name, *harm, *why, *mend; } cases[] = {
        /* the first statement: the tournaments' spec from their keys */
        { "key", "UPDATE tournaments SET key = 'format=round-robin | x' WHERE id = 2",
          "NOT NULL constraint failed: tournaments_new.move_ms", NULL },
        /* the matches, after the tournaments were rebuilt */
        { "culprit", "UPDATE matches SET culprit = 3 WHERE id = 2",
          "CHECK constraint failed", "UPDATE matches SET culprit = NULL WHERE id = 2" },
        /* the last step: the references, after every table was rebuilt */
        { "reference", "PRAGMA foreign_keys = OFF; UPDATE matches SET bot1 = 77 WHERE id = 5",
          "table match_seats refers to a missing row of bots", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = copy_fixture(cases[i].name);
        raw_exec(path, cases[i].harm);
        char *before = dump_all(path);
        arena_db *db = NULL;
        for (int tries = 0; tries < 2; tries++) {    /* and again: it failed cleanly */
            assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), -1);
            assert_null(db);
            expect_err("cannot migrate");
            expect_err("to schema 2");
            expect_err(cases[i].why);
            char *after = dump_all(path);
            assert_string_equal(after, before);
            free(after);
        }
        free(before);
        assert_int_equal(raw_int(path, "PRAGMA user_version"), 1);
        if (cases[i].mend) {
            raw_exec(path, cases[i].mend);
            if (arena_db_open(&db, path, 0, err, sizeof err) != 0)
                fail_msg("mended, then: %s", err);
            assert_int_equal(arena_db_schema_version(db), ARENA_DB_SCHEMA);
            arena_db_close(db);
        }
    }
}

/* ---- schema 14: the games bots play ---------------------------------------- */

/* Each bot's games by id, "id|game" lines. */
static const char BOT_GAMES[] = "SELECT bot_id, game FROM bot_games ORDER BY bot_id, game";

/* A bot of schema 13 gets the games it played without forfeiting them,
 * else those of the version it follows, else War Chest (the fixture's
 * README says what each bot did); and reads them back. A schema-1
 * database's bots all played War Chest, or nothing. */
static void test_bots_get_their_games(void **state)
{
    (void)state;
    const char *path = copy_file(fixture13, "schema13");
    arena_db *db = NULL;
    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
    static const char *const want[][2] = {
        { "greedy", "warchest" },          /* forfeited each of its Goofspiel games */
        { "random", "goofspiel warchest" },
        { "gsrand#3", "goofspiel" },
        { "gsrand@2", "goofspiel" },       /* never played: the version before's */
        { "idle", "warchest" },            /* never played, no version before */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        arena_bot b;
        assert_int_equal(arena_db_bot_by_name(db, want[i][0], &b), 0);
        if (strcmp(b.plays, want[i][1]))
            fail_msg("%s plays '%s', not '%s'", want[i][0], b.plays, want[i][1]);
    }
    arena_db_close(db);
    char *games = dump(path, BOT_GAMES);
    assert_string_equal(games, "1|warchest\n2|goofspiel\n2|warchest\n3|goofspiel\n4|warchest\n"
                               "5|goofspiel\n");
    free(games);

    path = copy_fixture("schema1-games");
    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
    arena_db_close(db);
    games = dump(path, BOT_GAMES);
    assert_string_equal(games, "1|warchest\n2|warchest\n3|warchest\n4|warchest\n5|warchest\n");
    free(games);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_arena_migrate SCHEMA1.db SCHEMA13.db\n");
        return 2;
    }
    fixture = argv[1];
    fixture13 = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_move_exactly),
        cmocka_unit_test(test_newer_refused),
        cmocka_unit_test(test_fails_midway),
        cmocka_unit_test(test_bots_get_their_games),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

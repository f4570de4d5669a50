/*
 * test_arena_db.c - the arena's SQLite store (db/arena_db.h) on real
 * files in a private temporary directory.
 *
 * Covers opening and migrating, refusing foreign and newer files, bots,
 * tournaments, storing and reading matches, Elo against hand-computed
 * numbers, results, the replay check (and that it catches tampering), and
 * a writer SIGKILLed in the middle of its transactions.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "clk.h"
#include "db_test.h"
#include "game.h"

/* ---- open, migrate ------------------------------------------------------ */

static void test_open_migrate(void **state)
{
    const char *path = db_path("fresh");
    arena_db *db = NULL;
    assert_int_equal(arena_db_open(&db, path, 1, err, sizeof err), 0);
    assert_int_equal(arena_db_schema_version(db), ARENA_DB_SCHEMA);
    int64_t bot = add_bot(db, "alice");
    arena_db_close(db);

    assert_int_equal(raw_int(path, "PRAGMA user_version"), ARENA_DB_SCHEMA);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"), 27);
    /* WAL is a property of the file: a raw handle sees it too. */
    assert_int_equal(raw_int(path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);

    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
    assert_int_equal(arena_db_schema_version(db), ARENA_DB_SCHEMA);
    arena_bot b;
    assert_int_equal(arena_db_bot_by_name(db, "alice", &b), 0);
    assert_int_equal(b.id, bot);
    assert_string_equal(b.cmd, "./agents/alice --fast");
    assert_string_equal(b.version, "1.0");
    assert_string_equal(b.cwd, "");
    arena_db_close(db);
}

static void test_open_refuses(void **state)
{
    arena_db *db = (arena_db *)1;
    const char *missing = db_path("missing");
    assert_int_equal(arena_db_open(&db, missing, 0, err, sizeof err), -1);
    assert_null(db);
    char want[600];
    snprintf(want, sizeof want, "no database at %s", missing);
    assert_string_equal(err, want);
    assert_int_equal(access(missing, F_OK), -1);    /* not created */

    /* A text file: refused, and left exactly as it was. */
    const char *text = db_path("text");
    const char *words = "this is a shopping list, not a database: eggs, milk, bread, "
                        "coffee, and a few more words to pass SQLite's header size\n";
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    for (int i = 0; i < 8; i++)
        fputs(words, f);
    fclose(f);
    struct stat before, after;
    assert_int_equal(stat(text, &before), 0);
    for (int create = 0; create < 2; create++) {
        assert_int_equal(arena_db_open(&db, text, create, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s is not an arena database", text);
        assert_string_equal(err, want);
    }
    assert_int_equal(stat(text, &after), 0);
    assert_int_equal(before.st_size, after.st_size);
    char wal[600];
    snprintf(wal, sizeof wal, "%s-wal", text);
    assert_int_equal(access(wal, F_OK), -1);

    /* Somebody else's SQLite file. */
    const char *other = db_path("other");
    raw_exec(other, "CREATE TABLE recipes(name TEXT); INSERT INTO recipes VALUES ('soup')");
    assert_int_equal(arena_db_open(&db, other, 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s is not an arena database", other);
    assert_string_equal(err, want);
    assert_int_equal(raw_int(other, "SELECT count(*) FROM sqlite_master"), 1);

    /* Another application's id, even with no tables. */
    const char *app = db_path("app");
    raw_exec(app, "PRAGMA application_id = 12345");
    assert_int_equal(arena_db_open(&db, app, 1, err, sizeof err), -1);
    expect_err("is not an arena database");

    /* A newer arena's file. */
    const char *newer = db_path("newer");
    char set[64];
    snprintf(set, sizeof set, "PRAGMA user_version = %d", ARENA_DB_SCHEMA + 1);
    raw_exec(newer, set);
    assert_int_equal(arena_db_open(&db, newer, 0, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s was written by a newer arena (schema %d)", newer,
             ARENA_DB_SCHEMA + 1);
    assert_string_equal(err, want);
    assert_int_equal(raw_int(newer, "PRAGMA user_version"), ARENA_DB_SCHEMA + 1);

    /* An arena version number on a file without our tables. */
    const char *fake = db_path("fake");
    raw_exec(fake, "PRAGMA user_version = 1");
    assert_int_equal(arena_db_open(&db, fake, 0, err, sizeof err), -1);
    expect_err("is not an arena database");

    assert_int_equal(arena_db_open(&db, NULL, 1, err, sizeof err), -1);
    expect_err("empty");
    assert_int_equal(arena_db_open(&db, "", 1, err, sizeof err), -1);
    assert_int_equal(arena_db_open(NULL, db_path("x"), 1, err, sizeof err), -1);
    assert_int_equal(arena_db_open(&db, dir, 1, NULL, 0), -1);   /* a directory */
    assert_null(db);
    assert_int_equal(arena_db_schema_version(NULL), -1);
    arena_db_close(NULL);
}

/* ---- bots --------------------------------------------------------------- */

/* Participants: keys unique, revoked once; a bot's name is its owner's. */
static void test_users(void **state)
{
    (void)state;
    arena_db *db = open_new("users");
    arena_user a = { 0 }, b = { 0 }, got;
    snprintf(a.name, sizeof a.name, "ann");
    snprintf(a.public_key, sizeof a.public_key, "%040d", 1);
    snprintf(a.endpoint, sizeof a.endpoint, "tcp://arena:7788");
    assert_int_equal(arena_db_user_add(db, &a, err, sizeof err), 0);
    b = a;
    snprintf(b.name, sizeof b.name, "ben");
    assert_int_equal(arena_db_user_add(db, &b, err, sizeof err), -1);    /* the same key */
    snprintf(b.public_key, sizeof b.public_key, "%040d", 2);
    assert_int_equal(arena_db_user_add(db, &b, err, sizeof err), 0);
    snprintf(b.name, sizeof b.name, "bad name");
    assert_int_equal(arena_db_user_add(db, &b, err, sizeof err), -1);
    assert_int_equal(arena_db_user_by_key(db, a.public_key, &got), 0);
    assert_string_equal(got.name, "ann");
    assert_int_equal(got.revoked_ms, 0);

    arena_bot bot = { 0 };
    snprintf(bot.name, sizeof bot.name, "annbot");
    snprintf(bot.version, sizeof bot.version, "1");
    snprintf(bot.cmd, sizeof bot.cmd, "./bot");
    snprintf(bot.content_hash, sizeof bot.content_hash, "%064d", 7);
    bot.owner_id = a.id;
    assert_int_equal(arena_db_bot_add(db, &bot, err, sizeof err), 0);
    snprintf(bot.version, sizeof bot.version, "2");
    bot.owner_id = got.id + 1;                     /* ben: not his name */
    assert_int_equal(arena_db_bot_add(db, &bot, err, sizeof err), -1);
    assert_string_equal(err, "the name annbot is taken by another participant");
    bot.owner_id = 0;                              /* nor the organizer's by owner */
    arena_bot row;
    assert_int_equal(arena_db_bot_by_name(db, "annbot", &row), 0);
    assert_string_equal(row.owner, "ann");
    assert_string_equal(row.content_hash, bot.content_hash);
    assert_int_equal(arena_db_user_get(db, "ann", &got), 0);
    assert_int_equal(got.bots, 1);

    arena_submission s = { .user_id = a.id, .bot = "annbot", .version = "1", .games = "warchest",
                           .bytes = 10, .accepted = 1, .reason = "accepted", .bot_id = row.id };
    assert_int_equal(arena_db_submission_add(db, &s, err, sizeof err), 0);
    assert_int_equal(arena_db_submission_add(db, &s, err, sizeof err), 0);
    assert_int_equal(arena_db_submissions_since(db, a.id, 0), 2);
    assert_int_equal(arena_db_submissions_since(db, a.id, clk_wall_ms() + 1000), 0);

    assert_int_equal(arena_db_user_revoke(db, "ann", err, sizeof err), 0);
    assert_int_equal(arena_db_user_revoke(db, "ann", err, sizeof err), 1);
    assert_int_equal(arena_db_user_revoke(db, "nobody", err, sizeof err), -1);
    assert_int_equal(arena_db_user_by_key(db, a.public_key, &got), 0);
    assert_true(got.revoked_ms > 0);
    arena_db_close(db);
}

static void test_bots(void **state)
{
    arena_db *db = open_new("bots");
    int64_t bob = add_bot(db, "bob");
    int64_t alice = add_bot(db, "alice");
    assert_int_not_equal(alice, bob);

    arena_bot dup = {0};
    snprintf(dup.name, sizeof dup.name, "alice");
    snprintf(dup.cmd, sizeof dup.cmd, "other");
    assert_int_equal(arena_db_bot_add(db, &dup, err, sizeof err), -1);
    assert_string_equal(err, "a bot named alice is already registered (a new version needs --version)");

    arena_bot *list = NULL;
    assert_int_equal(arena_db_bot_list(db, &list), 2);
    assert_string_equal(list[0].name, "alice");
    assert_string_equal(list[1].name, "bob");
    free(list);

    /* Alice plays, then is removed: the match and her id stay. */
    arena_match m = match2(alice, bob, 1.0, 32);
    store_ok(db, &m);
    assert_int_equal(arena_db_bot_remove(db, "alice", err, sizeof err), 0);
    arena_bot b;
    assert_int_equal(arena_db_bot_by_name(db, "alice", &b), 1);
    assert_int_equal(arena_db_bot_by_id(db, alice, &b), 0);
    assert_string_equal(b.name, "alice");
    assert_int_equal(b.removed, 1);
    assert_int_equal(arena_db_bot_remove(db, "alice", err, sizeof err), -1);
    expect_err("no registered bot named alice");
    assert_int_equal(arena_db_bot_list(db, &list), 1);
    assert_string_equal(list[0].name, "bob");
    free(list);

    /* The name is free again: a new bot, a new id. */
    int64_t alice2 = add_bot(db, "alice");
    assert_int_not_equal(alice2, alice);
    arena_match got;
    assert_int_equal(arena_db_match_get(db, m.id, &got), 0);
    assert_int_equal(got.bot[0], alice);
    arena_match_free(&got);
    arena_rating *r = NULL;
    assert_int_equal(arena_db_results(db, 0, &r), 2);    /* alice2 has not played */
    assert_int_equal(r[0].bot_id, alice);
    assert_int_equal(r[0].wins, 1);
    free(r);
    assert_int_equal(arena_db_bot_by_id(db, 9999, &b), 1);
    check_equal(db);
    arena_db_close(db);

    /* Empty list: a block, count 0. */
    db = open_new("nobots");
    assert_int_equal(arena_db_bot_list(db, &list), 0);
    assert_non_null(list);
    free(list);
    arena_db_close(db);
}

/* A version's games (schema 14): stored as given, read back in order,
 * asked one by one; none given is the default game; an unknown game, or
 * one named twice, refused with the bot's name and the game. */
static void test_bot_games(void **state)
{
    arena_db *db = NULL;
    assert_int_equal(arena_db_open(&db, db_path("games"), 1, err, sizeof err), 0);
    arena_bot b = {0}, got;
    snprintf(b.name, sizeof b.name, "both");
    snprintf(b.cmd, sizeof b.cmd, "true");
    snprintf(b.plays, sizeof b.plays, "warchest goofspiel");
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), 0);
    assert_int_equal(arena_db_bot_by_name(db, "both", &got), 0);
    assert_string_equal(got.plays, "goofspiel warchest");
    assert_true(arena_bot_plays(&got, "warchest") && arena_bot_plays(&got, "goofspiel"));
    assert_false(arena_bot_plays(&got, "warches") || arena_bot_plays(&got, "") ||
                 arena_bot_plays(&got, "goofspiel warchest"));

    snprintf(b.name, sizeof b.name, "one");
    snprintf(b.plays, sizeof b.plays, "goofspiel");
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), 0);
    snprintf(b.version, sizeof b.version, "2");          /* a version has its own games */
    b.plays[0] = 0;
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), 0);
    assert_int_equal(arena_db_bot_by_name(db, "one@2", &got), 0);
    assert_string_equal(got.plays, game_default()->name);
    assert_int_equal(arena_db_bot_by_name(db, "one#2", &got), 0);
    assert_string_equal(got.plays, "goofspiel");

    snprintf(b.version, sizeof b.version, "3");
    snprintf(b.plays, sizeof b.plays, "goofspiel chess");
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    assert_string_equal(err, "bot one: unknown game 'chess'");
    snprintf(b.plays, sizeof b.plays, "goofspiel warchest goofspiel");
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    assert_string_equal(err, "bot one: the game goofspiel is named twice");
    memset(b.plays, 'g', sizeof b.plays);                /* unterminated */
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    assert_int_equal(arena_db_bot_by_name(db, "one@3", &got), 1);   /* nothing stored */
    assert_int_equal(raw_int(db_path("games"), "SELECT count(*) FROM bot_games"), 4);
    arena_db_close(db);
}

static void test_bad_input(void **state)
{
    arena_db *db = open_new("bad");
    const char *bad[] = {"", "a b", "x/y", "caf\xc3\xa9", "semi;colon", "quote'",
                         "0123456789012345678901234567890123456789012345678901234567890123"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        arena_bot b = {0};
        snprintf(b.name, sizeof b.name, "%s", bad[i]);
        snprintf(b.cmd, sizeof b.cmd, "true");
        if (strlen(bad[i]) >= sizeof b.name)          /* fill the field unterminated */
            memcpy(b.name, bad[i], sizeof b.name);
        assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
        assert_string_equal(err, "bot name must be 1-63 characters of letters, digits, '_', '.', '-'");
        assert_int_equal(arena_db_bot_remove(db, bad[i], err, sizeof err), -1);
        assert_int_equal(arena_db_bot_by_name(db, bad[i], NULL), 1);
    }
    arena_bot ok63 = {0};
    memset(ok63.name, 'x', 63);
    snprintf(ok63.cmd, sizeof ok63.cmd, "true");
    assert_int_equal(arena_db_bot_add(db, &ok63, err, sizeof err), 0);

    arena_bot b = {0};
    snprintf(b.name, sizeof b.name, "nocmd");
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    expect_err("command");
    memset(b.cmd, 'c', sizeof b.cmd);                   /* unterminated */
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    snprintf(b.cmd, sizeof b.cmd, "true");
    memset(b.version, 'v', sizeof b.version);
    assert_int_equal(arena_db_bot_add(db, &b, err, sizeof err), -1);
    assert_int_equal(arena_db_bot_add(db, NULL, err, sizeof err), -1);
    assert_int_equal(arena_db_bot_add(NULL, &b, NULL, 0), -1);
    assert_int_equal(arena_db_bot_remove(NULL, "x", err, sizeof err), -1);
    assert_int_equal(arena_db_bot_remove(db, NULL, err, sizeof err), -1);
    assert_int_equal(arena_db_bot_by_name(db, NULL, &b), 1);
    assert_int_equal(arena_db_bot_by_name(NULL, "x", &b), -1);
    assert_int_equal(arena_db_bot_list(db, NULL), -1);

    /* Name-like text is only ever data. */
    arena_bot sneaky = {0};
    snprintf(sneaky.name, sizeof sneaky.name, "robert");
    snprintf(sneaky.cmd, sizeof sneaky.cmd, "x'); DROP TABLE bots; --");
    assert_int_equal(arena_db_bot_add(db, &sneaky, err, sizeof err), 0);
    assert_int_equal(arena_db_bot_by_name(db, "robert", &b), 0);
    assert_string_equal(b.cmd, "x'); DROP TABLE bots; --");

    arena_tournament t = {0};
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);   /* no game */
    expect_err("game or format empty");
    snprintf(t.game, sizeof t.game, "duel");
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);   /* no format */
    snprintf(t.format, sizeof t.format, "round-robin");
    memset(t.options, 'o', sizeof t.options);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);
    t.options[0] = 0;
    t.games = -1;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);
    t.games = 2;
    t.elo_k = NAN;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);
    expect_err("Elo K");
    t.elo_k = 16;
    t.nbots = 1;
    t.bot[0] = 4242;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);
    expect_err("no bot with id 4242");
    t.nbots = ARENA_MAX_BOTS + 1;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), -1);
    t.nbots = 0;
    assert_int_equal(arena_db_tournament_open(db, NULL, err, sizeof err), -1);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);

    int64_t x = add_bot(db, "x"), y = add_bot(db, "y");
    struct { arena_match m; const char *why; } cases[20];
    int n = 0;
    cases[n].m = match2(x, y, 1, 32); cases[n].m.seats = 9; cases[n++].why = "2 to 8 seats";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.seats = 1; cases[n++].why = "2 to 8 seats";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.seats = -1; cases[n++].why = "2 to 8 seats";
    cases[n].m = match2(x, y, 1.5, 32); cases[n++].why = "from 0 to 1";
    cases[n].m = match2(x, y, NAN, 32); cases[n++].why = "from 0 to 1";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.score[1] = 1; cases[n++].why = "sum to 1";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.team[1] = 0; cases[n++].why = "scored apart";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.team[1] = 2; cases[n++].why = "team must be";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.team[0] = -1; cases[n++].why = "team must be";
    cases[n].m = match2(x, y, 0.5, 32); cases[n].m.team[1] = 0; cases[n++].why = "two teams";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.game[0] = 0; cases[n++].why = "names no game";
    cases[n].m = match2(x, y, 1, NAN); cases[n++].why = "K";
    cases[n].m = match2(x, y, 1, -4); cases[n++].why = "K";
    cases[n].m = match2(x, 777, 1, 32); cases[n++].why = "no bot with id 777";
    cases[n].m = match2(x, 0, 1, 32); cases[n++].why = "seat 1 has no bot";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.tournament_id = 555;
    cases[n].m.game_index = 0; cases[n++].why = "no tournament with id 555";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.tournament_id = t.id; cases[n++].why = "game index";
    cases[n].m = match2(x, y, 1, 32); cases[n].m.culprit = 2; cases[n++].why = "culprit";
    cases[n].m = match2(x, y, 1, 32); memset(cases[n].m.reason, 'r', sizeof cases[n].m.reason);
    cases[n++].why = "too long";
    for (int i = 0; i < n; i++) {
        err[0] = 0;
        assert_int_equal(arena_db_match_store(db, &cases[i].m, err, sizeof err), -1);
        expect_err(cases[i].why);
        assert_int_equal(cases[i].m.id, 0);
    }
    assert_int_equal(arena_db_match_store(db, NULL, err, sizeof err), -1);
    assert_int_equal(arena_db_match_store(NULL, &cases[0].m, err, sizeof err), -1);
    const char *path = db_path("bad");
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches"), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM ratings"), 0);

    arena_match got;
    assert_int_equal(arena_db_match_get(db, 12345, &got), 1);
    arena_match_free(&got);
    arena_match_free(NULL);
    assert_int_equal(arena_db_match_get(NULL, 1, &got), -1);
    assert_int_equal(arena_db_match_get(db, 1, NULL), -1);
    assert_int_equal(arena_db_results(NULL, 0, NULL), -1);
    assert_int_equal(arena_db_pair_results(db, 0, NULL), -1);
    assert_int_equal(arena_db_tournament_done(db, 1, 0, 0, NULL), -1);
    assert_int_equal(arena_db_tournament_get(db, 1, NULL), -1);
    assert_int_equal(arena_db_check_ratings(NULL, err, sizeof err), -1);
    check_equal(db);
    arena_db_close(db);
}

/* ---- tournaments -------------------------------------------------------- */

static arena_tournament tour(int games)
{
    arena_tournament t = {0};
    snprintf(t.game, sizeof t.game, "duel");
    snprintf(t.format, sizeof t.format, "round-robin");
    snprintf(t.options, sizeof t.options, "players=2 setup=draft");
    t.games = games;
    t.seed = 0x8123456789abcdefULL;
    t.terms.move_ms = 1000;
    t.terms.bank_ms = 10000;
    t.terms.handshake_ms = 5000;
    t.terms.strikes = 2;
    t.elo_k = 24.5;
    t.terms.memory_mb = -1;
    t.terms.wall_ceiling_pct = 300;
    t.planned = games;
    return t;
}

static void test_tournaments(void **state)
{
    arena_db *db = open_new("tour");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_tournament t1 = tour(10), t2 = tour(20);
    t1.nbots = t2.nbots = 2;
    t1.bot[0] = t2.bot[0] = a;
    t1.bot[1] = t2.bot[1] = b;
    assert_int_equal(arena_db_tournament_open(db, &t1, err, sizeof err), 0);
    assert_true(t1.id > 0);
    assert_int_equal(arena_db_tournament_open(db, &t2, err, sizeof err), 0);
    assert_int_not_equal(t1.id, t2.id);

    /* The same spec finds the stored tournament and reads every column. */
    arena_tournament again = tour(10);
    again.nbots = 2;
    again.bot[0] = a;
    again.bot[1] = b;
    again.planned = 99;                       /* not part of the identity */
    assert_int_equal(arena_db_tournament_open(db, &again, err, sizeof err), 1);
    assert_int_equal(again.id, t1.id);
    assert_string_equal(again.game, "duel");
    assert_string_equal(again.format, "round-robin");
    assert_int_equal(again.games, 10);
    assert_true(again.seed == 0x8123456789abcdefULL);
    assert_string_equal(again.options, "players=2 setup=draft");
    assert_int_equal(again.nbots, 2);
    assert_int_equal(again.bot[0], a);
    assert_int_equal(again.bot[1], b);
    assert_int_equal(again.terms.move_ms, 1000);
    assert_int_equal(again.terms.bank_ms, 10000);
    assert_int_equal(again.terms.handshake_ms, 5000);
    assert_int_equal(again.terms.strikes, 2);
    assert_true(again.elo_k == 24.5);
    assert_int_equal(again.terms.memory_mb, -1);
    assert_int_equal(again.terms.clock, REF_CLOCK_CPU);
    assert_int_equal(again.terms.wall_ceiling_pct, 300);
    assert_int_equal(again.terms.ponder, 0);
    assert_int_equal(again.planned, 10);
    assert_int_equal(again.done, 0);
    assert_int_equal(again.finished, 0);

    /* Any field of the spec told apart: another game, order of bots, K... */
    int64_t ids[12] = {0};
    for (int v = 0; v < 12; v++) {
        arena_tournament o = tour(10);
        o.nbots = 2;
        o.bot[0] = a;
        o.bot[1] = b;
        switch (v) {
        case 0: snprintf(o.game, sizeof o.game, "other"); break;
        case 1: o.bot[0] = b; o.bot[1] = a; break;
        case 2: o.elo_k = 24.25; break;
        case 3: o.terms.memory_mb = 0; break;
        case 4: o.seed ^= 1u << 31; break;
        case 5: o.terms.strikes = 0; break;
        case 6: o.nbots = 1; break;
        case 7: snprintf(o.format, sizeof o.format, "gauntlet"); break;
        case 8: snprintf(o.options, sizeof o.options, "players=2 setup=dealt"); break;
        case 9: o.terms.clock = REF_CLOCK_WALL; break;
        case 10: o.terms.wall_ceiling_pct = 250; break;
        case 11: o.terms.ponder = 1; break;
        }
        assert_int_equal(arena_db_tournament_open(db, &o, err, sizeof err), 0);
        ids[v] = o.id;
        for (int w = 0; w < v; w++)
            assert_int_not_equal(ids[w], o.id);
        assert_int_equal(o.id, ids[v]);
        arena_tournament got;                   /* the terms read back from the row */
        assert_int_equal(arena_db_tournament_get(db, o.id, &got), 0);
        assert_int_equal(got.terms.clock, o.terms.clock);
        assert_int_equal(got.terms.wall_ceiling_pct, o.terms.wall_ceiling_pct);
        assert_int_equal(got.terms.ponder, o.terms.ponder);
        assert_int_equal(got.terms.memory_mb, o.terms.memory_mb);
        assert_int_equal(got.terms.strikes, o.terms.strikes);
    }

    /* Stored out of order, listed in order. */
    int order[] = {3, 1, 2};
    for (int i = 0; i < 3; i++) {
        arena_match m = match2(a, b, 0.5, 32);
        m.tournament_id = t1.id;
        m.game_index = order[i];
        store_ok(db, &m);
    }
    int *done = NULL;
    assert_int_equal(arena_db_tournament_done(db, t1.id, 0, 0, &done), 3);
    assert_int_equal(done[0], 1);
    assert_int_equal(done[1], 2);
    assert_int_equal(done[2], 3);
    free(done);
    assert_int_equal(arena_db_tournament_done(db, t1.id, 2, 1, &done), 1);   /* from 2, one */
    assert_int_equal(done[0], 2);
    free(done);
    assert_int_equal(arena_db_tournament_done(db, t2.id, 0, 0, &done), 0);
    assert_non_null(done);
    free(done);

    arena_tournament got;
    assert_int_equal(arena_db_tournament_get(db, t1.id, &got), 0);
    assert_int_equal(got.done, 3);
    assert_int_equal(got.games, 10);
    assert_int_equal(arena_db_tournament_get(db, 9999, &got), 1);

    for (int v = 11; v >= 0; v--)
        assert_int_equal(arena_db_tournament_finish(db, ids[v]), 0);
    assert_int_equal(arena_db_tournament_latest_unfinished(db, &got), 0);
    assert_int_equal(got.id, t2.id);
    assert_int_equal(arena_db_tournament_finish(db, t2.id), 0);
    assert_int_equal(arena_db_tournament_finish(db, t2.id), 0);   /* idempotent */
    assert_int_equal(arena_db_tournament_finish(db, 9999), 1);
    assert_int_equal(arena_db_tournament_latest_unfinished(db, &got), 0);
    assert_int_equal(got.id, t1.id);
    assert_int_equal(arena_db_tournament_finish(db, t1.id), 0);
    assert_int_equal(arena_db_tournament_latest_unfinished(db, &got), 1);
    assert_int_equal(arena_db_tournament_get(db, t1.id, &got), 0);
    assert_int_equal(got.finished, 1);

    /* Entrants that do not read as ids: refused, not guessed at. */
    static const char *const bad[] = {"1 x", "1 ", " 1", "1  2", "-1", "0", "1,2",
                                      "99999999999999999999"};
    char sql[200];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(sql, sizeof sql, "UPDATE tournaments SET bots = '%s' WHERE id = %lld", bad[i],
                 (long long)t1.id);
        raw_exec(db_path("tour"), sql);
        assert_int_equal(arena_db_tournament_get(db, t1.id, &got), -1);
    }
    arena_db_close(db);
}

/* ---- matches ------------------------------------------------------------ */

/* A batch: several stores in one commit, each still all or nothing (one
 * that fails is undone alone), none seen by another connection before the
 * commit. */
static void test_match_batch(void **state)
{
    arena_db *db = open_new("batch");
    const char *path = db_path("batch");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_tournament t = tour(4);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    assert_int_equal(arena_db_batch_commit(db, err, sizeof err), 0);   /* none open: nothing */
    assert_int_equal(arena_db_batch_begin(db, err, sizeof err), 0);
    for (int i = 0; i < 2; i++) {
        arena_match m = match2(a, b, i, 32);
        m.tournament_id = t.id;
        m.game_index = i;
        store_ok(db, &m);
    }
    arena_match bad = match2(a, b + 100, 1, 32);   /* no such bot: refused */
    bad.tournament_id = t.id;
    bad.game_index = 2;
    assert_int_equal(arena_db_match_store(db, &bad, err, sizeof err), -1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches"), 0);   /* not yet */
    arena_match last = match2(a, b, 1, 32);
    last.tournament_id = t.id;
    last.game_index = 3;
    store_ok(db, &last);
    assert_int_equal(arena_db_batch_commit(db, err, sizeof err), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches"), 3);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches WHERE game_index = 2"), 0);
    assert_int_equal(raw_int(path, "SELECT sum(games) FROM ratings"), 6);
    check_equal(db);
    arena_db_close(db);
}

static void test_match_duplicate(void **state)
{
    arena_db *db = open_new("dup");
    const char *path = db_path("dup");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_tournament t = tour(2);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    arena_match m = match2(a, b, 1, 32);
    m.tournament_id = t.id;
    m.game_index = 0;
    store_ok(db, &m);
    int64_t first = m.id;
    double ea = elo_of(db, a);

    arena_match m2 = match2(a, b, 0, 32);          /* same slot, other result */
    m2.tournament_id = t.id;
    m2.game_index = 0;
    assert_int_equal(arena_db_match_store(db, &m2, err, sizeof err), 1);
    assert_int_equal(m2.id, first);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches"), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM rating_history"), 2);
    assert_int_equal(raw_int(path, "SELECT sum(games) FROM ratings"), 2);
    assert_true(elo_of(db, a) == ea);

    /* Matches outside tournaments never collide (NULL tournament_id). */
    arena_match x1 = match2(a, b, 1, 32), x2 = match2(a, b, 1, 32);
    store_ok(db, &x1);
    store_ok(db, &x2);
    assert_int_not_equal(x1.id, x2.id);
    check_equal(db);
    arena_db_close(db);
}

static void test_match_roundtrip(void **state)
{
    arena_db *db = open_new("roundtrip");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b"), c = add_bot(db, "c"),
            d = add_bot(db, "d");
    arena_tournament t = tour(2);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);

    const char *record = "# warchest record v1\nseed fedcba9876543210\n"
                         "0 recruit archer\n1 pass\n\xe2\x99\x9e done\n";
    arena_match m = match2(b, a, 0, 24.5);
    m.tournament_id = t.id;
    m.game_index = 7;
    m.seed = 0xFEDCBA9876543210ULL;                /* top bit set */
    snprintf(m.options, sizeof m.options, "players=2 setup=draft");
    snprintf(m.reason, sizeof m.reason, "timeout");
    m.culprit = 0;
    snprintf(m.detail, sizeof m.detail, "seat 0 took 1500 ms");
    m.decisions = 37;
    m.hash = 0x8000000000000001ULL;
    m.record = (char *)record;
    m.started_ms = 1700000000123LL;
    m.finished_ms = 1700000004567LL;
    store_ok(db, &m);

    arena_match g;
    assert_int_equal(arena_db_match_get(db, m.id, &g), 0);
    assert_int_equal(g.id, m.id);
    assert_int_equal(g.tournament_id, t.id);
    assert_int_equal(g.game_index, 7);
    assert_string_equal(g.game, "duel");
    assert_true(g.seed == 0xFEDCBA9876543210ULL);
    assert_string_equal(g.options, "players=2 setup=draft");
    assert_int_equal(g.seats, 2);
    assert_int_equal(g.bot[0], b);
    assert_int_equal(g.bot[1], a);
    assert_int_equal(g.bot[2], 0);
    assert_int_equal(g.team[0], 0);
    assert_int_equal(g.team[1], 1);
    assert_true(g.score[0] == 0.0 && g.score[1] == 1.0);
    assert_string_equal(g.reason, "timeout");
    assert_int_equal(g.culprit, 0);
    assert_string_equal(g.detail, "seat 0 took 1500 ms");
    assert_int_equal(g.decisions, 37);
    assert_true(g.hash == 0x8000000000000001ULL);
    assert_string_equal(g.record, record);
    assert_int_equal(g.started_ms, 1700000000123LL);
    assert_int_equal(g.finished_ms, 1700000004567LL);
    assert_true(g.elo_k == 24.5);
    arena_match_free(&g);
    assert_null(g.record);

    /* No tournament, no record, 4 seats, every bit of the seed. */
    int64_t four[4] = {a, b, c, d};
    arena_match m4 = match4(four, 0.5, 16);
    m4.seed = UINT64_MAX;
    m4.hash = 0;
    store_ok(db, &m4);
    assert_int_equal(arena_db_match_get(db, m4.id, &g), 0);
    assert_int_equal(g.tournament_id, 0);
    assert_int_equal(g.game_index, -1);
    assert_true(g.seed == UINT64_MAX);
    assert_true(g.hash == 0);
    assert_int_equal(g.seats, 4);
    assert_int_equal(g.bot[3], d);
    assert_int_equal(g.team[2], 0);
    assert_int_equal(g.team[3], 1);
    assert_true(g.score[2] == 0.5);
    assert_int_equal(g.culprit, -1);
    assert_null(g.record);
    arena_match_free(&g);
    assert_int_equal(raw_int(db_path("roundtrip"),
                             "SELECT count(*) FROM matches WHERE hash = '8000000000000001'"), 1);
    arena_db_close(db);
}

/* ---- Elo ---------------------------------------------------------------- */

static void test_elo_two_seats(void **state)
{
    arena_db *db = open_new("elo2");
    const char *path = db_path("elo2");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");

    /* Both 1500, expected 0.5 each, K = 32: a win moves 32 * 0.5 = 16. */
    arena_match m = match2(a, b, 1, 32);
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, a) - 1516.0) < 1e-12);
    assert_true(fabs(elo_of(db, b) - 1484.0) < 1e-12);

    /* Then a draw, 1516 vs 1484 (diff 32):
     *   E_a = 1 / (1 + 10^(-32/400)) = 1 / (1 + 0.8317637711) = 0.5459219228
     *   delta_a = 32 * (0.5 - 0.5459219228) = -1.4695015290
     *   a = 1514.5304984710, b = 1485.4695015290 */
    m = match2(a, b, 0.5, 32);
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, a) - 1514.5304984710) < 1e-9);
    assert_true(fabs(elo_of(db, b) - 1485.4695015290) < 1e-9);

    /* The history row of the draw: before and after for each bot. */
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT elo_before = 1516.0 AND abs(elo_after - 1514.530498471) < 1e-8"
             " FROM rating_history WHERE match_id = %lld AND bot_id = %lld",
             (long long)m.id, (long long)a);
    assert_int_equal(raw_int(path, sql), 1);
    snprintf(sql, sizeof sql, "SELECT games FROM ratings WHERE bot_id = %lld", (long long)b);
    assert_int_equal(raw_int(path, sql), 2);

    /* K = 0: an unrated match changes nothing. */
    m = match2(b, a, 1, 0);
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, a) - 1514.5304984710) < 1e-9);
    check_equal(db);
    arena_db_close(db);
}

static void test_elo_four_seats(void **state)
{
    arena_db *db = open_new("elo4");
    int64_t p = add_bot(db, "p"), q = add_bot(db, "q"), r = add_bot(db, "r"),
            s = add_bot(db, "s");
    arena_match m = match2(p, q, 1, 32);          /* p 1516, q 1484 */
    store_ok(db, &m);

    /* Seats p q r s: team p+r = (1516 + 1500) / 2 = 1508 against
     * team q+s = (1484 + 1500) / 2 = 1492, diff 16, K = 20, p+r win:
     *   E = 1 / (1 + 10^(-16/400)) = 1 / (1 + 0.9120108394) = 0.5230095873
     *   delta = 20 * (1 - 0.5230095873) = 9.5398082540
     * to each member: p 1525.5398082540, r 1509.5398082540,
     *                 q 1474.4601917460, s 1490.4601917460 */
    int64_t four[4] = {p, q, r, s};
    m = match4(four, 1, 20);
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, p) - 1525.5398082540) < 1e-9);
    assert_true(fabs(elo_of(db, r) - 1509.5398082540) < 1e-9);
    assert_true(fabs(elo_of(db, q) - 1474.4601917460) < 1e-9);
    assert_true(fabs(elo_of(db, s) - 1490.4601917460) < 1e-9);
    check_equal(db);
    arena_db_close(db);
}

static void test_elo_same_bot_twice(void **state)
{
    arena_db *db = open_new("self");
    const char *path = db_path("self");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b"), c = add_bot(db, "c");

    /* Against itself: +16 then -16, one history row, one game. */
    arena_match m = match2(a, a, 1, 32);
    store_ok(db, &m);
    assert_true(elo_of(db, a) == 1500.0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM rating_history"), 1);
    assert_int_equal(raw_int(path, "SELECT games FROM ratings"), 1);

    /* Twice in the winning team of fresh bots: 1500 vs 1500, K = 32,
     * delta 16 per seat, so a gains 32 and b, c lose 16 each. */
    int64_t four[4] = {a, b, a, c};
    m = match4(four, 1, 32);
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, a) - 1532.0) < 1e-12);
    assert_true(fabs(elo_of(db, b) - 1484.0) < 1e-12);
    assert_true(fabs(elo_of(db, c) - 1484.0) < 1e-12);
    check_equal(db);
    arena_db_close(db);
}

/* ---- results ------------------------------------------------------------ */

static void test_results(void **state)
{
    arena_db *db = open_new("results");
    int64_t a = add_bot(db, "zed"), b = add_bot(db, "amy"), c = add_bot(db, "max"),
            d = add_bot(db, "dan");
    arena_tournament t = tour(2);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    struct { int64_t x, y; double sx; int in_t; } games[] = {
        {a, b, 1, 1}, {b, a, 1, 1}, {a, b, 0.5, 1}, {b, a, 0, 1},   /* a: 2W 1D 1L vs b */
        {a, c, 1, 1}, {c, b, 0.5, 1},
        {a, b, 1, 0}, {c, a, 1, 0},                                 /* outside t */
    };
    int gi = 0;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        arena_match m = match2(games[i].x, games[i].y, games[i].sx, 32);
        if (games[i].in_t) {
            m.tournament_id = t.id;
            m.game_index = gi++;
        }
        store_ok(db, &m);
    }
    int64_t four[4] = {a, b, c, d};                 /* zed+max beat amy+dan, outside t */
    arena_match m4 = match4(four, 1, 32);
    store_ok(db, &m4);

    arena_rating *r = NULL;
    assert_int_equal(arena_db_results(db, t.id, &r), 3);   /* dan only played outside */
    /* By name: amy (b), max (c), zed (a). */
    assert_int_equal(r[0].bot_id, b);
    assert_int_equal(r[0].games, 5);
    assert_int_equal(r[0].wins, 1);
    assert_int_equal(r[0].draws, 2);
    assert_int_equal(r[0].losses, 2);
    assert_true(r[0].points == 2.0);
    assert_int_equal(r[1].bot_id, c);
    assert_int_equal(r[1].games, 2);
    assert_int_equal(r[1].draws, 1);
    assert_int_equal(r[1].losses, 1);
    assert_int_equal(r[2].bot_id, a);
    assert_int_equal(r[2].wins, 3);
    assert_int_equal(r[2].draws, 1);
    assert_int_equal(r[2].losses, 1);
    assert_true(r[2].points == 3.5);
    assert_true(r[2].elo == elo_of(db, a));   /* live, over everything */
    free(r);

    assert_int_equal(arena_db_results(db, 0, &r), 4);
    assert_string_equal(r[1].name, "dan");
    assert_int_equal(r[1].games, 1);
    assert_int_equal(r[1].losses, 1);
    assert_int_equal(r[3].bot_id, a);
    assert_int_equal(r[3].games, 8);
    assert_int_equal(r[3].wins, 5);
    assert_int_equal(r[3].losses, 2);
    free(r);
    assert_int_equal(arena_db_results(db, 9999, &r), 0);
    assert_non_null(r);
    free(r);

    arena_pair_result *p = NULL;
    assert_int_equal(arena_db_pair_results(db, t.id, &p), 3);
    /* Pairs by (a, b) with a < b: (zed, amy), (zed, max), (amy, max). */
    assert_int_equal(p[0].a, a);
    assert_int_equal(p[0].b, b);
    assert_int_equal(p[0].a_wins, 2);
    assert_int_equal(p[0].draws, 1);
    assert_int_equal(p[0].b_wins, 1);
    assert_int_equal(p[1].a, a);
    assert_int_equal(p[1].b, c);
    assert_int_equal(p[1].a_wins, 1);
    assert_int_equal(p[2].a, b);
    assert_int_equal(p[2].b, c);
    assert_int_equal(p[2].draws, 1);
    free(p);
    assert_int_equal(arena_db_pair_results(db, 0, &p), 3);   /* the 4-seat match is not a pair */
    assert_int_equal(p[0].a_wins, 3);
    assert_int_equal(p[1].a_wins, 1);
    assert_int_equal(p[1].b_wins, 1);
    free(p);
    check_equal(db);
    arena_db_close(db);
}

/* ---- the replay check --------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random valid match among nbots bots (ids 1..nbots), distinct seats. */
static arena_match random_match(int nbots)
{
    static const double scores[] = {0, 0.5, 1}, ks[] = {16, 24.5, 32};
    int64_t bot[4];
    int seats = next_rand() % 3 == 0 ? 4 : 2;
    for (int i = 0; i < seats; i++) {
        int fresh;
        do {
            bot[i] = 1 + (int64_t)(next_rand() % (uint64_t)nbots);
            fresh = 1;
            for (int j = 0; j < i; j++)
                fresh &= bot[j] != bot[i];
        } while (!fresh);
    }
    double s = scores[next_rand() % 3], k = ks[next_rand() % 3];
    arena_match m = seats == 4 ? match4(bot, s, k) : match2(bot[0], bot[1], s, k);
    m.seed = next_rand();
    m.hash = next_rand();
    return m;
}

static void test_check_ratings(void **state)
{
    arena_db *db = open_new("check");
    const char *path = db_path("check");
    char name[16];
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "bot%d", i);
        assert_int_equal(add_bot(db, name), i + 1);
    }
    check_equal(db);                                 /* empty is consistent */
    for (int i = 0; i < 400; i++) {
        arena_match m = random_match(8);
        store_ok(db, &m);
    }
    check_equal(db);

    raw_exec(path, "UPDATE ratings SET elo = elo + 1 WHERE bot_id = 3");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("bot 3: the ratings table has");
    raw_exec(path, "UPDATE ratings SET elo = elo - 1 WHERE bot_id = 3");
    check_equal(db);

    raw_exec(path, "UPDATE ratings SET games = games + 1 WHERE bot_id = 5");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    raw_exec(path, "UPDATE ratings SET games = games - 1 WHERE bot_id = 5");

    /* A result changed after the fact shows up in the history. */
    raw_exec(path, "UPDATE matches SET elo_k = elo_k + 1 WHERE id = 200");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("match 200");
    raw_exec(path, "UPDATE matches SET elo_k = elo_k - 1 WHERE id = 200");
    check_equal(db);

    raw_exec(path, "DELETE FROM rating_history WHERE match_id = 100 AND bot_id ="
                   " (SELECT min(bot_id) FROM rating_history WHERE match_id = 100)");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("no row for match 100");
    arena_db_close(db);
}

/* ---- a writer killed mid-way -------------------------------------------- */

#define CHILD_MATCHES 100000

static int64_t count_matches(sqlite3 *h)
{
    int64_t n = -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM matches", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* Forks a writer storing matches as fast as it can, waits until it has
 * committed `at_least` more, lets it run a few ms, and SIGKILLs it: it is
 * almost always inside a transaction then. */
static void kill_a_writer(const char *path, int64_t at_least)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        arena_db *cdb = NULL;
        char cerr[256];
        if (arena_db_open(&cdb, path, 0, cerr, sizeof cerr) != 0)
            _exit(2);
        for (int i = 0; i < CHILD_MATCHES; i++) {
            arena_match m = random_match(6);
            if (arena_db_match_store(cdb, &m, cerr, sizeof cerr) != 0)
                _exit(3);
        }
        _exit(0);
    }
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_busy_timeout(h, 5000);
    int64_t start = count_matches(h), seen = start;
    for (int tries = 0; tries < 60000 && seen < start + at_least; tries++) {
        usleep(500);
        seen = count_matches(h);
    }
    sqlite3_close(h);
    usleep(3000);
    assert_int_equal(kill(pid, SIGKILL), 0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_true(seen >= start + at_least);
}

static void test_interrupted(void **state)
{
    const char *path = db_path("killed");
    arena_db *db = open_new("killed");
    char name[16];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "bot%d", i);
        add_bot(db, name);
    }
    arena_db_close(db);     /* no connection crosses the fork */

    for (int round = 0; round < 3; round++) {
        kill_a_writer(path, 20);
        assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
        check_equal(db);
        arena_db_close(db);
    }
    int64_t stored = raw_int(path, "SELECT count(*) FROM matches");
    assert_true(stored >= 60 && stored < 3 * CHILD_MATCHES);
    print_message("3 writers killed, %lld matches stored\n", (long long)stored);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches m WHERE NOT EXISTS"
                                   " (SELECT 1 FROM rating_history h WHERE h.match_id = m.id)"), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM rating_history"),
                     raw_int(path, "SELECT sum(seats) FROM matches"));

    /* And it goes on taking matches. */
    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
    arena_match m = random_match(6);
    store_ok(db, &m);
    check_equal(db);
    arena_db_close(db);
}

/* ---- claims --------------------------------------------------------------- */

/* Two arenas (owners 7 and 8) on one tournament: a match is claimed once; a
 * renewed claim holds, a lapsed one is taken over; a stored match is never
 * claimed; drops free one match, an owner's, or the tournament's. */
static void test_claims(void **state)
{
    arena_db *db = open_new("claims");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_tournament t = tour(4);
    t.nbots = 2;
    t.bot[0] = a;
    t.bot[1] = b;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    int64_t now = 1000000;
    assert_int_equal(arena_db_claim(db, t.id, 0, 7, now, 100), 1);
    assert_int_equal(arena_db_claim(db, t.id, 0, 8, now + 50, 100), 0);    /* 7's */
    assert_int_equal(arena_db_claim(db, t.id, 0, 7, now + 50, 100), 1);    /* ours again */
    assert_int_equal(arena_db_claim(db, t.id, 1, 8, now, 100), 1);
    assert_int_equal(arena_db_claims_others(db, t.id, 7, now + 60), 1);
    assert_int_equal(arena_db_claims_others(db, t.id, 8, now + 60), 1);

    /* 7 renews, 8 does not: 8's claim lapses and 7 takes it. */
    assert_int_equal(arena_db_claims_renew(db, 7, now + 100, 100), 0);
    assert_int_equal(arena_db_claim(db, t.id, 0, 8, now + 150, 100), 0);
    assert_int_equal(arena_db_claims_others(db, t.id, 7, now + 201), 0);
    assert_int_equal(arena_db_claim(db, t.id, 1, 7, now + 201, 100), 1);

    /* A stored match is claimed by nobody, whoever held it. */
    arena_match m = match2(a, b, 1, 16);
    m.tournament_id = t.id;
    m.game_index = 2;
    store_ok(db, &m);
    assert_int_equal(arena_db_claim(db, t.id, 2, 7, now, 100), 0);

    /* Drops: one match, an owner's claims, the tournament's. */
    assert_int_equal(arena_db_claims_renew(db, 7, now + 200, 100), 0);
    assert_int_equal(arena_db_claim(db, t.id, 3, 8, now + 201, 100), 1);
    assert_int_equal(arena_db_claims_drop(db, t.id, 8, 0), 0);    /* not 8's: kept */
    assert_int_equal(arena_db_claim(db, t.id, 0, 8, now + 210, 100), 0);
    assert_int_equal(arena_db_claims_drop(db, t.id, 7, 0), 0);
    assert_int_equal(arena_db_claim(db, t.id, 0, 8, now + 210, 100), 1);
    assert_int_equal(arena_db_claims_drop(db, t.id, 8, -1), 0);
    assert_int_equal(arena_db_claims_others(db, t.id, 7, now + 210), 0);
    assert_int_equal(arena_db_claims_drop(db, t.id, 0, -1), 0);
    assert_int_equal(raw_int(db_path("claims"), "SELECT count(*) FROM match_claims"), 0);
    arena_db_close(db);
}

/* The arenas at work: a row per owner, refreshed in place, deleted when it
 * stops, forgotten when silent for long. */
static void test_arena_runs(void **state)
{
    (void)state;
    arena_db *db = open_new("runs");
    const char *path = db_path("runs");
    arena_tournament t = tour(4);
    t.nbots = 2;
    t.bot[0] = add_bot(db, "a");
    t.bot[1] = add_bot(db, "b");
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    arena_run_row r = { .owner = 41, .tournament_id = t.id, .host = "box", .pid = 99,
                        .workers = 2, .taken = 3, .started_ms = 1000, .seen_ms = 1000 };
    assert_int_equal(arena_db_run_seen(db, &r), 0);
    r.workers = 5;                                   /* remote workers joined */
    r.seen_ms = 3000;
    snprintf(r.listening, sizeof r.listening, "tcp://127.0.0.1:7000");
    assert_int_equal(arena_db_run_seen(db, &r), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM arena_runs"), 1);
    assert_int_equal(raw_int(path, "SELECT workers * 10000 + seen_ms FROM arena_runs"), 53000);
    assert_int_equal(raw_int(path, "SELECT ladder_id IS NULL AND listening IS NOT NULL"
                                   " AND started_ms = 1000 FROM arena_runs"), 1);
    arena_run_row other = { .owner = 42, .tournament_id = t.id, .host = "box", .pid = 100,
                            .started_ms = 500, .seen_ms = 500 };
    assert_int_equal(arena_db_run_seen(db, &other), 0);
    assert_int_equal(arena_db_runs_forget(db, 1000), 1);            /* 42, silent since 500 */
    assert_int_equal(raw_int(path, "SELECT owner FROM arena_runs"), 41);
    assert_int_equal(arena_db_run_end(db, 41), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM arena_runs"), 0);
    r.tournament_id = 999;                                          /* no such tournament */
    assert_int_equal(arena_db_run_seen(db, &r), -1);
    arena_db_close(db);
}

/* ---- gate verdicts -------------------------------------------------------- */

/* A ladder's SPRT gate verdict is stored once per outcome (a ladder
 * judges again after a restart), read back as given; an outcome the
 * schema does not know is refused. */
static void test_gate_verdicts(void **state)
{
    (void)state;
    arena_db *db = open_new("gates");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_ladder l = { .name = "l", .game = "duel" };
    assert_int_equal(arena_db_ladder_open(db, &l, err, sizeof err), 0);
    arena_gate_verdict v = { .ladder_id = l.id, .bot_id = b, .opponent_id = a, .outcome = "failed",
                             .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05, .llr = -3.25,
                             .lower = -2.94, .upper = 2.94, .wins = 2, .draws = 1, .losses = 9,
                             .pairs = 6, .decided_ms = 1234 };
    assert_int_equal(arena_db_gate_verdict_store(db, &v, err, sizeof err), 1);
    v.decided_ms = 5678;                                   /* judged again: the same row */
    assert_int_equal(arena_db_gate_verdict_store(db, &v, err, sizeof err), 0);
    v.outcome = "overruled";                               /* enabled by hand, then */
    assert_int_equal(arena_db_gate_verdict_store(db, &v, err, sizeof err), 1);
    v.outcome = "maybe";
    assert_int_equal(arena_db_gate_verdict_store(db, &v, err, sizeof err), -1);
    expect_err("CHECK constraint failed");
    arena_db_close(db);
    const char *path = db_path("gates");
    assert_int_equal(raw_int(path, "SELECT count(*) FROM gate_verdicts"), 2);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM gate_verdicts WHERE outcome = 'failed'"
                                   " AND decided_ms = 1234 AND llr = -3.25 AND lower = -2.94"
                                   " AND upper = 2.94 AND wins = 2 AND draws = 1 AND losses = 9"
                                   " AND pairs = 6 AND elo1 = 10 AND alpha = 0.05"), 1);
}

/* ---- main --------------------------------------------------------------- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_migrate),
        cmocka_unit_test(test_open_refuses),
        cmocka_unit_test(test_bots),
        cmocka_unit_test(test_bot_games),
        cmocka_unit_test(test_users),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_tournaments),
        cmocka_unit_test(test_match_duplicate),
        cmocka_unit_test(test_match_batch),
        cmocka_unit_test(test_match_roundtrip),
        cmocka_unit_test(test_elo_two_seats),
        cmocka_unit_test(test_elo_four_seats),
        cmocka_unit_test(test_elo_same_bot_twice),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_check_ratings),
        cmocka_unit_test(test_interrupted),
        cmocka_unit_test(test_claims),
        cmocka_unit_test(test_arena_runs),
        cmocka_unit_test(test_gate_verdicts),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

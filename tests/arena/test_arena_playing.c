/*
 * test_arena_playing.c - the matches in play (db/arena_db_playing.h) in a
 * real SQLite file: an arena's beat writes what its workers play, ids from
 * ARENA_PLAYING_BASE up, growing and never given twice; a match played again keeps
 * its id and starts its record over; once stored, its row names the match
 * and leaves the list; a silent arena's rows go after a minute; a second
 * arena's rows are its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "arena_db_playing.h"
#include "db_test.h"

static arena_tournament tour(int64_t a, int64_t b)
{
    arena_tournament t = { 0 };
    snprintf(t.game, sizeof t.game, "duel");
    snprintf(t.format, sizeof t.format, "round-robin");
    snprintf(t.options, sizeof t.options, "players=2");
    t.games = 4;
    t.seed = 7;
    t.terms.move_ms = 1000;
    t.terms.bank_ms = 10000;
    t.terms.handshake_ms = 5000;
    t.terms.strikes = 2;
    t.terms.memory_mb = -1;
    t.terms.wall_ceiling_pct = 300;
    t.elo_k = 24;
    t.planned = 4;
    t.nbots = 2;
    t.bot[0] = a;
    t.bot[1] = b;
    return t;
}

static arena_playing row(int64_t job, int64_t a, int64_t b, const char *record)
{
    arena_playing p = { .job = job, .seed = 42, .seats = 2, .bot = { a, b },
                        .started_ms = 1000 + job, .record = (char *)record };
    snprintf(p.game, sizeof p.game, "duel");
    p.options = (char *)"players=2";
    return p;
}

static void test_playing(void **state)
{
    (void)state;
    arena_db *db = open_new("playing");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_tournament t = tour(a, b);
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    const int64_t owner = 77, other = 78, now = 100000;

    /* Two matches in play, one without a decision yet. */
    arena_playing in[2] = { row(0, a, b, "arena-record 1\n"), row(1, b, a, NULL) };
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, in, 2, now, err, sizeof err), 0);
    arena_playing *l = NULL;
    assert_int_equal(arena_db_playing_list(db, now, &l), 2);
    assert_int_equal(l[0].id, ARENA_PLAYING_BASE);
    assert_int_equal(l[1].id, ARENA_PLAYING_BASE + 1);
    assert_int_equal(l[0].tournament_id, t.id);
    assert_int_equal(l[0].ladder_id, 0);
    assert_string_equal(l[0].record, "arena-record 1\n");
    assert_null(l[1].record);
    assert_int_equal(l[1].seats, 2);
    assert_int_equal(l[1].bot[0], b);
    assert_int_equal(l[1].bot[1], a);
    assert_int_equal(l[1].seed, 42);
    assert_string_equal(l[1].options, "players=2");
    assert_int_equal(l[1].started_ms, 1001);
    arena_playing_free_list(l, 2);

    /* Job 0 goes on (its record grows), job 1 is stored meanwhile. */
    arena_match m = match2(b, a, 1, 24);
    m.tournament_id = t.id;
    m.game_index = 1;
    store_ok(db, &m);
    in[0].record = (char *)"arena-record 1\ndecision 0 1.0 - x\n";
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, in, 1, now + 2000, err, sizeof err), 0);
    assert_int_equal(arena_db_playing_list(db, now + 2000, &l), 1);
    assert_int_equal(l[0].id, ARENA_PLAYING_BASE);
    assert_string_equal(l[0].record, "arena-record 1\ndecision 0 1.0 - x\n");
    arena_playing_free_list(l, 1);
    arena_playing one;
    assert_int_equal(arena_db_playing_get(db, ARENA_PLAYING_BASE + 1, &one), 0);
    assert_int_equal(one.match_id, m.id);                  /* the same id leads to it */
    assert_int_equal(one.running, 0);
    arena_playing_clear(&one);
    assert_int_equal(arena_db_playing_get(db, ARENA_PLAYING_BASE + 9, &one), 1);

    /* Job 0's worker lost: handed out again, it keeps its id, starts over. */
    in[0].record = NULL;
    in[0].started_ms = 5000;
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, in, 1, now + 4000, err, sizeof err), 0);
    assert_int_equal(arena_db_playing_get(db, ARENA_PLAYING_BASE, &one), 0);
    assert_null(one.record);
    assert_int_equal(one.started_ms, 5000);
    arena_playing_clear(&one);

    /* A second arena's rows are its own: the first's sync leaves them. */
    arena_playing theirs = row(3, a, b, NULL);
    assert_int_equal(arena_db_playing_sync(db, other, t.id, 0, &theirs, 1, now + 4000, err,
                                           sizeof err), 0);
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, in, 1, now + 5000, err, sizeof err), 0);
    assert_int_equal(arena_db_playing_list(db, now + 5000, &l), 2);
    assert_int_equal(l[0].id, ARENA_PLAYING_BASE);
    int64_t theirs_id = l[1].id;                           /* a new one (ids may skip) */
    assert_true(theirs_id > ARENA_PLAYING_BASE + 1);
    arena_playing_free_list(l, 2);
    /* Not seen for ARENA_PLAYING_FRESH_MS: not listed; for KEEP_MS: gone. */
    int64_t later = now + 5000 + ARENA_PLAYING_FRESH_MS + 1;
    assert_int_equal(arena_db_playing_list(db, later, &l), 0);
    arena_playing_free_list(l, 0);
    /* Job 0 no longer played nor stored (its arena stopping), the stored
     * one, the silent arena's: all gone a minute on, however often the
     * first arena beats meanwhile. */
    const char *path = db_path("playing");
    for (later = now + 6000; later <= now + 5000 + ARENA_PLAYING_KEEP_MS; later += 20000)
        assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, NULL, 0, later, err, sizeof err), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches_playing"), 3);
    later = now + 5000 + ARENA_PLAYING_KEEP_MS + 1;
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, NULL, 0, later, err, sizeof err), 0);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM matches_playing"), 0);
    /* Ids are never given again, even once every row is gone. */
    assert_int_equal(arena_db_playing_sync(db, owner, t.id, 0, &theirs, 1, later, err, sizeof err), 0);
    assert_true(raw_int(path, "SELECT id FROM matches_playing") > theirs_id);
    arena_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_playing),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

/*
 * test_arena_seats.c - matches of any number of seats in the arena's
 * database: a row per seat, stored, read back, rated (Elo by
 * rt_elo_match, against hand-computed numbers), reported, and checked, and
 * the replay check catching seat rows changed behind the library's back.
 * The per-bot summaries (schema 11: W-D-L by opponent, forfeits) against
 * hand counts, kept through hand edits, and their check. Also that the per-bot and per-game queries the web pages will page
 * through are answered from an index.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "arena_report.h"
#include "db_test.h"

/* A free-for-all of `seats` bots, each its own team, in game "trio". */
static arena_match ffa(int seats, const int64_t *bot, const double *score, double k)
{
    arena_match m = match2(bot[0], bot[1], score[0], k);
    snprintf(m.game, sizeof m.game, "trio");
    m.seats = seats;
    for (int i = 0; i < seats; i++) {
        m.bot[i] = bot[i];
        m.team[i] = i;
        m.score[i] = score[i];
    }
    return m;
}

/* An arena_match_fn counting the matches it sees. */
static int count_match(const arena_match *m, void *ctx)
{
    (void)m;
    ++*(int *)ctx;
    return 0;
}

/* Stops at the third match it sees, with 7. */
static int stop_at_third(const arena_match *m, void *ctx)
{
    (void)m;
    return ++*(int *)ctx == 3 ? 7 : 0;
}

/* The matches a result stream should give, and how far it got. */
typedef struct result_cursor {
    const arena_match *want;
    int at;
} result_cursor;

/* The results of each match as the full list has them, nothing else. */
static int same_results(const arena_match *m, void *ctx)
{
    result_cursor *c = ctx;
    const arena_match *w = &c->want[c->at++];
    assert_int_equal(m->id, w->id);
    assert_int_equal(m->seats, w->seats);
    assert_true(m->elo_k == w->elo_k);
    for (int i = 0; i < m->seats; i++) {
        assert_int_equal(m->bot[i], w->bot[i]);
        assert_int_equal(m->team[i], w->team[i]);
        assert_true(m->score[i] == w->score[i]);
    }
    assert_string_equal(m->reason, "");
    assert_null(m->record);
    return 0;
}

/* Matches one at a time: in the order played, as the list has them (the
 * results alone when asked for), and a stop when the reader says so. */
static void test_matches_streamed(void **state)
{
    (void)state;
    arena_db *db = open_new("streamed");
    int64_t bot[4] = {add_bot(db, "a"), add_bot(db, "b"), add_bot(db, "c"), add_bot(db, "d")};
    double score[3] = {0.5, 1, 0};
    for (int i = 0; i < 5; i++) {
        arena_match m = i == 1 ? match4(bot, 0, 24) : i == 3 ? ffa(3, bot, score, 8)
                      : match2(bot[i % 4], bot[(i + 1) % 4], i == 2 ? 0.5 : 1, 16 + i);
        store_ok(db, &m);
    }
    arena_match *list = NULL;
    assert_int_equal(arena_db_match_list(db, NULL, &list), 5);
    int seen = 0;
    assert_int_equal(arena_db_match_each(db, NULL, stop_at_third, &seen), 7);
    assert_int_equal(seen, 3);
    seen = 0;
    assert_int_equal(arena_db_result_each(db, NULL, stop_at_third, &seen), 7);
    assert_int_equal(seen, 3);
    arena_match_filter f = { .seats = 2 };
    seen = 0;
    assert_int_equal(arena_db_result_each(db, &f, count_match, &seen), 0);
    assert_int_equal(seen, 3);
    result_cursor c = { list, 0 };
    assert_int_equal(arena_db_result_each(db, NULL, same_results, &c), 0);
    assert_int_equal(c.at, 5);
    free(list);
    arena_db_close(db);
}

/* A kind of four seats with a free-for-all among its 2 v 2 matches is not
 * rated on team strengths, whichever comes first. */
static void test_four_seats_mixed(void **state)
{
    (void)state;
    arena_db *db = open_new("mixed4");
    int64_t bot[4] = {add_bot(db, "a"), add_bot(db, "b"), add_bot(db, "c"), add_bot(db, "d")};
    double score[4] = {1, 0, 0, 0};
    arena_match m = ffa(4, bot, score, 16);
    snprintf(m.game, sizeof m.game, "duel");
    store_ok(db, &m);
    m = match4(bot, 1, 16);
    store_ok(db, &m);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, NULL, ARENA_TABLE, out, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(text, "4 players (games and w-d-l count matches; the elo fit takes "
                                 "every two seats"));
    assert_null(strstr(text, "2 v 2"));
    free(text);
    arena_db_close(db);
}

static void test_three_seats(void **state)
{
    (void)state;
    arena_db *db = open_new("three");
    const char *path = db_path("three");
    int64_t bot[3] = {add_bot(db, "a"), add_bot(db, "b"), add_bot(db, "c")};

    /* All at 1500, K = 32 over two opponents, 16 a pair: seat 0 beats both
     * (8 + 8), the other two tie (0): 1516, 1492, 1492. */
    double win0[3] = {1, 0, 0};
    arena_match m = ffa(3, bot, win0, 32);
    m.culprit = -1;
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, bot[0]) - 1516.0) < 1e-12);
    assert_true(fabs(elo_of(db, bot[1]) - 1492.0) < 1e-12);
    assert_true(fabs(elo_of(db, bot[2]) - 1492.0) < 1e-12);

    arena_match g;
    assert_int_equal(arena_db_match_get(db, m.id, &g), 0);
    assert_string_equal(g.game, "trio");
    assert_int_equal(g.seats, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(g.bot[i], bot[i]);
        assert_int_equal(g.team[i], i);
        assert_true(g.score[i] == win0[i]);
    }
    arena_match_free(&g);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM match_seats"), 3);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM rating_history"), 3);

    /* A forfeit by seat 2 wins for both others (two winners, one loser).
     * E(24) = 1 / (1 + 10^(-0.06)) = 0.5344839; 16 a pair:
     *   0 v 1, a tie:  16 (0.5 - E(24)) = -0.5517431 (to seat 0, + to seat 1)
     *   0 v 2, a win:  16 (1 - E(24))   =  7.4482569
     *   1 v 2, a win:  16 (1 - E(0))    =  8
     * seat 0: 1516 - 0.5517431 + 7.4482569 = 1522.8965138
     * seat 1: 1492 + 0.5517431 + 8         = 1500.5517431
     * seat 2: 1492 - 7.4482569 - 8         = 1476.5517431 */
    double forfeit[3] = {1, 1, 0};
    m = ffa(3, bot, forfeit, 32);
    m.culprit = 2;
    snprintf(m.reason, sizeof m.reason, "timeout");
    store_ok(db, &m);
    assert_true(fabs(elo_of(db, bot[0]) - 1522.8965138) < 1e-6);
    assert_true(fabs(elo_of(db, bot[1]) - 1500.5517431) < 1e-6);
    assert_true(fabs(elo_of(db, bot[2]) - 1476.5517431) < 1e-6);

    /* A three-way tie shares the win: a third each, a draw for all. Equal
     * scores are a tie between every two seats, so the ratings close in. */
    double thirds[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    double a_before = elo_of(db, bot[0]), c_before = elo_of(db, bot[2]);
    m = ffa(3, bot, thirds, 32);
    store_ok(db, &m);
    assert_true(elo_of(db, bot[0]) < a_before && elo_of(db, bot[2]) > c_before);

    arena_rating *r = NULL;
    assert_int_equal(arena_db_results(db, 0, &r), 3);
    assert_int_equal(r[0].wins, 2);                  /* a */
    assert_int_equal(r[0].draws, 1);
    assert_int_equal(r[1].wins, 1);                  /* b */
    assert_int_equal(r[1].draws, 1);
    assert_int_equal(r[1].losses, 1);
    assert_int_equal(r[2].losses, 2);                /* c */
    assert_int_equal(r[2].draws, 1);
    assert_true(fabs(r[2].points - 1.0 / 3) < 1e-12);
    free(r);
    check_equal(db);
    arena_db_close(db);
}

static void test_six_seats_three_teams(void **state)
{
    (void)state;
    arena_db *db = open_new("six");
    int64_t bot[6];
    char name[8];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "b%d", i);
        bot[i] = add_bot(db, name);
    }
    /* Teams 0+3, 1+4, 2+5, all at 1500; team 0 wins, the others tie:
     * K = 20 over two opponents: team 0 +10, the others -5 each. */
    double score[6] = {1, 0, 0, 1, 0, 0};
    arena_match m = ffa(6, bot, score, 20);
    for (int i = 0; i < 6; i++)
        m.team[i] = i % 3;
    store_ok(db, &m);
    static const double want[6] = {1510, 1495, 1495, 1510, 1495, 1495};
    for (int i = 0; i < 6; i++)
        assert_true(fabs(elo_of(db, bot[i]) - want[i]) < 1e-9);
    arena_match g;
    assert_int_equal(arena_db_match_get(db, m.id, &g), 0);
    assert_int_equal(g.seats, 6);
    assert_int_equal(g.team[5], 2);
    assert_int_equal(g.bot[5], bot[5]);
    arena_match_free(&g);

    /* Teams apart in score, or labels beyond the seats: refused. */
    m.score[3] = 0;
    assert_int_equal(arena_db_match_store(db, &m, err, sizeof err), -1);
    expect_err("seat 3 scored apart from its team 0");
    m.score[3] = 1;
    m.team[4] = 6;
    assert_int_equal(arena_db_match_store(db, &m, err, sizeof err), -1);
    expect_err("seat 4's team must be 0 to 5");
    check_equal(db);
    arena_db_close(db);
}

static void test_check_sees_seats(void **state)
{
    (void)state;
    arena_db *db = open_new("seats_check");
    const char *path = db_path("seats_check");
    int64_t bot[3] = {add_bot(db, "a"), add_bot(db, "b"), add_bot(db, "c")};
    double score[3] = {0, 1, 0.5};          /* three teams: no sum rule */
    for (int i = 0; i < 5; i++) {
        arena_match m = ffa(3, bot, score, 16);
        store_ok(db, &m);
    }
    check_equal(db);

    raw_exec(path, "UPDATE match_seats SET team = 0 WHERE match_id = 3 AND seat = 1");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("match 3");
    raw_exec(path, "UPDATE match_seats SET team = 1 WHERE match_id = 3 AND seat = 1");
    check_equal(db);

    raw_exec(path, "UPDATE match_seats SET score = 0 WHERE match_id = 4 AND seat = 2");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("match 4");
    raw_exec(path, "UPDATE match_seats SET score = 0.5 WHERE match_id = 4 AND seat = 2");

    raw_exec(path, "DELETE FROM match_seats WHERE match_id = 2 AND seat = 2");
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("match 2 is damaged");
    arena_match g;
    assert_int_equal(arena_db_match_get(db, 2, &g), -1);      /* not half a match */
    arena_match *list = NULL;
    assert_int_equal(arena_db_match_list(db, NULL, &list), -1);
    assert_null(list);
    int seen = 0;                  /* streamed: match 1, then the damage */
    assert_int_equal(arena_db_match_each(db, NULL, count_match, &seen), -1);
    assert_int_equal(seen, 1);
    seen = 0;
    assert_int_equal(arena_db_result_each(db, NULL, count_match, &seen), -1);
    assert_int_equal(seen, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, NULL, ARENA_CSV, out, err, sizeof err), -1);
    fclose(out);
    free(text);
    expect_err("cannot read the matches");
    raw_exec(path, "INSERT INTO match_seats VALUES (2, 2, 3, 2, 0.5)");
    check_equal(db);

    raw_exec(path, "INSERT INTO match_seats VALUES (2, 3, 3, 3, 0.5)");   /* a fourth seat */
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("match 2 is damaged");
    raw_exec(path, "DELETE FROM match_seats WHERE match_id = 2 AND seat = 3");

    raw_exec(path, "INSERT INTO match_seats VALUES (99, 0, 1, 0, 1)");    /* of no match */
    assert_int_equal(arena_db_check_ratings(db, err, sizeof err), 1);
    expect_err("table match_seats refers to a missing row of matches");
    raw_exec(path, "DELETE FROM match_seats WHERE match_id = 99");
    check_equal(db);
    arena_db_close(db);
}

/* Standings of several games and seat counts: each kind rated apart. */
static void test_standings_by_kind(void **state)
{
    (void)state;
    arena_db *db = open_new("kinds");
    int64_t bot[3] = {add_bot(db, "ann"), add_bot(db, "bob"), add_bot(db, "cat")};
    double first[3] = {1, 0, 0}, second[3] = {0, 1, 0};
    for (int i = 0; i < 6; i++) {
        arena_match m = ffa(3, bot, i % 3 ? first : second, 16);
        store_ok(db, &m);
        arena_match d = match2(bot[2], bot[i % 2], 1, 16);   /* duel: cat wins all */
        store_ok(db, &d);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, NULL, ARENA_CSV, out, err, sizeof err), 0);
    fclose(out);
    /* duel before trio (by name); in trio ann won 4 of 6, bob 2. */
    const char *duel = strstr(text, "1,cat,"), *trio = strstr(text, "1,ann,");
    assert_non_null(duel);
    assert_non_null(trio);
    assert_true(duel < trio);
    assert_non_null(strstr(duel, ",6,6,0,0,100.0,"));
    assert_non_null(strstr(trio, ",6,4,0,2,66.7,"));
    assert_non_null(strstr(text, ",3,trio\n"));
    assert_non_null(strstr(text, ",2,duel\n"));
    free(text);

    out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, NULL, ARENA_TABLE, out, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(text, "duel: 2 players\n"));
    assert_non_null(strstr(text, "\ntrio: 3 players (games and w-d-l count matches; the elo fit takes every two seats"));
    free(text);

    arena_match_filter f = { .seats = 3 };
    out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, &f, ARENA_JSON, out, err, sizeof err), 0);
    fclose(out);
    assert_null(strstr(text, "duel"));
    assert_non_null(strstr(text, "\"players\": 3, \"rank\": 1, \"bot\": \"ann\""));
    free(text);
    arena_db_close(db);
}

/* The plan SQLite picks for a query: its lines joined. */
static char *plan(const char *path, const char *sql)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    char q[600];
    snprintf(q, sizeof q, "EXPLAIN QUERY PLAN %s", sql);
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, q, -1, &st, NULL), SQLITE_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    while (sqlite3_step(st) == SQLITE_ROW)
        fprintf(f, "%s\n", (const char *)sqlite3_column_text(st, 3));
    fclose(f);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return text;
}

static void test_indexed_queries(void **state)
{
    (void)state;
    arena_db *db = open_new("plans");
    arena_db_close(db);
    const char *path = db_path("plans");
    /* A bot's matches, newest first, a page after the last one seen. */
    char *p = plan(path, "SELECT match_id FROM match_seats WHERE bot_id = 7 AND match_id < 1000"
                         " ORDER BY match_id DESC LIMIT 50");
    assert_non_null(strstr(p, "USING COVERING INDEX match_seats_bot"));
    assert_null(strstr(p, "TEMP B-TREE"));
    free(p);
    /* A bot's results over every match, and its rating history. */
    p = plan(path, "SELECT bot_id, count(*), sum(score = 1.0), total(score) FROM match_seats"
                   " GROUP BY bot_id");
    assert_non_null(strstr(p, "USING COVERING INDEX match_seats_bot"));
    free(p);
    p = plan(path, "SELECT elo_after FROM rating_history WHERE bot_id = 7 ORDER BY match_id");
    assert_non_null(strstr(p, "INDEX rating_history_bot"));
    assert_null(strstr(p, "TEMP B-TREE"));
    free(p);
    /* A match's seats. */
    p = plan(path, "SELECT bot_id, team, score FROM match_seats WHERE match_id = 5");
    assert_non_null(strstr(p, "USING PRIMARY KEY"));
    free(p);
    /* A game's matches of some seats, a page at a time. */
    p = plan(path, "SELECT id FROM matches WHERE game = 'g' AND seats = 3 AND id < 1000"
                   " ORDER BY id DESC LIMIT 50");
    assert_non_null(strstr(p, "INDEX matches_game"));
    assert_null(strstr(p, "TEMP B-TREE"));
    free(p);
}

/* bot_opponents' row for (a, b) as "W-D-L", or "none". */
static const char *versus(const char *path, int64_t a, int64_t b)
{
    static char out[64];
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM bot_opponents WHERE bot_id = %lld"
             " AND opponent_id = %lld", (long long)a, (long long)b);
    if (raw_int(path, sql) == 0)
        return "none";
    int64_t wdl[3];
    static const char *const col[3] = { "wins", "draws", "losses" };
    for (int i = 0; i < 3; i++) {
        snprintf(sql, sizeof sql, "SELECT %s FROM bot_opponents WHERE bot_id = %lld"
                 " AND opponent_id = %lld", col[i], (long long)a, (long long)b);
        wdl[i] = raw_int(path, sql);
    }
    snprintf(out, sizeof out, "%lld-%lld-%lld", (long long)wdl[0], (long long)wdl[1],
             (long long)wdl[2]);
    return out;
}

static void test_bot_summaries(void **state)
{
    (void)state;
    arena_db *db = open_new("summaries");
    const char *path = db_path("summaries");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b"), c = add_bot(db, "c"),
            d = add_bot(db, "d");
    arena_match m = match2(a, b, 1, 16);                /* a beats b */
    store_ok(db, &m);
    m = match2(b, a, 0.5, 16);                          /* a draw, b in seat 0 */
    store_ok(db, &m);
    m = match2(a, b, 0, 16);                            /* b wins: a forfeited */
    m.culprit = 0;
    snprintf(m.reason, sizeof m.reason, "timeout");
    store_ok(db, &m);
    int64_t forfeit = m.id;
    int64_t team[4] = { a, b, c, d };                   /* a+c beat b+d */
    m = match4(team, 1, 16);
    store_ok(db, &m);
    int64_t three[3] = { c, d, c };                     /* c against itself and d */
    double score[3] = { 1, 0, 0.5 };
    m = ffa(3, three, score, 16);
    store_ok(db, &m);
    check_equal(db);

    assert_string_equal(versus(path, a, b), "2-1-1");
    assert_string_equal(versus(path, b, a), "1-1-2");
    assert_string_equal(versus(path, a, d), "1-0-0");
    assert_string_equal(versus(path, a, c), "none");    /* team mates only */
    assert_string_equal(versus(path, c, b), "1-0-0");
    assert_string_equal(versus(path, c, d), "3-0-0");   /* the team match and both seats */
    assert_string_equal(versus(path, d, c), "0-0-3");
    assert_string_equal(versus(path, c, c), "1-0-1");   /* seat 0 v seat 2, both ways */
    assert_int_equal(raw_int(path, "SELECT count(*) FROM bot_forfeits"), 1);
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT match_id FROM bot_forfeits WHERE bot_id = %lld",
             (long long)a);
    assert_int_equal(raw_int(path, sql), forfeit);

    /* Changed by hand, they follow; the ratings check is the one to object. */
    snprintf(sql, sizeof sql, "UPDATE matches SET culprit = 1 WHERE id = %lld",
             (long long)forfeit);
    raw_exec(path, sql);
    snprintf(sql, sizeof sql, "SELECT bot_id FROM bot_forfeits WHERE match_id = %lld",
             (long long)forfeit);
    assert_int_equal(raw_int(path, sql), b);
    raw_exec(path, "UPDATE match_seats SET score = 0.5 WHERE match_id = 1");
    assert_string_equal(versus(path, a, b), "1-2-1");
    raw_exec(path, "DELETE FROM match_seats WHERE match_id = 4");
    assert_string_equal(versus(path, a, d), "none");
    assert_string_equal(versus(path, c, d), "2-0-0");
    assert_int_equal(arena_db_check_summaries(db, err, sizeof err), 0);

    /* Changed behind the triggers' back, the check names the pair. */
    raw_exec(path, "UPDATE bot_opponents SET draws = draws + 1 WHERE bot_id = 3 AND opponent_id = 4");
    assert_int_equal(arena_db_check_summaries(db, err, sizeof err), 1);
    expect_err("bot_opponents: only the stored rows say bot 3 against bot 4 is 2-1-0");
    raw_exec(path, "DELETE FROM bot_opponents WHERE bot_id = 3 AND opponent_id = 4");
    assert_int_equal(arena_db_check_summaries(db, err, sizeof err), 1);
    expect_err("only the recomputed rows say bot 3 against bot 4 is 2-0-0");
    raw_exec(path, "INSERT INTO bot_opponents VALUES (3, 4, 2, 0, 0)");
    raw_exec(path, "DELETE FROM bot_forfeits");
    assert_int_equal(arena_db_check_summaries(db, err, sizeof err), 1);
    expect_err("bot_forfeits: only the recomputed rows say bot 2 forfeited match 3");
    assert_int_equal(arena_db_check_summaries(NULL, err, sizeof err), -1);
    arena_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_seats),
        cmocka_unit_test(test_six_seats_three_teams),
        cmocka_unit_test(test_check_sees_seats),
        cmocka_unit_test(test_bot_summaries),
        cmocka_unit_test(test_standings_by_kind),
        cmocka_unit_test(test_matches_streamed),
        cmocka_unit_test(test_four_seats_mixed),
        cmocka_unit_test(test_indexed_queries),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

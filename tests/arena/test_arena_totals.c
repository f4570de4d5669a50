/*
 * test_arena_totals.c - the result totals (schema 18) the standings, the
 * crosstable and a ladder's fit read instead of every match: each report,
 * in every format and filter, prints exactly what it prints reading the
 * matches (the totals set aside by marking them edited), on a hand-made
 * file (wins, draws, a share of a win, a mirror match, void matches, three
 * seats, 2 v 2, four seats each its own team, a tournament, a ladder) and
 * on a generated one; the totals are used when they can be; hand edits
 * send the reports back to the matches; `arena check` verifies them; and
 * migration 18 fills them from the matches already stored.
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

#include "arena_fill.h"
#include "arena_report.h"
#include "db_test.h"

/* A report into a string (malloc'ed), asserting its return. */
static char *report(arena_db *db, int crosstable, const arena_match_filter *f, int format,
                    int want)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    int rc = crosstable ? arena_crosstable(db, f, format, out, err, sizeof err)
                        : arena_standings(db, f, format, out, err, sizeof err);
    fclose(out);
    if (rc != want)
        fail_msg("report %d (format %d) returned %d: %s", crosstable, format, rc, err);
    return text;
}

typedef struct seen {
    int bots, pairs, teams;
} seen;
static int count_bot(void *ctx, int64_t b, int g, int w, int d, int l, double p, double e)
{
    (void)b, (void)g, (void)w, (void)d, (void)l, (void)p, (void)e;
    ((seen *)ctx)->bots++;
    return 0;
}
static int count_pair(void *ctx, int64_t a, int64_t b, int64_t w, int64_t d, int64_t l)
{
    (void)a, (void)b, (void)w, (void)d, (void)l;
    ((seen *)ctx)->pairs++;
    return 0;
}
static int count_team(void *ctx, const int64_t a[2], const int64_t b[2], double s, int64_t g)
{
    (void)a, (void)b, (void)s, (void)g;
    ((seen *)ctx)->teams++;
    return 0;
}
static const arena_totals_fn COUNT = { count_bot, count_pair, count_team };

/* What arena_db_totals_each answers for a kind: 0, 1 or -1; *s its rows. */
static int totals_of(arena_db *db, const arena_match_filter *kind, seen *s)
{
    int team_fit = -1;
    memset(s, 0, sizeof *s);
    return arena_db_totals_each(db, kind, &COUNT, s, &team_fit);
}

/* Every report of `filters`, in every format, from the totals and from
 * the matches (the totals marked edited), must be the same text. */
static void same_both_ways(arena_db *db, const char *path, const arena_match_filter *filters,
                           int nf)
{
    char *fast[16][2][3];
    assert_true(nf <= 16);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            raw_exec(path, "UPDATE result_state SET edits = edits + 1");
        for (int k = 0; k < nf; k++)
            for (int c = 0; c < 2; c++)
                for (int fmt = ARENA_TABLE; fmt <= ARENA_JSON; fmt++) {
                    char *text = report(db, c, &filters[k], fmt, 0);
                    if (pass == 0) {
                        fast[k][c][fmt] = text;
                        continue;
                    }
                    if (strcmp(fast[k][c][fmt], text) != 0)
                        fail_msg("filter %d, %s, format %d: from the totals\n%s\nfrom the "
                                 "matches\n%s", k, c ? "crosstable" : "standings", fmt,
                                 fast[k][c][fmt], text);
                    free(fast[k][c][fmt]);
                    free(text);
                }
    }
    raw_exec(path, "UPDATE result_state SET edits = 0");
}

static int64_t open_tournament(arena_db *db, const char *game)
{
    arena_tournament t = {0};
    snprintf(t.game, sizeof t.game, "%s", game);
    snprintf(t.format, sizeof t.format, "round-robin");
    t.games = 2;
    t.elo_k = 16;
    assert_int_equal(arena_db_tournament_open(db, &t, err, sizeof err), 0);
    return t.id;
}

static int64_t open_ladder(arena_db *db)
{
    arena_ladder l = {0};
    snprintf(l.name, sizeof l.name, "duel:players=2");
    snprintf(l.game, sizeof l.game, "duel");
    snprintf(l.options, sizeof l.options, "players=2");
    assert_int_equal(arena_db_ladder_open(db, &l, err, sizeof err), 0);
    return l.id;
}

/* Each kind of result the tally counts, in every scope. */
static void fill_results(arena_db *db, int64_t *bot, int64_t tid, int64_t lid)
{
    static const double scores[] = { 1, 0, 0.5, 1, 1, 0, 0.5, 0 };
    int index = 0, ladder_index = 0;
    for (int i = 0; i < 24; i++) {
        arena_match m = match2(bot[i % 5], bot[(i * 3 + 1) % 5], scores[i % 8], 16 + i % 3);
        if (m.bot[0] == m.bot[1])
            m.bot[1] = bot[5];
        if (i % 3 == 1) {
            m.tournament_id = tid;
            m.game_index = index++;
        } else if (i % 3 == 2) {
            m.ladder_id = lid;
            m.game_index = ladder_index++;
        }
        store_ok(db, &m);
    }
    arena_match mirror = match2(bot[2], bot[2], 1, 16);          /* one bot, both seats */
    store_ok(db, &mirror);
    arena_match nothing = match2(bot[0], bot[1], 0, 16);          /* void: no game */
    snprintf(nothing.reason, sizeof nothing.reason, ARENA_VOID);
    nothing.score[1] = 0;
    nothing.team[1] = 0;
    store_ok(db, &nothing);
    for (int i = 0; i < 6; i++) {                                 /* 2 v 2 */
        int64_t four[4] = { bot[i % 6], bot[(i + 1) % 6], bot[(i + 2) % 6], bot[(i + 3) % 6] };
        arena_match m = match4(four, i % 3 == 0 ? 0.5 : i % 2, 16);
        store_ok(db, &m);
    }
    for (int i = 0; i < 6; i++) {                                 /* three seats */
        arena_match m = match2(bot[i % 6], bot[(i + 1) % 6], 0, 16);
        snprintf(m.game, sizeof m.game, "trio");
        m.seats = 3;
        m.bot[2] = bot[(i + 2) % 6];
        m.team[2] = 2;
        m.score[0] = i % 2 ? 1 : 0.5;
        m.score[1] = 0;
        m.score[2] = i % 2 ? 0 : 0.5;
        if (i == 5) {
            m.tournament_id = tid;
            m.game_index = index++;
        }
        store_ok(db, &m);
    }
    for (int i = 0; i < 4; i++) {                 /* four seats, each its own team */
        int64_t four[4] = { bot[i], bot[i + 1], bot[i + 2], bot[5 - i] };
        arena_match m = match4(four, 1, 16);
        for (int s = 0; s < 4; s++) {
            m.team[s] = s;
            m.score[s] = s == i ? 1 : 0;
        }
        snprintf(m.game, sizeof m.game, "quad");
        store_ok(db, &m);
    }
    int64_t four[4] = { bot[0], bot[1], bot[2], bot[3] };   /* then one 2 v 2: no team fit */
    arena_match last = match4(four, 1, 16);
    snprintf(last.game, sizeof last.game, "quad");
    store_ok(db, &last);
}

/* A fresh file `name` of six bots, a tournament and a ladder, filled by
 * fill_results. */
static arena_db *by_hand(const char *name, int64_t *bot, int64_t *tid, int64_t *lid)
{
    arena_db *db = open_new(name);
    const char *names[6] = { "ann", "bob", "cid", "dee", "eve", "fay" };
    for (int i = 0; i < 6; i++)
        bot[i] = add_bot(db, names[i]);
    *tid = open_tournament(db, "duel");
    *lid = open_ladder(db);
    fill_results(db, bot, *tid, *lid);
    return db;
}

static void test_same_reports_by_hand(void **state)
{
    (void)state;
    int64_t bot[6], tid, lid;
    arena_db *db = by_hand("totals_hand", bot, &tid, &lid);
    const char *path = db_path("totals_hand");

    arena_match_filter f[8] = { { 0 } };
    f[1].tournament_id = tid;
    f[2].ladder_id = lid;
    snprintf(f[3].game, sizeof f[3].game, "duel");
    f[3].seats = 4;
    snprintf(f[4].game, sizeof f[4].game, "trio");
    f[5].seats = 2;
    f[6].bot_id = bot[1];                          /* the matches' alone */
    f[7].tournament_id = tid;
    f[7].seats = 3;
    same_both_ways(db, path, f, 8);

    /* Read from the totals: each kind's bots and pairs, its 6 team games
     * in 2 v 2; not for a bot's matches, not for several kinds at once. */
    seen s;
    arena_match_filter duel2 = { .seats = 2 };
    snprintf(duel2.game, sizeof duel2.game, "duel");
    assert_int_equal(totals_of(db, &duel2, &s), 0);
    assert_int_equal(s.bots, 6);
    assert_int_equal(s.pairs, 5);          /* ann-bob, bob-eve, cid-fay, ann-dee, dee-eve */
    assert_int_equal(totals_of(db, &f[3], &s), 0);
    assert_int_equal(s.teams, 6);
    assert_int_equal(totals_of(db, &f[6], &s), 1);
    arena_match_filter every = { 0 };
    assert_int_equal(totals_of(db, &every, &s), 1);
    arena_match_filter chess = { .seats = 2 };
    snprintf(chess.game, sizeof chess.game, "chess");
    assert_int_equal(totals_of(db, &chess, &s), 0);   /* never played: nothing */
    assert_int_equal(s.bots, 0);

    /* A share of a win that is no draw (0.7 against 0.3): the tally's
     * crosstable counts it a draw, its rating game a win, so the kind
     * is left to the matches, which say the same as before. */
    arena_match share = match2(bot[0], bot[3], 0.75, 16);
    store_ok(db, &share);
    assert_int_equal(totals_of(db, &duel2, &s), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM result_bots b JOIN result_scopes s"
                                   " ON s.id = b.scope_id WHERE s.game = 'duel' AND s.seats = 2"
                                   " AND s.tournament_id = 0 AND s.ladder_id = 0"), 0);
    arena_match_filter in_tournament = duel2;
    in_tournament.tournament_id = tid;
    assert_int_equal(totals_of(db, &in_tournament, &s), 0);  /* its tournament's still */
    assert_int_equal(s.bots, 6);
    same_both_ways(db, path, f, 8);
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);
    arena_db_close(db);
}

/* Bots in the order first seen, pairs in the order first met: the fit's
 * numbering and its pairs' order, which the totals must keep. */
typedef struct order {
    int64_t bot[64], pair[1024][2];
    int nb, np;
} order;

static void note_bot(order *o, int64_t b)
{
    for (int i = 0; i < o->nb; i++)
        if (o->bot[i] == b)
            return;
    assert_true(o->nb < 64);
    o->bot[o->nb++] = b;
}

static void note_pair(order *o, int64_t a, int64_t b)
{
    for (int i = 0; i < o->np; i++)
        if (o->pair[i][0] == a && o->pair[i][1] == b)
            return;
    assert_true(o->np < 1024);
    o->pair[o->np][0] = a;
    o->pair[o->np++][1] = b;
}

static int order_bot(void *ctx, int64_t b, int g, int w, int d, int l, double p, double e)
{
    (void)g, (void)w, (void)d, (void)l, (void)p, (void)e;
    note_bot(ctx, b);
    return 0;
}
static int order_pair(void *ctx, int64_t a, int64_t b, int64_t w, int64_t d, int64_t l)
{
    (void)w, (void)d, (void)l;
    note_pair(ctx, a, b);
    return 0;
}
static const arena_totals_fn ORDER = { order_bot, order_pair, count_team };

/* The same orders from the 2-seat matches streamed by. */
static int order_match(const arena_match *m, void *ctx)
{
    note_bot(ctx, m->bot[0]);
    note_bot(ctx, m->bot[1]);
    if (m->bot[0] != m->bot[1])
        note_pair(ctx, m->bot[0] < m->bot[1] ? m->bot[0] : m->bot[1],
                  m->bot[0] < m->bot[1] ? m->bot[1] : m->bot[0]);
    return 0;
}

static void test_same_reports_generated(void **state)
{
    (void)state;
    arena_db *db = open_new("totals_gen");
    const char *path = db_path("totals_gen");
    for (int i = 0; i < 12; i++) {
        char name[16];
        snprintf(name, sizeof name, "bot%d", i);
        add_bot(db, name);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 3000; i++) {
        arena_match m;
        arena_fill_match(&m, 12, 0, &rng);
        store_ok(db, &m);
    }
    arena_match_filter f[4] = { { 0 } };
    f[1].seats = 2;
    snprintf(f[2].game, sizeof f[2].game, "duel");
    f[2].seats = 4;
    f[3].seats = 3;
    same_both_ways(db, path, f, 4);
    seen s;
    assert_int_equal(totals_of(db, &f[2], &s), 0);
    assert_int_equal(s.bots, 12);
    assert_true(s.teams > 100);
    order want = { .nb = 0 }, got = { .nb = 0 };
    arena_match_filter duel2 = { .seats = 2 };
    snprintf(duel2.game, sizeof duel2.game, "duel");
    int team_fit;
    assert_int_equal(arena_db_totals_each(db, &duel2, &ORDER, &got, &team_fit), 0);
    assert_int_equal(arena_db_result_each(db, &duel2, order_match, &want), 0);
    assert_int_equal(got.nb, want.nb);
    assert_memory_equal(got.bot, want.bot, sizeof want.bot);
    assert_int_equal(got.np, want.np);
    assert_memory_equal(got.pair, want.pair, sizeof want.pair);
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);
    arena_db_close(db);
}

/* Matches changed by hand: the reports read the matches (and see the
 * damage); the check passes over totals nobody reads; totals changed
 * behind the library's back: the check names the row. */
static void test_edits_and_check(void **state)
{
    (void)state;
    arena_db *db = open_new("totals_check");
    const char *path = db_path("totals_check");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b"), c = add_bot(db, "c");
    for (int i = 0; i < 6; i++) {
        arena_match m = match2(i % 2 ? a : b, i % 3 ? c : a, i % 2 ? 1 : 0.5, 16);
        if (m.bot[0] == m.bot[1])
            m.bot[1] = b;
        store_ok(db, &m);
    }
    arena_match_filter duel = { .seats = 2 };
    snprintf(duel.game, sizeof duel.game, "duel");
    seen s;
    assert_int_equal(totals_of(db, &duel, &s), 0);
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);

    raw_exec(path, "UPDATE result_pairs SET draws = draws + 1 WHERE a = 1 AND b = 3");
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 1);
    expect_err("result_pairs: only the stored rows have, in duel with 2 seats (tournament 0,"
               " ladder 0), a=1 b=3");
    raw_exec(path, "UPDATE result_pairs SET draws = draws - 1 WHERE a = 1 AND b = 3");
    raw_exec(path, "UPDATE result_bots SET elo = elo + 1e-9 WHERE bot_id = 2");
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 1);
    expect_err("result_bots: only the stored rows have");
    raw_exec(path, "UPDATE result_bots SET elo = elo - 1e-9 WHERE bot_id = 2");
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);

    /* A seat changed by hand: the report reads the matches at once. */
    char *before = report(db, 0, &duel, ARENA_CSV, 0);
    raw_exec(path, "UPDATE match_seats SET score = 1 - score WHERE match_id = 2");
    assert_int_equal(totals_of(db, &duel, &s), 1);
    char *after = report(db, 0, &duel, ARENA_CSV, 0);
    assert_string_not_equal(before, after);
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);    /* not read: no check */
    free(before);
    free(after);
    /* A match inserted by hand without seats: damage the report sees. */
    raw_exec(path, "UPDATE result_state SET edits = 0");
    assert_int_equal(totals_of(db, &duel, &s), 0);
    raw_exec(path, "INSERT INTO matches(game_index, game, seed, options, seats, reason, detail,"
                   " decisions, hash, started_ms, finished_ms, elo_k)"
                   " SELECT game_index, game, seed, options, seats, reason, detail, decisions,"
                   " hash, started_ms, finished_ms, elo_k FROM matches WHERE id = 1");
    assert_int_equal(totals_of(db, &duel, &s), 1);
    free(report(db, 0, &duel, ARENA_CSV, -1));
    expect_err("cannot read the matches");
    arena_db_close(db);
}

/* Migration 18 on a file of matches stored before it: the totals filled
 * from them, the reports the same both ways, the check equal. */
static void test_migration_fills(void **state)
{
    (void)state;
    int64_t bot[6], tid, lid;
    arena_db *db = by_hand("totals_migrate", bot, &tid, &lid);
    const char *path = db_path("totals_migrate");
    arena_match_filter f[3] = { { 0 } };
    f[1].tournament_id = tid;
    f[2].ladder_id = lid;
    char *want = report(db, 0, &f[0], ARENA_JSON, 0);
    int64_t pairs = raw_int(path, "SELECT count(*) FROM result_pairs");
    arena_db_close(db);
    raw_exec(path, "DROP TABLE result_teams; DROP TABLE result_pairs; DROP TABLE result_bots;"
                   " DROP TABLE result_scopes; DROP TABLE result_state;"
                   " DROP TRIGGER result_match_in; DROP TRIGGER result_seat_in;"
                   " DROP TRIGGER result_match_edit; DROP TRIGGER result_match_gone;"
                   " DROP TRIGGER result_seat_edit; DROP TRIGGER result_seat_gone;"
                   " DROP TABLE matches_playing;"         /* 20, made again after 18 */
                   " PRAGMA user_version = 17");
    assert_int_equal(arena_db_open(&db, path, 0, err, sizeof err), 0);
    assert_int_equal(arena_db_schema_version(db), ARENA_DB_SCHEMA);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM result_pairs"), pairs);
    assert_int_equal(raw_int(path, "SELECT edits FROM result_state"), 0);
    char *got = report(db, 0, &f[0], ARENA_JSON, 0);
    assert_string_equal(got, want);
    free(got);
    free(want);
    same_both_ways(db, path, f, 3);
    assert_int_equal(arena_db_check_totals(db, err, sizeof err), 0);
    arena_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_reports_by_hand),
        cmocka_unit_test(test_same_reports_generated),
        cmocka_unit_test(test_edits_and_check),
        cmocka_unit_test(test_migration_fills),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

/*
 * test_arena_versions.c - bot versions and statuses, and what a ladder
 * keeps in the database: its row, its matches (each stored once), each
 * bot's forfeits in a row, and the rating history of its fits; the
 * fit's totals kept as matches are stored (arena_ladder_fit.h) against
 * the standings' fit over the same matches; the version a new one's SPRT
 * gate plays, along a chain of versions with every status; a tournament
 * run by the library refuses a bot of another game.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "arena_ladder_fit.h"
#include "arena_ladder_gate.h"
#include "arena_report.h"
#include "arena_tourney.h"
#include "db_test.h"

static int64_t add_version(arena_db *db, const char *name, const char *version)
{
    arena_bot b = {0};
    snprintf(b.name, sizeof b.name, "%s", name);
    snprintf(b.cmd, sizeof b.cmd, "./agents/%s", name);
    snprintf(b.version, sizeof b.version, "%s", version);
    if (arena_db_bot_add(db, &b, err, sizeof err) != 0)
        return -1;
    char ref[160];
    snprintf(ref, sizeof ref, "%s@%s", name, version);
    arena_bot got;
    assert_int_equal(arena_db_bot_by_name(db, ref, &got), 0);
    return got.id;
}

static void test_versions(void **state)
{
    (void)state;
    arena_db *db = open_new("versions");
    int64_t v1 = add_bot(db, "alice");                 /* version 1.0 */
    int64_t bob = add_bot(db, "bob");
    arena_bot b;
    assert_int_equal(arena_db_bot_by_id(db, v1, &b), 0);
    assert_string_equal(b.label, "alice");            /* one version: the name alone */
    assert_int_equal(b.previous_id, 0);

    /* A new version: its own row and rating, following the old one. */
    int64_t v2 = add_version(db, "alice", "2.0");
    assert_true(v2 > v1);
    assert_int_equal(arena_db_bot_by_name(db, "alice", &b), 0);   /* the newest */
    assert_int_equal(b.id, v2);
    assert_int_equal(b.previous_id, v1);
    assert_string_equal(b.label, "alice@2.0");
    assert_int_equal(arena_db_bot_by_name(db, "alice@1.0", &b), 0);
    assert_int_equal(b.id, v1);
    assert_string_equal(b.label, "alice@1.0");
    /* The same version twice, or a second one without a version: refused. */
    assert_int_equal(add_version(db, "alice", "2.0"), -1);
    expect_err("alice version 2.0 is already registered");
    assert_int_equal(add_version(db, "alice", ""), -1);
    expect_err("a new version needs --version");

    /* Each version is rated apart. */
    arena_match m = match2(v1, v2, 1.0, 32);
    store_ok(db, &m);
    assert_true(elo_of(db, v1) > 1500 && elo_of(db, v2) < 1500);
    m = match2(v2, bob, 0.5, 32);
    store_ok(db, &m);
    arena_rating *r;
    int n = arena_db_results(db, 0, &r);
    assert_int_equal(n, 3);
    assert_string_equal(r[0].name, "alice@1.0");
    assert_string_equal(r[1].name, "alice@2.0");
    assert_string_equal(r[2].name, "bob");
    free(r);

    /* Removed and registered again with the same version: told apart by id. */
    assert_int_equal(arena_db_bot_remove(db, "bob", err, sizeof err), 0);
    int64_t bob2 = add_bot(db, "bob");
    char want[32];
    snprintf(want, sizeof want, "bob#%lld", (long long)bob2);
    assert_int_equal(arena_db_bot_by_id(db, bob2, &b), 0);
    assert_string_equal(b.label, want);
    assert_int_equal(arena_db_bot_by_name(db, want, &b), 0);     /* a label is a reference */
    assert_int_equal(b.id, bob2);
    snprintf(want, sizeof want, "bob#%lld", (long long)bob);
    assert_int_equal(arena_db_bot_by_name(db, want, &b), 1);      /* removed */
    check_equal(db);
    arena_db_close(db);
}

static void test_statuses(void **state)
{
    (void)state;
    arena_db *db = open_new("statuses");
    int64_t a = add_bot(db, "alice");
    arena_bot b;
    assert_int_equal(arena_db_bot_by_id(db, a, &b), 0);
    assert_string_equal(b.status, "active");
    assert_string_equal(arena_bot_status_shown(&b), "provisional");   /* no games yet */

    assert_int_equal(arena_db_bot_set_status(db, "alice", "disabled", "eats memory", err,
                                             sizeof err), 0);
    assert_int_equal(arena_db_bot_by_id(db, a, &b), 0);
    assert_string_equal(b.status, "disabled");
    assert_string_equal(b.reason, "eats memory");
    assert_true(b.status_ms > 0);
    /* The ladder's automatic disable changes only an active bot. */
    assert_int_equal(arena_db_bot_disable_id(db, a, "5 forfeits", err, sizeof err), 1);
    assert_int_equal(arena_db_bot_set_status(db, "alice", "active", "", err, sizeof err), 0);
    assert_int_equal(arena_db_bot_disable_id(db, a, "5 forfeits", err, sizeof err), 0);
    assert_int_equal(arena_db_bot_by_id(db, a, &b), 0);
    assert_string_equal(b.reason, "5 forfeits");

    assert_int_equal(arena_db_bot_set_status(db, "alice", "retired", "old", err, sizeof err), 0);
    assert_int_equal(arena_db_bot_set_status(db, "alice", "active", "", err, sizeof err), -1);
    expect_err("alice is retired");
    assert_int_equal(arena_db_bot_set_status(db, "alice", "sleepy", "", err, sizeof err), -1);
    expect_err("unknown status 'sleepy'");
    assert_int_equal(arena_db_bot_set_status(db, "nobody", "retired", "", err, sizeof err), -1);
    expect_err("no registered bot named nobody");
    char longer[400];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    assert_int_equal(arena_db_bot_set_status(db, "alice", "retired", longer, err, sizeof err), -1);
    expect_err("the reason is too long");

    /* Listed with every status. */
    add_bot(db, "bob");
    arena_bot *list;
    assert_int_equal(arena_db_bot_list(db, &list), 2);
    assert_string_equal(list[0].status, "retired");
    assert_string_equal(list[1].status, "active");
    free(list);
    arena_db_close(db);
}

static arena_match ladder_match(int64_t ladder, int index, int64_t x, int64_t y, int culprit)
{
    arena_match m = match2(x, y, culprit == 0 ? 0.0 : 1.0, 16);
    m.ladder_id = ladder;
    m.game_index = index;
    m.culprit = culprit;
    snprintf(m.reason, sizeof m.reason, "%s", culprit >= 0 ? "crash" : "markers");
    return m;
}

/* The ladder "duel:players=2" of game duel, with seed `seed`, into *l:
 * what arena_db_ladder_open returns (0 created, 1 found). */
static int open_duel(arena_db *db, arena_ladder *l, uint64_t seed)
{
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "duel:players=2");
    snprintf(l->game, sizeof l->game, "duel");
    snprintf(l->options, sizeof l->options, "players=2");
    l->seed = seed;
    return arena_db_ladder_open(db, l, err, sizeof err);
}

/* A match lost by a remote bot's connection is no forfeit of its bot's:
 * it neither counts in a run of forfeits nor ends one. */
static void test_ladder_disconnected(void **state)
{
    (void)state;
    arena_db *db = open_new("ladder-disconnected");
    int64_t a = add_bot(db, "alice"), b = add_bot(db, "bob");
    arena_ladder l;
    assert_int_equal(open_duel(db, &l, 0), 0);
    int64_t first = 0;
    for (int i = 0; i < 5; i++) {
        arena_match m = ladder_match(l.id, i, a, b, 0);
        if (i == 2 || i == 4)
            snprintf(m.reason, sizeof m.reason, "disconnected");
        store_ok(db, &m);
        if (i == 0)
            first = m.id;
    }
    arena_ladder_record rec;
    assert_int_equal(arena_db_ladder_record(db, l.id, a, 5, &rec), 0);
    assert_int_equal(rec.games, 5);
    assert_int_equal(rec.forfeits_in_a_row, 3);                     /* 0, 1 and 3 */
    assert_string_equal(rec.last_reason, "crash");
    assert_int_equal(rec.last_match, first + 3);
    assert_int_equal(arena_db_ladder_record(db, l.id, b, 5, &rec), 0);
    assert_int_equal(rec.forfeits_in_a_row, 0);
    arena_db_close(db);
}

static void test_ladder_rows(void **state)
{
    (void)state;
    arena_db *db = open_new("ladder");
    int64_t a = add_bot(db, "alice"), b = add_bot(db, "bob");
    arena_ladder l;
    assert_int_equal(open_duel(db, &l, UINT64_MAX - 5), 0);               /* created */
    int64_t id = l.id;
    assert_true(id > 0);

    /* Stored once per index, whatever happens: a second store is a duplicate. */
    arena_match m = ladder_match(id, 0, a, b, -1);
    store_ok(db, &m);
    for (int i = 1; i <= 3; i++) {
        m = ladder_match(id, i, i % 2 ? a : b, i % 2 ? b : a, i % 2 ? 0 : 1);  /* alice forfeits */
        store_ok(db, &m);
    }
    m = ladder_match(id, 2, a, b, -1);
    assert_int_equal(arena_db_match_store(db, &m, err, sizeof err), 1);
    m = ladder_match(id + 1, 9, a, b, -1);
    assert_int_equal(arena_db_match_store(db, &m, err, sizeof err), -1);
    expect_err("no ladder with id");

    arena_ladder again = {0};
    snprintf(again.name, sizeof again.name, "duel:players=2");
    assert_int_equal(arena_db_ladder_open(db, &again, err, sizeof err), 1);   /* found */
    assert_int_equal(again.id, id);
    assert_int_equal(again.seed, UINT64_MAX - 5);
    assert_string_equal(again.options, "players=2");
    assert_int_equal(again.next_index, 4);
    assert_int_equal(again.matches, 4);

    arena_ladder_record rec;
    assert_int_equal(arena_db_ladder_record(db, id, a, 5, &rec), 0);
    assert_int_equal(rec.games, 4);
    assert_int_equal(rec.forfeits_in_a_row, 3);
    assert_string_equal(rec.last_reason, "crash");
    assert_int_equal(arena_db_ladder_record(db, id, a, 2, &rec), 0);
    assert_int_equal(rec.forfeits_in_a_row, 2);                     /* counts at most max */
    assert_int_equal(arena_db_ladder_record(db, id, b, 5, &rec), 0);
    assert_int_equal(rec.forfeits_in_a_row, 0);
    m = ladder_match(id, 4, a, b, -1);                               /* a clean match ends it */
    store_ok(db, &m);
    assert_int_equal(arena_db_ladder_record(db, id, a, 5, &rec), 0);
    assert_int_equal(rec.forfeits_in_a_row, 0);

    /* Listing by ladder. */
    arena_match_filter f = { .ladder_id = id };
    arena_match *list;
    assert_int_equal(arena_db_match_list(db, &f, &list), 5);
    assert_int_equal(list[0].ladder_id, id);
    free(list);

    /* Standings of the ladder alone: a match outside it is not counted. */
    m = match2(a, b, 1.0, 16);
    store_ok(db, &m);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(arena_standings(db, &f, ARENA_JSON, out, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(text, "\"bot\": \"alice\""));
    assert_non_null(strstr(text, "\"bot\": \"bob\""));
    assert_null(strstr(text, "\"games\": 6"));
    assert_non_null(strstr(text, "\"games\": 5"));
    free(text);

    /* Rating history: a fit per refresh, a row per bot. */
    arena_fit_row rows[2] = { { a, -20, 50, 5 }, { b, 20, 50, 5 } };
    assert_int_equal(arena_db_fit_store(db, id, 1000, 5, rows, 2, err, sizeof err), 0);
    rows[0].rating = -30;
    assert_int_equal(arena_db_fit_store(db, id, 2000, 7, rows, 2, err, sizeof err), 0);
    int64_t *at;
    arena_fit_row *hist;
    assert_int_equal(arena_db_fit_history(db, id, a, &at, &hist), 2);
    assert_int_equal(at[0], 1000);
    assert_int_equal(at[1], 2000);
    assert_true(hist[0].rating == -20 && hist[1].rating == -30 && hist[1].ci95 == 50);
    free(at);
    free(hist);
    check_equal(db);
    arena_db_close(db);
}

static arena_ladder new_ladder(arena_db *db, const char *name)
{
    arena_ladder l = {0};
    snprintf(l.name, sizeof l.name, "%s", name);
    snprintf(l.game, sizeof l.game, "duel");
    assert_int_equal(arena_db_ladder_open(db, &l, err, sizeof err), 0);
    return l;
}

/* The kept totals: read back from the database or added match by match,
 * they fit what the standings fit over the ladder's matches (and only
 * them: another ladder's and a 4-seat match are left out); a warm start
 * from the last fit ends where a cold one does. */
static void test_ladder_fit(void **state)
{
    (void)state;
    arena_db *db = open_new("lfit");
    int64_t bot[6];
    for (int i = 0; i < 6; i++) {
        char name[16];
        snprintf(name, sizeof name, "b%d", i);
        bot[i] = add_bot(db, name);
    }
    arena_ladder l = new_ladder(db, "one"), other = new_ladder(db, "two");
    arena_lfit *live = arena_lfit_new();
    uint64_t x = 99;
    for (int k = 0; k < 120; k++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = (int)(x >> 33) % 6, j = (i + 1 + (int)(x >> 45) % 5) % 6;
        double s = (x >> 20) % 10 < 3 ? 0.5 : (int)((x >> 20) % 10) < 4 + i ? 1.0 : 0.0;
        arena_match m = match2(bot[i], bot[j], s, 16);
        m.ladder_id = k % 7 == 6 ? other.id : l.id;
        m.game_index = k;
        store_ok(db, &m);
        if (m.ladder_id == l.id)
            assert_int_equal(arena_lfit_add_match(live, &m), 0);
    }
    arena_match four = match4(bot, 1.0, 16);
    four.ladder_id = l.id;
    four.game_index = 500;
    store_ok(db, &four);
    assert_int_equal(arena_lfit_add_match(live, &four), -1);     /* not a pair */
    assert_int_equal(arena_lfit_add(live, bot[0], bot[0], 1.0), -1);
    assert_int_equal(arena_lfit_add(live, bot[0], bot[1], 0.25), -1);

    arena_lfit *read = arena_lfit_new();
    assert_int_equal(arena_lfit_load(read, db, l.id), 0);
    arena_match_filter f = { .ladder_id = l.id, .seats = 2 };
    arena_fit_row *want = NULL, *got = NULL, *again = NULL;
    int n = arena_report_fit(db, &f, &want, err, sizeof err);
    assert_int_equal(n, 6);
    rt_bt_info cold, warm;
    assert_int_equal(arena_lfit_fit(read, &got, &cold, err, sizeof err), n);
    for (int i = 0; i < n; i++) {
        assert_true(got[i].bot_id == want[i].bot_id);         /* best first, alike */
        assert_true(fabs(got[i].rating - want[i].rating) < 1e-4);
        assert_true(fabs(got[i].ci95 - want[i].ci95) < 1e-4);
        assert_int_equal(got[i].games, want[i].games);
        assert_int_equal(arena_lfit_games(read, got[i].bot_id), got[i].games);
    }
    assert_int_equal(arena_lfit_fit(live, &again, NULL, err, sizeof err), n);
    for (int i = 0; i < n; i++)                                 /* same totals, same fit */
        assert_true(again[i].bot_id == got[i].bot_id &&
                    fabs(again[i].rating - got[i].rating) < 1e-6);
    free(again);
    assert_int_equal(arena_lfit_fit(read, &again, &warm, err, sizeof err), n);
    assert_true(warm.iterations < cold.iterations);
    for (int i = 0; i < n; i++)
        assert_true(fabs(again[i].rating - got[i].rating) < 1e-4);
    assert_int_equal(arena_lfit_games(read, 12345), 0);
    free(want);
    free(got);
    free(again);
    arena_lfit_free(read);
    arena_lfit_free(live);
    arena_pair_result *none = NULL;
    assert_int_equal(arena_db_ladder_pairs(db, 0, &none), -1);
    assert_null(none);
    arena_db_close(db);
}

/* A chain of versions of "x" (1, 2, ... in order), each left with its
 * status: "active", "disabled" (by hand), "failed" (disabled by the
 * ladder's gate, as arena_ladder.c does), "retired"; the newest is the
 * new one, active. Returns the version whose gate the newest plays
 * (1-based; 0: none), read back from the database's own bot list. A
 * bystander bot "y" with an active version is registered between them. */
static int gate_plays(const char *const *status, int n)
{
    static int round;
    char name[32];
    snprintf(name, sizeof name, "gate%d", ++round);
    arena_db *db = open_new(name);
    int64_t id[8] = { 0 };
    assert_true(n + 1 <= 8);
    for (int v = 0; v <= n; v++) {
        char version[8];
        snprintf(version, sizeof version, "%d", v + 1);
        id[v] = add_version(db, "x", version);
        assert_true(id[v] > 0);
        if (v == 0)
            assert_true(add_version(db, "y", "1") > 0);
    }
    for (int v = 0; v < n; v++) {
        char ref[32];
        snprintf(ref, sizeof ref, "x@%d", v + 1);
        if (!strcmp(status[v], "failed"))
            assert_int_equal(arena_db_bot_disable_id(db, id[v], "failed its SPRT gate against "
                                                     "x@0: LLR -3.00", err, sizeof err), 0);
        else if (strcmp(status[v], "active"))
            assert_int_equal(arena_db_bot_set_status(db, ref, status[v], "", err, sizeof err), 0);
    }
    arena_bot *list;
    int count = arena_db_bot_list(db, &list), newest = -1;
    assert_int_equal(count, n + 2);
    for (int i = 0; i < count; i++)
        if (list[i].id == id[n])
            newest = i;
    assert_true(newest >= 0);
    int64_t opponent = arena_gate_opponent(list, count, newest);
    free(list);
    arena_db_close(db);
    for (int v = 0; v < n; v++)
        if (opponent == id[v])
            return v + 1;
    assert_int_equal(opponent, 0);            /* nothing else: never the bystander */
    return 0;
}

/* The gate plays the version the ladder plays: the newest older one still
 * active; a disabled, failed or retired one between is skipped. */
/* Pairs appended as new (a report's stored totals) are found by a later
 * add of the same pair, before and after the table grows: one pair, its
 * counts summed, the orientation kept. */
static void test_lfit_new_pairs_found_later(void **state)
{
    (void)state;
    enum { BOTS = 40 };
    arena_lfit *f = arena_lfit_new();
    assert_non_null(f);
    for (int b = 0; b < BOTS; b++)
        assert_int_equal(arena_lfit_bot(f, 100 + b), b);
    assert_int_equal(arena_lfit_add_new(f, 0, 1, 2, 1, 0), 0);
    assert_int_equal(arena_lfit_add_new(f, 2, 1, 1, 0, 3), 0);   /* stored as (1, 2) */
    assert_int_equal(arena_lfit_add_counts(f, 1, 0, 1, 0, 0), 0);   /* 1 beat 0: (0, 1) */
    size_t np;
    const rt_pair *p = arena_lfit_pairs(f, &np);
    assert_int_equal(np, 2);
    assert_int_equal(p[0].i, 0);
    assert_int_equal(p[0].wins_i, 2);
    assert_int_equal(p[0].draws, 1);
    assert_int_equal(p[0].wins_j, 1);
    assert_int_equal(p[1].i, 1);
    assert_int_equal(p[1].j, 2);
    assert_int_equal(p[1].wins_i, 3);
    assert_int_equal(p[1].wins_j, 1);
    /* past the first table's 256 pairs, appended without a look-up */
    for (int i = 3; i < BOTS; i++)
        for (int j = 0; j < i; j++)
            assert_int_equal(arena_lfit_add_new(f, i, j, 0, 1, 0), 0);
    assert_int_equal(arena_lfit_add_at(f, 39, 38, 1.0), 0);
    assert_int_equal(arena_lfit_add_at(f, 0, 1, 0.5), 0);
    p = arena_lfit_pairs(f, &np);
    assert_int_equal(np, 2 + (size_t)(BOTS * (BOTS - 1) / 2 - 3));   /* no (0, 2) */
    assert_int_equal(p[0].draws, 2);
    assert_int_equal(p[np - 1].i, 38);
    assert_int_equal(p[np - 1].wins_j, 1);
    assert_int_equal(arena_lfit_games(f, 100), 5 + (BOTS - 3));   /* and a draw with each of 3.. */
    assert_int_equal(arena_lfit_add_new(f, 0, 0, 1, 0, 0), -1);
    assert_int_equal(arena_lfit_add_new(f, 0, BOTS, 1, 0, 0), -1);
    assert_int_equal(arena_lfit_add_new(f, 0, 1, -1, 0, 0), -1);
    arena_lfit_free(f);
}

static void test_gate_opponent(void **state)
{
    (void)state;
    const char *both[] = { "active", "active" };
    assert_int_equal(gate_plays(both, 2), 2);                    /* the newest, not the first */
    const char *disabled[] = { "active", "disabled" };
    assert_int_equal(gate_plays(disabled, 2), 1);
    const char *failed[] = { "active", "failed" };
    assert_int_equal(gate_plays(failed, 2), 1);
    const char *retired[] = { "active", "retired" };
    assert_int_equal(gate_plays(retired, 2), 1);
    const char *first_retired[] = { "retired", "active" };
    assert_int_equal(gate_plays(first_retired, 2), 2);
    const char *first_disabled[] = { "disabled", "active" };
    assert_int_equal(gate_plays(first_disabled, 2), 2);
    const char *long_chain[] = { "active", "retired", "failed", "disabled" };
    assert_int_equal(gate_plays(long_chain, 4), 1);               /* three skipped */
    const char *middle[] = { "retired", "active", "disabled", "active", "failed" };
    assert_int_equal(gate_plays(middle, 5), 4);
    const char *none[] = { "retired", "disabled", "failed" };
    assert_int_equal(gate_plays(none, 3), 0);                     /* ungated */
    assert_int_equal(gate_plays(NULL, 0), 0);                     /* a first version */
}

/* The library holds a tournament to its bots' games whoever built the
 * spec (a resume, sprt --play, a program of its own): a bot of another
 * game is named, and nothing is stored or started. */
static void test_tourney_holds_to_games(void **state)
{
    (void)state;
    arena_db *db = open_new("games");
    int64_t wc = add_bot(db, "wc");                    /* "": the default game */
    arena_bot gs = {0};
    snprintf(gs.name, sizeof gs.name, "gs");
    snprintf(gs.cmd, sizeof gs.cmd, "./agents/gs");
    snprintf(gs.plays, sizeof gs.plays, "goofspiel");
    assert_int_equal(arena_db_bot_add(db, &gs, err, sizeof err), 0);
    assert_int_equal(arena_db_bot_by_name(db, "gs", &gs), 0);
    arena_spec spec;
    arena_spec_default(&spec);
    snprintf(spec.game, sizeof spec.game, "goofspiel");
    spec.options[0] = 0;
    spec.nbots = 2;
    spec.bot[0] = gs.id;
    spec.bot[1] = wc;
    arena_run run = { .concurrency = 1, .referee = "/nonexistent/referee", .quiet = 1 };
    int64_t tid = 0;
    assert_int_equal(arena_tourney_run(db, &spec, &run, &tid, err, sizeof err), -1);
    assert_string_equal(err, "bot wc does not play goofspiel (it plays warchest)");
    assert_int_equal(tid, 0);
    arena_tournament t;
    assert_int_equal(arena_db_tournament_latest_unfinished(db, &t), 1);
    arena_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_ladder_rows),
        cmocka_unit_test(test_ladder_disconnected),
        cmocka_unit_test(test_ladder_fit),
        cmocka_unit_test(test_lfit_new_pairs_found_later),
        cmocka_unit_test(test_gate_opponent),
        cmocka_unit_test(test_tourney_holds_to_games),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

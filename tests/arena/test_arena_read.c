/*
 * test_arena_read.c - what the web shows, read by db/arena_read.h, on real
 * files: bots as tables show them and references to them, pages of
 * matches (cursor, filters, seats), a bot's rating plot and its lists,
 * the kinds of match, and the live view's lists. The web's HTTP tests
 * (tests/web) see the same through every route; these pin each read's
 * edges where a route would not show them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena_read.h"
#include "clk.h"
#include "db_test.h"

/* A match of bots a v b finished at `at`, a's score s; its id. */
static int64_t play(arena_db *db, int64_t a, int64_t b, double s, int64_t at)
{
    arena_match m = match2(a, b, s, 16);
    m.started_ms = at - 10;
    m.finished_ms = at;
    store_ok(db, &m);
    return m.id;
}

static void test_bots_and_refs(void **state)
{
    (void)state;
    arena_db *db = open_new("read_bots");
    int64_t a = add_bot(db, "ada"), b1 = add_bot(db, "bob");
    arena_bot v2 = { .id = 0 };
    snprintf(v2.name, sizeof v2.name, "bob");
    snprintf(v2.cmd, sizeof v2.cmd, "./bob");
    snprintf(v2.version, sizeof v2.version, "2.0");
    assert_int_equal(arena_db_bot_add(db, &v2, err, sizeof err), 0);
    play(db, a, b1, 1, 5000);
    assert_int_equal(arena_db_bot_set_status(db, "bob@2.0", "disabled", "too slow", err,
                                             sizeof err), 0);
    assert_int_equal(arena_db_bot_remove(db, "ada", err, sizeof err), 0);
    arena_bot_row *r;
    assert_int_equal(arena_read_bots(db, &r), 3);
    assert_int_equal(r[0].id, a);                       /* by id, removed ones too */
    assert_string_equal(r[0].label, "ada");
    assert_string_equal(r[0].status, "removed");
    assert_int_equal(r[0].registered, 0);
    assert_int_equal(r[0].played, 1);
    assert_int_equal(r[0].last_active_ms, 5000);
    assert_string_equal(r[1].label, "bob@1.0");
    assert_string_equal(r[1].status, "provisional");   /* active, one game */
    assert_string_equal(r[1].reason, "");
    assert_string_equal(r[2].label, "bob@2.0");
    assert_string_equal(r[2].version, "2.0");
    assert_string_equal(r[2].status, "disabled");
    assert_string_equal(r[2].reason, "too slow");
    assert_int_equal(r[2].played, 0);
    assert_string_equal(r[1].remote, "");                 /* not a remote bot */
    free(r);
    /* bob@2.0 made remote: absent until the gateway hears it, then connected,
     * then not connected once it is gone (absent an hour later). */
    int64_t now = clk_wall_ms();
    assert_int_equal(arena_db_remote_add(db, b1 + 1, err, sizeof err), 0);
    assert_int_equal(arena_read_bots(db, &r), 3);
    assert_string_equal(r[2].remote, "absent");
    free(r);
    assert_int_equal(arena_db_remote_state(db, b1 + 1, 1, "tcp://127.0.0.1:1", now), 0);
    assert_int_equal(arena_read_bots(db, &r), 3);
    assert_string_equal(r[2].remote, "connected");
    free(r);
    assert_int_equal(arena_db_remote_ready(db, b1 + 1, now), 1);
    assert_int_equal(arena_db_remote_ready(db, b1 + 1, now + ARENA_REMOTE_FRESH_MS + 1), 0);
    assert_int_equal(arena_db_remote_state(db, b1 + 1, 0, NULL, now), 0);
    assert_int_equal(arena_read_bots(db, &r), 3);
    assert_string_equal(r[2].remote, "not connected");
    free(r);
    assert_int_equal(arena_db_remote_ready(db, b1 + 1, now), 0);
    assert_int_equal(arena_db_remote_ready(db, b1, now), 1);   /* not remote: always */

    int64_t id = 0;
    assert_int_equal(arena_read_bot_ref(db, "bob", &id), 0);
    assert_int_equal(id, b1 + 1);                       /* its newest version */
    assert_int_equal(arena_read_bot_ref(db, "bob@1.0", &id), 0);
    assert_int_equal(id, b1);
    assert_int_equal(arena_read_bot_ref(db, "ada", &id), 0);    /* removed: its exact name */
    assert_int_equal(id, a);
    char label[32];
    snprintf(label, sizeof label, "ada#%lld", (long long)a);
    assert_int_equal(arena_read_bot_ref(db, label, &id), 0);
    assert_int_equal(id, a);
    assert_int_equal(arena_read_bot_ref(db, "bob#999", &id), 1);
    assert_int_equal(arena_read_bot_ref(db, "nobody", &id), 1);
    arena_db_close(db);
    /* A name the arena refuses today, from an older or edited file. */
    raw_exec(db_path("read_bots"),
             "INSERT INTO bots(id, name, cmd, added_at) VALUES (50, 'odd name!', 'x', 0)");
    assert_int_equal(arena_db_open(&db, db_path("read_bots"), 0, err, sizeof err), 0);
    assert_int_equal(arena_read_bot_ref(db, "odd name!", &id), 0);
    assert_int_equal(id, 50);
    arena_db_close(db);
}

static void test_pages(void **state)
{
    (void)state;
    arena_db *db = open_new("read_pages");
    int64_t x = add_bot(db, "x"), y = add_bot(db, "y"), z = add_bot(db, "z"), id[6];
    for (int i = 0; i < 6; i++)       /* x v y, then y v z, x v z... */
        id[i] = play(db, i % 3 == 2 ? y : x, i % 3 == 0 ? y : z, i % 2 ? 1 : 0.5, 1000 + i);
    arena_page p;
    arena_page_query q = { .before = INT64_MAX, .limit = 4, .score = -1 };
    assert_int_equal(arena_read_begin(db, err, sizeof err), 0);
    assert_int_equal(arena_read_page(db, &q, &p), 0);
    assert_int_equal(p.n, 4);
    assert_int_equal(p.m[0].id, id[5]);                 /* newest first */
    assert_int_equal(p.next, id[2]);
    assert_int_equal(p.partial, 0);
    const arena_match_row *m = &p.m[0];
    assert_string_equal(m->game, "duel");
    assert_int_equal(m->players, 2);
    assert_int_equal(m->tournament_id, 0);
    assert_int_equal(m->culprit, -1);
    assert_int_equal(m->finished_ms, 1005);
    assert_int_equal(m->nseats, 2);
    assert_int_equal(m->seat[1].seat, 1);
    assert_int_equal(m->seat[1].bot_id, z);
    assert_string_equal(m->seat[1].bot, "z");
    assert_string_equal(m->seat[1].version, "1.0");
    assert_int_equal(m->seat[1].team, 1);
    assert_true(m->seat[0].score == 1 && m->seat[1].score == 0);
    q.before = p.next;                                  /* the cursor: the rest */
    arena_read_page_free(&p);
    assert_int_equal(arena_read_page(db, &q, &p), 0);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.m[1].id, id[0]);
    assert_int_equal(p.next, 0);
    arena_read_page_free(&p);

    arena_page_query by_z = { .bot = z, .before = INT64_MAX, .limit = 10, .score = 0.5 };
    assert_int_equal(arena_read_page(db, &by_z, &p), 0);  /* z's draws: matches 2 and 4 */
    assert_int_equal(p.n, 2);
    assert_int_equal(p.m[0].id, id[4]);
    assert_int_equal(p.m[1].id, id[2]);
    arena_read_page_free(&p);
    /* A filter no index serves: read over the window from the newest match. */
    arena_page_query other = { .before = INT64_MAX, .limit = 10, .score = -1, .game = "other" };
    assert_int_equal(arena_read_page(db, &other, &p), 0);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.partial, 0);                     /* the window reached match 1 */
    arena_read_page_free(&p);
    arena_page_query bad = { .before = INT64_MAX, .limit = 0 };
    assert_int_equal(arena_read_page(db, &bad, &p), -1);
    assert_int_equal(arena_read_newest(db), id[5]);
    arena_read_end(db);
    arena_db_close(db);
}

static void test_plot_and_lists(void **state)
{
    (void)state;
    arena_db *db = open_new("read_plot");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b"), id[7];
    for (int i = 0; i < 7; i++)
        id[i] = play(db, a, b, i == 3 ? 0.5 : 1, 2000 + 10 * i);
    arena_plot p;
    assert_int_equal(arena_read_plot(db, a, 3, &p), 0);  /* every 3rd and the last */
    assert_int_equal(p.total, 7);
    assert_int_equal(p.step, 3);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.p[0].match_id, id[0]);
    assert_int_equal(p.p[1].match_id, id[3]);
    assert_int_equal(p.p[2].match_id, id[6]);
    assert_int_equal(p.p[2].finished_ms, 2060);
    assert_true(p.p[2].elo == elo_of(db, a));
    free(p.p);
    assert_int_equal(arena_read_plot(db, a, 500, &p), 0);
    assert_int_equal(p.n, 7);
    assert_int_equal(p.step, 1);
    free(p.p);
    assert_int_equal(arena_read_plot(db, a, 0, &p), -1);

    arena_opponent_row *o;
    assert_int_equal(arena_read_opponents(db, b, &o), 1);
    assert_string_equal(o[0].label, "a");
    assert_int_equal(o[0].wins, 0);
    assert_int_equal(o[0].draws, 1);
    assert_int_equal(o[0].losses, 6);
    free(o);
    arena_forfeit_row *f;
    assert_int_equal(arena_read_forfeits(db, b, &f), 0);
    free(f);
    arena_db_close(db);
    raw_exec(db_path("read_plot"), "UPDATE matches SET culprit = 1, reason = 'timeout',"
                                   " detail = 'late' WHERE id IN (2, 5)");
    assert_int_equal(arena_db_open(&db, db_path("read_plot"), 0, err, sizeof err), 0);
    assert_int_equal(arena_read_forfeits(db, b, &f), 2);  /* newest first */
    assert_int_equal(f[0].match_id, 5);
    assert_string_equal(f[0].reason, "timeout");
    assert_string_equal(f[0].detail, "late");
    assert_int_equal(f[1].finished_ms, 2010);
    free(f);
    arena_log_row *l;
    assert_int_equal(arena_read_logs(db, a, &l), 0);
    free(l);
    char text[] = "hello\n";
    arena_log logs[1] = { { .seat = 0, .bytes = 999, .text = text, .len = 6 } };
    arena_match m = match2(a, b, 1, 16);
    m.logs = logs;
    m.nlogs = 1;
    store_ok(db, &m);
    assert_int_equal(arena_read_logs(db, a, &l), 1);
    assert_int_equal(l[0].match_id, m.id);
    assert_int_equal(l[0].seat, 0);
    assert_int_equal(l[0].bytes, 999);
    free(l);
    assert_int_equal(arena_read_logs(db, b, &l), 0);     /* b's seat kept no log */
    free(l);
    arena_db_close(db);
}

static void test_kinds(void **state)
{
    (void)state;
    arena_db *db = open_new("read_kinds");
    int64_t bot[4] = { add_bot(db, "p"), add_bot(db, "q"), add_bot(db, "r"), add_bot(db, "s") };
    arena_kind_row *k;
    assert_int_equal(arena_read_kinds(db, &k), 0);
    free(k);
    int64_t first = play(db, bot[0], bot[1], 1, 1);
    arena_match m4 = match4(bot, 1, 16);
    store_ok(db, &m4);
    arena_match other = match2(bot[2], bot[3], 0, 16);
    snprintf(other.game, sizeof other.game, "alpha");
    store_ok(db, &other);
    int64_t last = play(db, bot[0], bot[1], 0, 2);
    assert_int_equal(arena_read_kinds(db, &k), 3);        /* by game, then seats */
    assert_string_equal(k[0].game, "alpha");
    assert_int_equal(k[0].newest, other.id);
    assert_string_equal(k[1].game, "duel");
    assert_int_equal(k[1].players, 2);
    assert_int_equal(k[1].newest, last);
    assert_int_equal(k[2].players, 4);
    assert_int_equal(k[2].newest, m4.id);
    free(k);
    assert_true(first < last);
    int64_t *ids;
    assert_int_equal(arena_read_recorded(db, &ids), 0);  /* no match has a record */
    free(ids);
    arena_db_close(db);
}

static void test_live_lists(void **state)
{
    (void)state;
    arena_db *db = open_new("read_live");
    int64_t a = add_bot(db, "a"), b = add_bot(db, "b");
    arena_pace pace;
    assert_int_equal(arena_read_pace(db, &pace), 0);
    assert_int_equal(pace.latest_ms, 0);
    play(db, a, b, 1, 100000);
    play(db, a, b, 1, 500000);
    play(db, a, b, 1, 990000);
    play(db, a, b, 1, 1000000);
    assert_int_equal(arena_read_pace(db, &pace), 0);
    assert_int_equal(pace.latest_ms, 1000000);
    assert_int_equal(pace.minute, 2);
    assert_int_equal(pace.ten_minutes, 3);
    arena_ladder lad = { .seed = 7 };
    snprintf(lad.name, sizeof lad.name, "night");
    snprintf(lad.game, sizeof lad.game, "duel");
    assert_int_equal(arena_db_ladder_open(db, &lad, err, sizeof err), 0);
    for (int i = 0; i < 2; i++) {
        arena_match m = match2(a, b, 0, 16);
        m.ladder_id = lad.id;
        m.game_index = 4 * i;
        m.finished_ms = 2000000 + i;
        store_ok(db, &m);
    }
    arena_ladder_live_row *ll;
    assert_int_equal(arena_read_ladders_live(db, &ll), 1);
    assert_string_equal(ll[0].name, "night");
    assert_int_equal(ll[0].matches, 2);
    assert_int_equal(ll[0].latest_ms, 2000001);
    assert_int_equal(ll[0].scheduled, 5);
    free(ll);
    arena_ladder_row *lr;
    assert_int_equal(arena_read_ladders(db, &lr), 1);
    assert_string_equal(lr[0].game, "duel");
    free(lr);

    arena_run_row run = { .owner = 9, .ladder_id = lad.id, .pid = 42, .workers = 3,
                          .started_ms = 10, .seen_ms = 20 };
    snprintf(run.host, sizeof run.host, "box");
    assert_int_equal(arena_db_run_seen(db, &run), 0);
    arena_work_row *w;
    assert_int_equal(arena_read_arenas(db, &w), 1);
    assert_string_equal(w[0].ladder, "night");
    assert_string_equal(w[0].run.host, "box");
    assert_string_equal(w[0].run.listening, "");
    assert_int_equal(w[0].run.tournament_id, 0);
    assert_int_equal(w[0].run.workers, 3);
    free(w);

    arena_gate_verdict v = { .ladder_id = lad.id, .bot_id = a, .opponent_id = b,
                             .outcome = "passed", .elo1 = 10, .llr = 3.5, .wins = 4,
                             .pairs = 2, .decided_ms = 77 };
    assert_int_equal(arena_db_gate_verdict_store(db, &v, err, sizeof err), 1);
    arena_gate_row *g;
    assert_int_equal(arena_read_gates(db, 0, b, &g), 1);   /* b as the one to beat */
    assert_string_equal(g[0].ladder, "night");
    assert_string_equal(g[0].bot, "a");
    assert_string_equal(g[0].opponent, "b");
    assert_string_equal(g[0].outcome, "passed");
    assert_true(g[0].llr == 3.5 && g[0].elo1 == 10);
    assert_int_equal(g[0].decided_ms, 77);
    free(g);
    assert_int_equal(arena_read_gates(db, lad.id + 1, 0, &g), 0);
    free(g);
    arena_db_close(db);

    /* A tournament under way: its stored matches and its live claims. */
    raw_exec(db_path("read_live"),
             "INSERT INTO tournaments(id, game, format, games, options, seed, bots, move_ms,"
             " bank_ms, handshake_ms, strikes, elo_k, memory_mb, planned, created_at)"
             " VALUES (3, 'duel', 'round-robin', 2, '', 1, '1 2', 1, 1, 1, 1, 16, 0, 8, 55);"
             "INSERT INTO tournaments(id, game, format, games, options, seed, bots, move_ms,"
             " bank_ms, handshake_ms, strikes, elo_k, memory_mb, planned, created_at,"
             " finished_at) VALUES (4, 'duel', 'gauntlet', 2, '', 1, '1 2', 1, 1, 1, 1, 16,"
             " 0, 2, 56, 60);"
             "UPDATE matches SET tournament_id = 3, game_index = id WHERE id <= 2;"
             "INSERT INTO match_claims VALUES (3, 5, 70, 1000), (3, 6, 71, 1000),"
             " (3, 7, 71, 1000), (3, 8, 72, 10)");
    assert_int_equal(arena_db_open(&db, db_path("read_live"), 0, err, sizeof err), 0);
    arena_running_row *t;
    assert_int_equal(arena_read_running(db, 500, &t), 1);  /* the unfinished one */
    assert_int_equal(t[0].id, 3);
    assert_int_equal(t[0].planned, 8);
    assert_int_equal(t[0].stored, 2);
    assert_int_equal(t[0].created_ms, 55);
    assert_int_equal(t[0].taken, 3);                      /* the claim of 72 lapsed */
    assert_int_equal(t[0].arenas, 2);
    free(t);
    arena_tournament_row *tr;
    assert_int_equal(arena_read_tournaments(db, &tr), 2);  /* newest first */
    assert_int_equal(tr[0].id, 4);
    assert_string_equal(tr[0].format, "gauntlet");
    assert_int_equal(tr[0].finished, 1);
    assert_int_equal(tr[0].finished_ms, 60);
    assert_int_equal(tr[1].finished, 0);
    free(tr);
    arena_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_and_refs),
        cmocka_unit_test(test_pages),
        cmocka_unit_test(test_plot_and_lists),
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_live_lists),
    };
    return cmocka_run_group_tests(tests, db_test_make_dir, db_test_remove_dir);
}

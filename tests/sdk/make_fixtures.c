/*
 * make_fixtures.c - the shared SDK fixtures (tests/sdk/fixtures/NAME.msgpack):
 * messages as the referee sends them, built by its own message code
 * (ref_msg.c, wc_pack.c) from hand-made positions.
 *
 *   make_fixtures --write DIR    writes them
 *   make_fixtures DIR            the test: DIR holds exactly these bytes
 *
 * The C, Python and JavaScript SDK tests all decode these files field by
 * field. The positions are chosen so that fields a decoder could swap hold
 * different values (no zeros that hide a swap), and the test checks that
 * they still do; the C side also checks each observation decodes back to
 * the engine's (wc_unpack.c). Change a message and the test fails until
 * the fixtures are written again, so every SDK meets the change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ref_msg.h"
#include "wc.h"
#include "wc_game.h"
#include "wc_pack.h"
#include "wct.h"

static const game_api *g = &game_warchest;
static const ref_clock clock_a = { 1700, 9300 };

typedef struct fixture {
    char name[48];
    msgpack_sbuffer sb;
} fixture;

static fixture fixtures[16];
static int nfixtures;

static msgpack_sbuffer *fixture_new(const char *name)
{
    assert_true(nfixtures < (int)(sizeof fixtures / sizeof fixtures[0]));
    fixture *f = &fixtures[nfixtures++];
    snprintf(f->name, sizeof f->name, "%s", name);
    msgpack_sbuffer_init(&f->sb);
    return &f->sb;
}

/* Fields a decoder could confuse must differ: a player's bag, hand and
 * face-down counts; each of those across the players; the game's small
 * numbers. */
static void expect_distinct(const char *name, const char *what, const int *v, int n,
                            int stride)
{
    for (int i = 0; i < n; i++)
        for (int j = i + stride; j < n; j += stride)
            if (v[i] == v[j])
                fail_msg("%s: %s %d and %d are both %d; a swap would not show", name, what, i, j,
                         v[i]);
}

static void expect_telling(const char *name, const wc_state *s, int seat)
{
    wc_observation o;
    wc_observe(s, seat, &o);
    for (int p = 0; p < o.nseats; p++) {
        int mine[3] = { o.bag_count[p], o.hand_count[p], o.discard_down_count[p] };
        expect_distinct(name, "a player's bag, hand, face down", mine, 3, 1);
    }
    expect_distinct(name, "bags", (int[]){ o.bag_count[0], o.bag_count[1], o.bag_count[2],
                                           o.bag_count[3] }, o.nseats, 1);
    expect_distinct(name, "hands", (int[]){ o.hand_count[0], o.hand_count[1], o.hand_count[2],
                                            o.hand_count[3] }, o.nseats, 1);
    expect_distinct(name, "face down", (int[]){ o.discard_down_count[0], o.discard_down_count[1],
                                                o.discard_down_count[2],
                                                o.discard_down_count[3] }, o.nseats, 1);
    int numbers[] = { o.round, o.round_limit, o.markers, o.initiative };
    expect_distinct(name, "round, round limit, markers, initiative", numbers, 4, 1);
}

/* A request for the seat to move, with its legal actions. */
static void request(const char *name, const wc_state *s, uint32_t id)
{
    static game_action legal[GAME_MAX_ACTIONS];
    int seat = g->to_move(s), n = g->legal(s, legal);
    assert_true(seat >= 0 && n > 0);
    expect_telling(name, s, seat);
    ref_msg_request(fixture_new(name), g, s, seat, id, legal, n, clock_a);
}

/* Seat 1 to move in round 7 of 40, the initiative claimed by seat 0 this
 * round, the revised Royal Guard; every zone of both seats different. */
static void position_turn(wc_state *s)
{
    wct_position(s, "archer knight footman scout", "cavalry lancer royal_guard swordsman");
    s->opt.royal_guard = WC_GUARD_REVISED;
    s->opt.round_limit = 40;
    s->round = 7;
    s->claimed = 1;
    wct_turn(s, 1);
    wct_put(s, "d4", "knight", 2);
    wct_put(s, "f4", "archer", 1);
    wct_put(s, "e5", "footman", 1);
    wct_put(s, "g6", "cavalry", 1);
    wct_put(s, "g3", "royal_guard", 2);
    wct_control(s, "d4", 0);
    wct_control(s, "d7", 1);
    wct_give(s, 0, WC_HAND, "knight scout");
    wct_give(s, 0, WC_BAG, "knight footman footman scout");
    wct_give(s, 0, WC_DISCARD_DOWN, "archer footman scout scout scout royal");
    wct_give(s, 0, WC_DISCARD_UP, "archer");
    wct_give(s, 0, WC_REMOVED, "archer");
    wct_give(s, 1, WC_HAND, "cavalry lancer royal");
    wct_give(s, 1, WC_BAG, "lancer lancer royal_guard royal_guard swordsman");
    wct_give(s, 1, WC_DISCARD_DOWN, "cavalry");
    wct_give(s, 1, WC_DISCARD_UP, "lancer swordsman swordsman");
    wct_give(s, 1, WC_REMOVED, "royal_guard");
    assert_null(wc_check(s));
}

/* Seat 0's Warrior Priest has attacked and drawn a Footman coin, the only
 * kind in its bag. */
static void position_priest(wc_state *s)
{
    wct_position(s, "warrior_priest footman archer", "cavalry pikeman knight");
    s->opt.round_limit = 30;
    s->round = 4;
    s->initiative = 1;
    wct_put(s, "f4", "warrior_priest", 2);
    wct_put(s, "g4", "cavalry", 2);
    wct_give(s, 0, WC_HAND, "warrior_priest archer");
    wct_give(s, 0, WC_BAG, "footman footman footman footman footman");
    wct_give(s, 0, WC_DISCARD_DOWN, "royal archer archer archer warrior_priest");
    wct_give(s, 1, WC_HAND, "royal");
    wct_give(s, 1, WC_BAG, "pikeman pikeman pikeman");
    wct_give(s, 1, WC_DISCARD_DOWN, "pikeman knight knight knight knight cavalry");
    wct_play(s, "attack warrior_priest f4 x g4");
    assert_int_equal(wc_decision(s), WC_DECIDE_PRIEST);
}

/* Seat 0 plays its Footman tactic: both Footmen still to maneuver. */
static void position_footmen(wc_state *s)
{
    wct_position(s, "footman knight scout", "archer lancer cavalry pikeman");
    s->opt.round_limit = 20;
    s->round = 3;
    wct_put(s, "e5", "footman", 2);
    wct_put(s, "g4", "footman", 1);
    wct_put(s, "f5", "archer", 1);
    wct_give(s, 0, WC_HAND, "footman knight knight");
    wct_give(s, 0, WC_BAG, "knight scout");                 /* and the Royal Coin */
    wct_give(s, 0, WC_DISCARD_DOWN, "knight");
    wct_give(s, 1, WC_HAND, "archer archer lancer royal");
    wct_give(s, 1, WC_BAG, "archer lancer lancer lancer cavalry");
    wct_give(s, 1, WC_DISCARD_DOWN, "cavalry cavalry cavalry pikeman pikeman pikeman");
    wct_play(s, "tactic footman");
    assert_int_equal(wc_decision(s), WC_DECIDE_FOOTMAN);
}

/* Four players in play: seat 2 (side A) to move. */
static void position_four(wc_state *s)
{
    wct_position4(s, "archer knight", "cavalry lancer", "footman scout", "pikeman swordsman");
    s->opt.round_limit = 50;
    s->round = 9;
    s->initiative = 3;
    wct_turn(s, 2);
    wct_put(s, "d4", "archer", 2);
    wct_put(s, "e5", "footman", 3);
    wct_put(s, "g4", "pikeman", 1);
    static const char *const zones[4][3] = {
        { "knight", "knight", "knight knight archer" },          /* bags: + the Royal Coin */
        { "lancer lancer", "cavalry cavalry", "cavalry cavalry lancer lancer" },
        { "scout scout scout", "scout scout footman", "footman" },
        { "royal swordsman swordsman swordsman", "pikeman", "pikeman swordsman" },
    };
    for (int p = 0; p < 4; p++) {
        wct_give(s, p, WC_HAND, zones[p][0]);
        wct_give(s, p, WC_BAG, zones[p][1]);
        wct_give(s, p, WC_DISCARD_DOWN, zones[p][2]);
    }
    assert_null(wc_check(s));
}

static void make_all(void)
{
    nfixtures = 0;
    wc_state s;
    char text[256], err[256];
    game_options *options = game_options_new(g);
    assert_non_null(options);
    assert_int_equal(game_options_parse(options, "players=4 setup=draft royal_guard=revised "
                                        "round_limit=40", err, sizeof err), 0);
    game_options_format(options, text, sizeof text);
    ref_msg_welcome(fixture_new("welcome-4p"), g, text, 3, 4, 1, clock_a);

    position_turn(&s);
    request("request-turn", &s, 131);
    game_action recruit;
    assert_int_equal(g->parse("recruit lancer swordsman", &recruit), 0);
    ref_msg_update(fixture_new("update-own"), g, 131, 1, "turn", recruit, 1);
    ref_msg_update(fixture_new("update-public"), g, 131, 1, "turn", recruit, 0);

    position_priest(&s);
    request("request-priest", &s, 57);
    position_footmen(&s);
    request("request-footman", &s, 38);
    position_four(&s);
    request("request-4p", &s, 212);

    /* The draft of a 4-player game, three picks in. */
    assert_null(g->init(&s, options, 11));
    static game_action legal[GAME_MAX_ACTIONS];
    for (int k = 0; k < 3; k++) {
        int n = g->legal(&s, legal);
        g->apply(&s, legal[(k * 5) % n]);
    }
    ref_msg_request(fixture_new("request-draft"), g, &s, g->to_move(&s), 4, legal,
                    g->legal(&s, legal), clock_a);
    game_options_free(options);

    double forfeit[2] = { 1, 0 }, draw[4] = { 0.5, 0.5, 0.5, 0.5 };
    ref_msg_end(fixture_new("end-forfeit"), forfeit, 2, "timeout", 1,
                "seat 1: no action within 11002 ms");
    ref_msg_end(fixture_new("end-4p-draw"), draw, 4, "round_limit", -1, "round limit reached");
    ref_msg_error(fixture_new("error"), "illegal_action",
                  "seat 1: 'deploy nobody z9' is not a legal action here");
}

static void make_all_test(void **state)
{
    make_all();
}

/* ---- writing and checking ------------------------------------------------ */

static char *dir;

static int write_all(void)
{
    for (int i = 0; i < nfixtures; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.msgpack", dir, fixtures[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(fixtures[i].sb.data, 1, fixtures[i].sb.size, f) != fixtures[i].sb.size ||
            fclose(f) != 0) {
            fprintf(stderr, "make_fixtures: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    printf("make_fixtures: %d fixtures written to %s\n", nfixtures, dir);
    return 0;
}

static void test_fixtures_are_current(void **state)
{
    make_all();
    for (int i = 0; i < nfixtures; i++) {
        char path[4096];
        static char buf[1 << 16];
        snprintf(path, sizeof path, "%s/%s.msgpack", dir, fixtures[i].name);
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        if (!f || n != fixtures[i].sb.size || memcmp(buf, fixtures[i].sb.data, n))
            fail_msg("%s differs from what the referee sends now; if the change is meant, "
                     "write them again (make_fixtures --write tests/sdk/fixtures) and make "
                     "every SDK's tests pass", path);
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--write")) {
        dir = argv[2];
        const struct CMUnitTest make[] = { cmocka_unit_test(make_all_test) };
        if (cmocka_run_group_tests(make, NULL, NULL))
            return 1;
        return write_all();
    }
    if (argc != 2) {
        fprintf(stderr, "usage: make_fixtures [--write] DIR\n");
        return 2;
    }
    dir = argv[1];
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_fixtures_are_current) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

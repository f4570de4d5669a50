/*
 * test_gs.c - the game harness's checks first, then Goofspiel's rules from
 * hand-made positions, its options as declared, its notation, and its
 * hidden information: the bytes a seat is
 * sent do not change when what it may not see changes (the prize deck's
 * order, the bids of the round in progress, and with reveal=winner every
 * other seat's bids and hand), and do change when what it sees changes.
 * Its JSON for the web (gs_json.c) from a hand-made position: the whole
 * truth in full view, a seat's observation in its view.
 */
#include <assert.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <msgpack.h>
#include "game.h"
#include "game_harness.h"
#include "gs.h"
#include "gs_game.h"
#include "jw.h"

static const game_api *g = &game_goofspiel;

/* First, what every game must pass (games/tests/game_harness.h). */
static void test_the_game_harness(void **state) { game_harness_check(g, 100); }

/* A state dealt with `players` seats and `cards` cards, prizes in order. */
static gs_state dealt(int players, int cards, int tie, int reveal)
{
    gs_options o;
    gs_options_default(&o);
    o.players = (uint8_t)players;
    o.cards = (uint8_t)cards;
    o.prizes = GS_PRIZES_ASCENDING;
    o.tie = (uint8_t)tie;
    o.reveal = (uint8_t)reveal;
    gs_state s;
    assert_null(gs_init(&s, &o, 1));
    return s;
}

/* The state's JSON for `seat` (-1: full), NUL-terminated in a static buffer. */
static const char *json_of(const gs_state *s, int seat)
{
    static char out[4096];
    jw w;
    jw_init(&w);
    g->write_json(&w, s, seat);
    assert_false(jw_failed(&w));
    assert_true(w.len < sizeof out);
    memcpy(out, w.buf, w.len);
    out[w.len] = '\0';
    jw_free(&w);
    return out;
}

static void test_json_full_and_seat_views(void **state)
{
    gs_state s = dealt(2, 4, GS_TIE_DISCARD, GS_REVEAL_WINNER);
    gs_apply(&s, 3);                           /* round 1 (prize 1): 3 beats 1 */
    gs_apply(&s, 1);
    gs_apply(&s, 4);                           /* round 2 (prize 2): seat 0 has bid 4 */
    assert_string_equal(json_of(&s, -1),
        "{\"players\":2,\"round\":2,\"rounds\":4,\"to_move\":1,\"prize\":2,"
        "\"prizes_left\":[3,4],\"reveal\":\"winner\",\"seats\":["
        "{\"points\":1,\"hand\":[1,2],\"hand_count\":2,\"bid\":4,\"has_bid\":true},"
        "{\"points\":0,\"hand\":[2,3,4],\"hand_count\":3,\"bid\":null,\"has_bid\":false}],"
        "\"history\":[{\"prize\":1,\"winner\":0,\"bids\":[3,1]}]}");
    /* Seat 1 sees neither seat 0's hand nor its bid (only that it bid),
     * nor seat 0's past bids under reveal=winner. */
    assert_string_equal(json_of(&s, 1),
        "{\"players\":2,\"round\":2,\"rounds\":4,\"to_move\":1,\"prize\":2,"
        "\"prizes_left\":[3,4],\"reveal\":\"winner\",\"seats\":["
        "{\"points\":1,\"hand\":null,\"hand_count\":2,\"bid\":null,\"has_bid\":true},"
        "{\"points\":0,\"hand\":[2,3,4],\"hand_count\":3,\"bid\":null,\"has_bid\":false}],"
        "\"history\":[{\"prize\":1,\"winner\":0,\"bids\":[null,1]}]}");
    /* A seat's view holds the prizes to come as a set: the deck's order is
     * nobody's to see. */
    gs_state d = dealt(2, 4, GS_TIE_DISCARD, GS_REVEAL_BIDS);
    d.prize[1] = 4, d.prize[3] = 2;            /* deck 1 4 3 2 */
    assert_non_null(strstr(json_of(&d, -1), "\"prizes_left\":[4,3,2]"));
    assert_non_null(strstr(json_of(&d, 0), "\"prizes_left\":[2,3,4]"));
    /* Over: no prize, nobody to move. */
    for (int card = 1; card <= 4; card++)
        gs_apply(&d, card), gs_apply(&d, card);
    assert_non_null(strstr(json_of(&d, 0), "\"round\":4,\"rounds\":4,\"to_move\":null,\"prize\":null,"
                                            "\"prizes_left\":[]"));
}

static void test_highest_bid_takes_the_prize(void **state)
{
    gs_state s = dealt(3, 5, GS_TIE_DISCARD, GS_REVEAL_BIDS);
    assert_int_equal(s.prize[0], 1);
    assert_int_equal(s.to_move, 0);
    gs_apply(&s, 2);
    gs_apply(&s, 5);
    assert_int_equal(s.round, 0);              /* not settled until the last bid */
    gs_apply(&s, 4);
    assert_int_equal(s.round, 1);
    assert_int_equal(s.winner[0], 1);
    assert_int_equal(s.points[1], 1 * GS_UNIT);
    assert_int_equal(s.points[0] + s.points[2], 0);
    assert_int_equal(s.to_move, 0);
    /* Bid cards are spent. */
    uint8_t legal[GS_MAX_CARDS];
    assert_int_equal(gs_legal(&s, legal), 4);
    for (int i = 0; i < 4; i++)
        assert_int_not_equal(legal[i], 2);
}

static void test_a_tie_discards_or_splits(void **state)
{
    gs_state s = dealt(3, 4, GS_TIE_DISCARD, GS_REVEAL_BIDS);
    gs_apply(&s, 3);
    gs_apply(&s, 3);
    gs_apply(&s, 1);
    assert_int_equal(s.winner[0], GS_NONE);
    assert_int_equal(s.points[0] + s.points[1] + s.points[2], 0);

    gs_state t = dealt(3, 4, GS_TIE_SPLIT, GS_REVEAL_BIDS);
    gs_apply(&t, 1);              /* round 1, prize 1: a three-way tie */
    gs_apply(&t, 1);
    gs_apply(&t, 1);
    assert_int_equal(t.points[0], GS_UNIT / 3);
    gs_apply(&t, 4);              /* round 2, prize 2: seats 0 and 2 tie on top */
    gs_apply(&t, 2);
    gs_apply(&t, 4);
    assert_int_equal(t.points[0], GS_UNIT / 3 + GS_UNIT);
    assert_int_equal(t.points[1], GS_UNIT / 3);
    assert_int_equal(t.points[2], GS_UNIT / 3 + GS_UNIT);
}

static void test_the_most_points_win_and_share(void **state)
{
    gs_state s = dealt(2, 3, GS_TIE_DISCARD, GS_REVEAL_BIDS);
    int bids[3][2] = { { 3, 1 }, { 1, 2 }, { 2, 3 } };   /* prizes 1, 2, 3 */
    for (int r = 0; r < 3; r++)
        for (int p = 0; p < 2; p++)
            gs_apply(&s, bids[r][p]);
    assert_true(gs_is_over(&s));
    assert_int_equal(s.points[0], 1 * GS_UNIT);
    assert_int_equal(s.points[1], 5 * GS_UNIT);
    double score[GAME_MAX_SEATS];
    char reason[32], detail[64];
    assert_int_equal(g->result(&s, score, reason, sizeof reason, detail, sizeof detail), 1);
    assert_string_equal(reason, "points");
    assert_string_equal(detail, "points 1-5");
    assert_true(score[0] == 0 && score[1] == 1);
    assert_int_equal(g->to_move(&s), -1);

    gs_state d = dealt(2, 1, GS_TIE_DISCARD, GS_REVEAL_BIDS);
    gs_apply(&d, 1);
    gs_apply(&d, 1);
    gs_scores(&d, score);
    assert_true(score[0] == 0.5 && score[1] == 0.5);
}

static void test_the_prize_deck_is_shuffled_by_the_seed(void **state)
{
    gs_options o;
    gs_options_default(&o);
    gs_state a, b, c;
    assert_null(gs_init(&a, &o, 1));
    assert_null(gs_init(&b, &o, 1));
    assert_null(gs_init(&c, &o, 2));
    assert_memory_equal(a.prize, b.prize, sizeof a.prize);
    assert_memory_not_equal(a.prize, c.prize, sizeof a.prize);
    int seen = 0;
    for (int i = 0; i < o.cards; i++)
        seen |= 1 << a.prize[i];
    assert_int_equal(seen, ((1 << 14) - 1) & ~1);          /* 1..13, each once */
    o.prizes = GS_PRIZES_DESCENDING;
    assert_null(gs_init(&a, &o, 5));
    assert_int_equal(a.prize[0], 13);
    assert_int_equal(a.prize[12], 1);
}

static void test_notation(void **state)
{
    char text[16];
    int card;
    gs_format(7, text, sizeof text);
    assert_string_equal(text, "bid 7");
    gs_format(0, text, sizeof text);
    assert_string_equal(text, "bid ?");
    assert_int_equal(gs_parse("bid 13", &card), 0);
    assert_int_equal(card, 13);
    const char *bad[] = { "bid", "bid ", "bid 0", "bid 07", "bid 27", "bid 1x", "bid -1",
                          "bid ?", "bid 100", "bet 3", " bid 3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(gs_parse(bad[i], &card), -1);
}

static void test_options_come_from_the_declaration(void **state)
{
    char err[256], text[GAME_OPTIONS_TEXT_MAX + 1];
    game_options *o = game_options_new(g);
    assert_non_null(o);
    game_options_format(o, text, sizeof text);
    assert_string_equal(text, "players=2 cards=13 prizes=random tie=discard reveal=bids");
    assert_int_equal(game_options_parse(o, "players=3 cards=5 tie=split", err, sizeof err), 0);
    game_options_format(o, text, sizeof text);
    assert_string_equal(text, "players=3 cards=5 prizes=random tie=split reveal=bids");
    assert_int_equal(game_options_set(o, "players", "5", err, sizeof err), -1);
    assert_non_null(strstr(err, "players must be a whole number from 2 to 4"));
    assert_int_equal(game_options_set(o, "cards", "27", err, sizeof err), -1);
    assert_int_equal(game_options_set(o, "tie", "coin", err, sizeof err), -1);
    assert_non_null(strstr(err, "discard or split"));
    assert_int_equal(game_options_set(o, "colour", "red", err, sizeof err), -1);
    assert_non_null(strstr(err, "no option 'colour'"));
    int seats, teams;
    assert_int_equal(game_shape(o, &seats, &teams, err, sizeof err), 0);
    assert_int_equal(seats, 3);
    assert_int_equal(teams, 3);
    assert_true(game_options_text_max(g) <= GAME_OPTIONS_TEXT_MAX);
    game_options_free(o);
}

static void pack(const gs_state *s, int seat, msgpack_sbuffer *sb)
{
    msgpack_packer pk;
    sb->size = 0;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    g->pack_observation(&pk, s, seat);
}

static int same(const msgpack_sbuffer *a, const msgpack_sbuffer *b)
{
    return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

static void hidden_games(int players, int reveal, int games)
{
    gs_options o;
    gs_options_default(&o);
    o.players = (uint8_t)players;
    o.reveal = (uint8_t)reveal;
    msgpack_sbuffer mine, theirs;
    msgpack_sbuffer_init(&mine);
    msgpack_sbuffer_init(&theirs);
    pcg32 rng;
    pcg32_seed(&rng, (uint64_t)players * 10 + (uint64_t)reveal, 3);
    long compared = 0, differed = 0;
    for (int game = 0; game < games; game++) {
        gs_state s;
        assert_null(gs_init(&s, &o, (uint64_t)game + 1));
        while (!gs_is_over(&s)) {
            for (int seat = 0; seat < players; seat++) {
                gs_state other = s;
                gs_scramble_hidden(&other, seat, &rng);
                pack(&s, seat, &mine);
                pack(&other, seat, &theirs);
                assert_true(same(&mine, &theirs));
                compared++;
                /* What the seat sees does show: its own bid in the round. */
                if (s.bid[s.round][seat]) {
                    other = s;
                    other.bid[s.round][seat] = 0;
                    pack(&other, seat, &theirs);
                    differed += !same(&mine, &theirs);
                    assert_false(same(&mine, &theirs));
                }
            }
            uint8_t legal[GS_MAX_CARDS];
            int n = gs_legal(&s, legal);
            gs_apply(&s, legal[pcg32_below(&rng, (uint32_t)n)]);
        }
    }
    assert_true(compared > games * 13 && differed > 0);
    msgpack_sbuffer_destroy(&mine);
    msgpack_sbuffer_destroy(&theirs);
}

static void test_hidden_bids_and_deck_2p(void **state) { hidden_games(2, GS_REVEAL_BIDS, 200); }
static void test_hidden_bids_and_deck_3p(void **state) { hidden_games(3, GS_REVEAL_BIDS, 200); }
static void test_hidden_reveal_winner_4p(void **state) { hidden_games(4, GS_REVEAL_WINNER, 200); }

/* With reveal=winner a past bid of another seat is hidden for good; with
 * reveal=bids it shows. The check can fail both ways. */
static void test_reveal_rules(void **state)
{
    msgpack_sbuffer a, b;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    for (int reveal = GS_REVEAL_BIDS; reveal <= GS_REVEAL_WINNER; reveal++) {
        gs_state s = dealt(2, 4, GS_TIE_DISCARD, reveal), t;
        gs_apply(&s, 4);
        t = s;
        gs_apply(&s, 2);                   /* seat 1 bids 2 or 3: it loses either way */
        gs_apply(&t, 3);
        pack(&s, 0, &a);
        pack(&t, 0, &b);
        if (reveal == GS_REVEAL_BIDS)
            assert_false(same(&a, &b));
        else
            assert_true(same(&a, &b));
    }
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
}

/* game_api.revealed, what the web's seat views show of the others' past
 * bids: a bid is known to the other seats once its round is settled, and
 * not before; with reveal=winner never; its own bidder always knows it. */
static void test_revealed_after_the_round(void **state)
{
    for (int reveal = GS_REVEAL_BIDS; reveal <= GS_REVEAL_WINNER; reveal++) {
        gs_state s = dealt(3, 4, GS_TIE_DISCARD, reveal);
        gs_apply(&s, 4);                                       /* seat 0, round 0 */
        gs_apply(&s, 2);                                       /* seat 1 */
        assert_false(g->revealed(&s, 1, 0, 4));                /* seat 2 still to bid */
        assert_false(g->revealed(&s, 2, 1, 2));
        assert_true(g->revealed(&s, 0, 0, 4));                 /* its own, at once */
        gs_apply(&s, 1);                                       /* seat 2: settled */
        gs_apply(&s, 3);                                       /* seat 0, round 1 */
        int shown = reveal == GS_REVEAL_BIDS;
        assert_int_equal(g->revealed(&s, 1, 0, 4), shown);
        assert_int_equal(g->revealed(&s, 2, 1, 2), shown);
        assert_int_equal(g->revealed(&s, 0, 2, 1), shown);
        assert_false(g->revealed(&s, 1, 0, 3));                /* round 1's, in progress */
        assert_false(g->revealed(&s, 1, 0, 2));                /* a card seat 0 never bid */
        assert_true(g->revealed(&s, 1, 1, 2));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_game_harness),
        cmocka_unit_test(test_highest_bid_takes_the_prize),
        cmocka_unit_test(test_a_tie_discards_or_splits),
        cmocka_unit_test(test_the_most_points_win_and_share),
        cmocka_unit_test(test_the_prize_deck_is_shuffled_by_the_seed),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_options_come_from_the_declaration),
        cmocka_unit_test(test_hidden_bids_and_deck_2p),
        cmocka_unit_test(test_hidden_bids_and_deck_3p),
        cmocka_unit_test(test_hidden_reveal_winner_4p),
        cmocka_unit_test(test_reveal_rules),
        cmocka_unit_test(test_revealed_after_the_round),
        cmocka_unit_test(test_json_full_and_seat_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

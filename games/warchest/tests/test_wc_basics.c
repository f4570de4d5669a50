/*
 * test_wc_basics.c - the rulebook's general rules, one hand-made position
 * each: deploy, bolster, move, control and winning, attack, the initiative,
 * recruit and pass, the Royal Coin, turn order, the draw and the bag refill,
 * the round limit, and what the other seat may learn (public actions and
 * observations). Unit cards are in test_wc_units_*.c.
 *
 * Side A (seat 0) starts on e2 and h1, side B (seat 1) on d7 and g6.
 */
#include <string.h>
#include "wct.h"

/* Seat 0's and seat 1's hands, by coin name. */
static void hands(wc_state *s, const char *h0, const char *h1)
{
    wct_give(s, 0, WC_HAND, h0);
    wct_give(s, 1, WC_HAND, h1);
}

static int zone_total(const wc_state *s, int seat, int zone)
{
    int n = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        n += s->coins[seat][zone][c];
    return n;
}

static int has_marker(const wc_state *s, int side, const char *hex)
{
    return (s->control[side] >> wct_hex(hex)) & 1;
}

/* ---- deploy ------------------------------------------------------------- */

/* "Place it face-up into an empty location that you control": not a neutral
 * location, not the opponent's, not one of yours that is occupied. */
static void test_deploy_only_to_empty_controlled_location(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    hands(&s, "archer", "royal");
    wct_put(&s, "e2", "knight", 1);            /* own location, occupied */
    wct_expect(&s, "deploy", "deploy archer h1");
    wct_control(&s, "d4", 0);                  /* a captured neutral counts */
    wct_expect(&s, "deploy", "deploy archer h1; deploy archer d4");

    wct_play(&s, "deploy archer d4");
    assert_int_equal(wct_unit_at(&s, "d4"), WC_ARCHER);
    assert_int_equal(wct_coins_at(&s, "d4"), 1);
    /* A placement action: the coin is on the board, in no discard pile. */
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 0);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "archer"), 0);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "archer"), 3);
    assert_int_equal(wc_to_move(&s), 1);
}

/* "You cannot deploy a unit if all locations you control are occupied",
 * by either side's units. */
static void test_no_deploy_when_controlled_locations_occupied(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    hands(&s, "archer", "royal");
    wct_put(&s, "e2", "knight", 1);
    wct_put(&s, "h1", "cavalry", 1);           /* an enemy on my location */
    wct_expect(&s, "deploy", "");
    wct_expect(&s, "", "recruit archer archer; recruit archer knight; pass archer");
}

/* "You may only have one unit of each type on the board at a time." */
static void test_one_unit_of_a_type_on_the_board(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "cavalry");
    hands(&s, "archer", "royal");
    wct_put(&s, "f4", "archer", 1);
    wct_expect(&s, "deploy", "");
    wct_expect(&s, "bolster", "bolster archer f4");
}

/* A destroyed unit may be deployed again; the marker under it stays. */
static void test_destroyed_unit_redeploys_and_its_marker_stays(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "knight");
    hands(&s, "archer", "knight");
    wct_put(&s, "d4", "archer", 1);
    wct_control(&s, "d4", 0);
    wct_put(&s, "e4", "knight", 1);
    wct_turn(&s, 1);

    wct_play(&s, "attack knight e4 x d4");
    assert_int_equal(wct_unit_at(&s, "d4"), WC_NONE);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "archer"), 1);
    assert_true(has_marker(&s, 0, "d4"));
    assert_int_equal(wc_to_move(&s), 0);
    wct_expect(&s, "deploy", "deploy archer e2; deploy archer h1; deploy archer d4");
    wct_play(&s, "deploy archer d4");
    assert_int_equal(wct_unit_at(&s, "d4"), WC_ARCHER);
}

/* ---- bolster ------------------------------------------------------------ */

/* "There is no limit to the height of a unit stack." */
static void test_bolster_has_no_height_limit(void **state)
{
    wc_state s;
    wct_position(&s, "crossbowman", "cavalry");
    wct_put(&s, "f4", "crossbowman", 4);
    hands(&s, "crossbowman", "royal");
    wct_expect(&s, "bolster", "bolster crossbowman f4");
    wct_play(&s, "bolster crossbowman f4");
    assert_int_equal(wct_coins_at(&s, "f4"), 5);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "crossbowman"), 0);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "crossbowman"), 0);
    assert_int_equal(wc_to_move(&s), 1);
}

/* ---- move --------------------------------------------------------------- */

/* One hex, into an adjacent empty hex, the whole stack; never off the
 * 2-player board (e2 has four neighbours there). */
static void test_move_to_adjacent_empty_hex_only(void **state)
{
    wc_state s;
    wct_position(&s, "knight archer", "cavalry");
    wct_put(&s, "e2", "knight", 3);
    hands(&s, "knight", "royal");
    wct_expect(&s, "move", "move knight e2-f2; move knight e2-e3; move knight e2-f1; "
                           "move knight e2-d3");
    wct_put(&s, "f2", "archer", 1);            /* a friend blocks */
    wct_put(&s, "e3", "cavalry", 1);           /* so does an enemy */
    wct_expect(&s, "move", "move knight e2-f1; move knight e2-d3");

    wct_play(&s, "move knight e2-d3");
    assert_int_equal(wct_unit_at(&s, "e2"), WC_NONE);
    assert_int_equal(wct_unit_at(&s, "d3"), WC_KNIGHT);
    assert_int_equal(wct_coins_at(&s, "d3"), 3);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 1);
    assert_true(has_marker(&s, 0, "e2"));      /* moving off keeps control */
}

/* "If all of the spaces adjacent to a unit are occupied, it cannot move." */
static void test_surrounded_unit_cannot_move(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight footman", "cavalry lancer");
    wct_put(&s, "e2", "archer", 1);
    wct_put(&s, "f2", "knight", 1);
    wct_put(&s, "e3", "footman", 1);
    wct_put(&s, "f1", "cavalry", 1);
    wct_put(&s, "d3", "lancer", 1);
    hands(&s, "archer", "royal");
    wct_expect(&s, "move", "");
}

/* ---- control and winning ------------------------------------------------ */

/* A neutral location takes a marker; a non-location never does. */
static void test_control_neutral_location(void **state)
{
    wc_state s;
    wct_position(&s, "knight archer", "cavalry");
    wct_put(&s, "d4", "knight", 1);
    wct_put(&s, "f4", "archer", 1);            /* f4 is not a location */
    hands(&s, "knight archer", "royal");
    wct_expect(&s, "control", "control knight d4");
    wct_play(&s, "control knight d4");
    assert_true(has_marker(&s, 0, "d4"));
    assert_false(has_marker(&s, 1, "d4"));
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 1);
    assert_int_equal(wct_coins_at(&s, "d4"), 1);
    assert_false(wc_is_over(&s));
}

/* "You may not control a location you already control." */
static void test_cannot_control_own_location(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "cavalry");
    wct_put(&s, "e2", "knight", 1);
    hands(&s, "knight", "royal");
    wct_expect(&s, "control", "");
    wct_control(&s, "e2", WC_NONE);            /* neutral again: now it may */
    wct_expect(&s, "control", "control knight e2");
}

/* The opponent's marker goes back to them; starting locations can be
 * captured like any other (FAQ). */
static void test_control_captures_opponent_start_location(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "cavalry");
    wct_put(&s, "d7", "knight", 1);
    hands(&s, "knight", "royal");
    assert_int_equal(wc_popcount(s.control[1]), 2);
    wct_expect(&s, "control", "control knight d7");
    wct_play(&s, "control knight d7");
    assert_true(has_marker(&s, 0, "d7"));
    assert_false(has_marker(&s, 1, "d7"));
    assert_int_equal(wc_popcount(s.control[0]), 3);
    assert_int_equal(wc_popcount(s.control[1]), 1);
}

/* Placing the last of six markers wins at once, mid-round. */
static void test_last_marker_wins(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "cavalry");
    wct_control(&s, "d4", 0);
    wct_control(&s, "e5", 0);
    wct_control(&s, "c6", 0);                  /* five placed */
    wct_put(&s, "g3", "knight", 1);
    hands(&s, "knight knight", "royal");
    wct_play(&s, "control knight g3");
    assert_true(wc_is_over(&s));
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.end_reason, WC_END_MARKERS);
    assert_int_equal(wc_to_move(&s), -1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_NONE);
    wc_action none[WC_MAX_ACTIONS];
    assert_int_equal(wc_legal_actions(&s, none), 0);
}

/* Five markers are not yet a win. */
static void test_fifth_marker_does_not_win(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "cavalry");
    wct_control(&s, "d4", 0);
    wct_control(&s, "e5", 0);
    wct_put(&s, "g3", "knight", 1);
    hands(&s, "knight", "royal");
    wct_play(&s, "control knight g3");
    assert_false(wc_is_over(&s));
    assert_int_equal(wc_popcount(s.control[0]), 5);
    assert_int_equal(wc_to_move(&s), 1);
}

/* ---- attack ------------------------------------------------------------- */

/* An adjacent enemy only; the coin goes to the box, not supply or discard;
 * the attacker's coin is discarded face up. */
static void test_attack_removes_one_coin_to_the_box(void **state)
{
    wc_state s;
    wct_position(&s, "knight archer", "cavalry lancer");
    wct_put(&s, "f4", "knight", 1);
    wct_put(&s, "g4", "archer", 1);            /* friend: no attack */
    wct_put(&s, "f5", "cavalry", 3);
    wct_put(&s, "f6", "lancer", 1);            /* two away: no attack */
    hands(&s, "knight", "royal");
    wct_expect(&s, "attack", "attack knight f4 x f5");
    wct_play(&s, "attack knight f4 x f5");
    assert_int_equal(wct_coins_at(&s, "f5"), 2);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "cavalry"), 1);
    assert_int_equal(zone_total(&s, 1, WC_DISCARD_UP), 0);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 1);
    assert_int_equal(wct_coins_at(&s, "f4"), 1);
}

/* ---- claim initiative --------------------------------------------------- */

/* Not while holding it; once taken, not back this round; the new holder
 * starts the next round, when it may change hands again. */
static void test_initiative_changes_hands_once_per_round(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "knight");
    hands(&s, "archer archer", "knight");
    wct_expect(&s, "claim", "");                /* seat 0 holds it */
    wct_play(&s, "pass archer");
    wct_expect(&s, "claim", "claim knight");
    wct_play(&s, "claim knight");
    assert_int_equal(s.initiative, 1);
    assert_int_equal(wct_zone(&s, 1, WC_DISCARD_DOWN, "knight"), 1);
    assert_int_equal(wc_to_move(&s), 0);
    wct_expect(&s, "claim", "");                /* the original holder */
    wct_play(&s, "pass archer");

    assert_int_equal(s.round, 2);
    assert_int_equal(s.initiative, 1);
    assert_int_equal(wc_to_move(&s), 1);        /* the new holder starts */
    wct_expect(&s, "claim", "");
    wct_play(&s, "pass royal");
    wct_expect(&s, "claim", "claim royal; claim archer");
}

/* ---- recruit, pass, the Royal Coin ------------------------------------- */

/* Any coin pays face down, the Royal Coin too; the recruited coin comes
 * from the supply face up into the discard pile; an empty supply offers
 * nothing. */
static void test_recruit_with_any_coin_from_supply(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    wct_put(&s, "f4", "knight", 4);            /* no Knight left in supply */
    hands(&s, "archer royal", "royal");
    wct_expect(&s, "recruit", "recruit archer archer; recruit royal archer");
    wct_play(&s, "recruit royal archer");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "royal"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "archer"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* The recruited coin need not match the coin spent. */
static void test_recruit_other_unit_than_the_coin(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    hands(&s, "archer", "royal");
    wct_play(&s, "recruit archer knight");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "knight"), 3);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "archer"), 3);
}

/* Pass is legal even when nothing else is: the unit cannot deploy, the
 * supply is empty, the initiative is already held. */
static void test_pass_is_always_legal(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "cavalry lancer");
    hands(&s, "archer", "royal");
    assert_int_equal(wc_move_coins(&s, 0, WC_ARCHER, WC_SUPPLY, WC_REMOVED, 3), 0);
    wct_put(&s, "e2", "cavalry", 1);
    wct_put(&s, "h1", "lancer", 1);
    wct_expect(&s, "", "pass archer");
    wct_play(&s, "pass archer");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "archer"), 0);
}

/* "The Royal Coin ... can only be used to perform facedown actions": no
 * deploy, bolster or maneuver for it, though a unit is on the board and a
 * controlled location is empty. */
static void test_royal_coin_only_face_down(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    wct_put(&s, "d4", "knight", 1);            /* on a neutral location */
    wct_put(&s, "e4", "cavalry", 1);           /* beside an enemy */
    hands(&s, "royal", "cavalry");
    wct_expect(&s, "", "recruit royal archer; recruit royal knight; pass royal");
    wct_turn(&s, 1);                           /* without the initiative */
    wct_expect(&s, "claim", "claim cavalry");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "claim", "claim cavalry; claim royal");
}

/* ---- turn order, rounds, the bag ---------------------------------------- */

/* Players alternate one coin at a time; a player whose hand is empty drops
 * out and the other continues alone; then a new round begins with the
 * holder of the initiative. */
static void test_turns_alternate_then_the_other_continues_alone(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "knight");
    hands(&s, "archer", "knight knight knight");
    wct_give(&s, 0, WC_BAG, "archer archer");
    wct_give(&s, 1, WC_BAG, "knight");
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(&s), 0);
    wct_play(&s, "pass archer");
    assert_int_equal(wc_to_move(&s), 1);
    wct_play(&s, "pass knight");
    assert_int_equal(wc_to_move(&s), 1);       /* seat 0's hand is empty */
    wct_play(&s, "pass knight");
    assert_int_equal(wc_to_move(&s), 1);
    assert_int_equal(s.round, 1);
    wct_play(&s, "pass knight");
    assert_int_equal(s.round, 2);
    assert_int_equal(wc_to_move(&s), 0);
    /* Three from the bag each: seat 0's bag held exactly three. */
    assert_int_equal(zone_total(&s, 0, WC_HAND), 3);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "royal"), 1);
    assert_int_equal(zone_total(&s, 0, WC_BAG), 0);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "archer"), 1);
    assert_int_equal(zone_total(&s, 1, WC_HAND), 3);
}

/* A round's draw stops at three while the bag lasts. */
static void test_round_draws_three_each(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry lancer");
    hands(&s, "archer", "");
    wct_give(&s, 0, WC_BAG, "archer archer knight knight");
    wct_give(&s, 1, WC_BAG, "cavalry cavalry lancer lancer");
    wct_play(&s, "pass archer");
    assert_int_equal(s.round, 2);
    for (int seat = 0; seat < 2; seat++) {
        assert_int_equal(zone_total(&s, seat, WC_HAND), 3);
        assert_int_equal(zone_total(&s, seat, WC_BAG), 2);
    }
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "archer"), 1);
}

/* An empty bag mid-draw is refilled with the whole discard pile, face up
 * and face down alike, and the draw goes on. */
static void test_bag_refills_from_whole_discard_pile(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry");
    hands(&s, "archer", "");
    wct_give(&s, 0, WC_DISCARD_UP, "knight knight");
    wct_give(&s, 0, WC_DISCARD_DOWN, "knight archer");
    /* Seat 0's bag: the Royal Coin only; discards: 2 up, 2 down + 1 now. */
    wct_play(&s, "pass archer");
    assert_int_equal(s.round, 2);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "royal"), 1);
    assert_int_equal(zone_total(&s, 0, WC_HAND), 3);
    assert_int_equal(zone_total(&s, 0, WC_BAG), 3);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_UP), 0);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_DOWN), 0);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "knight") + wct_zone(&s, 0, WC_BAG, "knight"), 3);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer") + wct_zone(&s, 0, WC_BAG, "archer"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "knight"), 1);  /* never the supply */
}

/* "Not enough coins": with fewer than three between bag and discard, a
 * player draws what there is and the other plays on alone. */
static void test_not_enough_coins_draws_fewer(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "knight");
    hands(&s, "archer", "");
    wct_give(&s, 1, WC_BAG, "knight knight knight");
    wct_play(&s, "pass archer");
    assert_int_equal(s.round, 2);
    assert_int_equal(zone_total(&s, 0, WC_HAND), 2);   /* royal + archer */
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 1);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_DOWN), 0);
    assert_int_equal(zone_total(&s, 1, WC_HAND), 3);
    wct_play(&s, "pass archer");
    wct_play(&s, "pass knight");
    wct_play(&s, "pass royal");
    assert_int_equal(wc_to_move(&s), 1);       /* seat 0 is out of coins */
    wct_play(&s, "pass knight");
    assert_int_equal(wc_to_move(&s), 1);
    assert_int_equal(s.round, 2);
}

/* The tournament's round limit: the game ends a draw when the last
 * allowed round ends, and not before. */
static void test_round_limit_ends_in_a_draw(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "knight");
    s.opt.round_limit = 2;
    hands(&s, "archer", "");
    wct_play(&s, "pass archer");
    assert_false(wc_is_over(&s));
    assert_int_equal(s.round, 2);
    assert_int_equal(wc_to_move(&s), 0);
    /* Round 2: seat 0 drew its Royal Coin and archer, seat 1 its Royal. */
    wct_play(&s, "pass royal");
    assert_int_equal(wc_to_move(&s), 1);
    wct_play(&s, "pass royal");
    assert_int_equal(wc_to_move(&s), 0);
    wct_play(&s, "pass archer");
    assert_true(wc_is_over(&s));
    assert_int_equal(s.winner, WC_NONE);
    assert_int_equal(s.end_reason, WC_END_ROUND_LIMIT);
    assert_int_equal(wc_to_move(&s), -1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_NONE);
}

/* ---- hidden information ------------------------------------------------- */

/* A face-down play shows others only that it was played (and a recruit's
 * face-up coin); a face-up play shows its coin. */
static void test_public_action_hides_face_down_coin(void **state)
{
    static const char *const cases[][2] = {
        { "claim royal", "claim ?" },
        { "recruit archer knight", "recruit ? knight" },
        { "pass footman", "pass ?" },
        { "move archer f4-f5", "move archer f4-f5" },
        { "deploy archer d4", "deploy archer d4" },
        { "tactic royal d4-d5", "tactic royal d4-d5" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wc_action a, p;
        char text[64];
        assert_int_equal(wc_action_parse(cases[i][0], &a), 0);
        p = wc_action_public(&a);
        wc_action_format(&p, text, sizeof text);
        assert_string_equal(text, cases[i][1]);
    }
}

/* A seat sees its own hand, bag and face-down discards, and only the
 * sizes of another seat's; everything else on the table is public. */
static void test_observation_hides_opponent_coins(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry lancer");
    hands(&s, "archer knight", "cavalry lancer");
    wct_give(&s, 1, WC_BAG, "cavalry");
    wct_give(&s, 1, WC_DISCARD_DOWN, "lancer");
    wct_give(&s, 1, WC_DISCARD_UP, "lancer");
    wct_put(&s, "f4", "cavalry", 1);
    wc_observation o;
    wc_observe(&s, 0, &o);
    assert_int_equal(o.seat, 0);
    assert_int_equal(o.hand[WC_ARCHER], 1);
    assert_int_equal(o.hand[WC_KNIGHT], 1);
    assert_int_equal(o.bag[WC_ROYAL], 1);
    assert_int_equal(o.hand[WC_CAVALRY], 0);  /* seat 1's: not shown */
    assert_int_equal(o.hand_count[1], 2);
    assert_int_equal(o.bag_count[1], 2);       /* cavalry + royal */
    assert_int_equal(o.discard_down_count[1], 1);
    assert_int_equal(o.discard_up[1][WC_LANCER], 1);
    assert_int_equal(o.supply[1][WC_CAVALRY], 1);
    assert_int_equal(o.hex_unit[wct_hex("f4")], WC_CAVALRY);

    /* Other contents of the same sizes: seat 0 cannot tell. */
    wc_state t = s;
    memset(t.coins[1][WC_HAND], 0, WC_NCOINS);
    memset(t.coins[1][WC_BAG], 0, WC_NCOINS);
    memset(t.coins[1][WC_DISCARD_DOWN], 0, WC_NCOINS);
    t.coins[1][WC_HAND][WC_ROYAL] = 1;
    t.coins[1][WC_HAND][WC_LANCER] = 1;
    t.coins[1][WC_BAG][WC_CAVALRY] = 1;
    t.coins[1][WC_BAG][WC_LANCER] = 1;
    t.coins[1][WC_DISCARD_DOWN][WC_CAVALRY] = 1;
    wc_observation o2;
    wc_observe(&t, 0, &o2);
    assert_memory_equal(&o, &o2, sizeof o);
    /* Seat 1 itself does see the difference. */
    wc_observe(&s, 1, &o);
    wc_observe(&t, 1, &o2);
    assert_int_equal(o.hand[WC_CAVALRY], 1);
    assert_int_equal(o2.hand[WC_CAVALRY], 0);
}

/* The Warrior Priest's drawn coin waits in a pending step: its owner sees
 * which coin it is, every other seat only that there is one. */
static void test_priests_drawn_coin_is_its_owners_to_see(void **state)
{
    wc_state s;
    wct_position(&s, "warrior_priest footman", "cavalry");
    wct_put(&s, "f4", "warrior_priest", 1);
    wct_put(&s, "g4", "cavalry", 2);
    wct_give(&s, 0, WC_DISCARD_DOWN, "royal");
    wct_give(&s, 0, WC_BAG, "footman");
    wct_give(&s, 0, WC_HAND, "warrior_priest");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack warrior_priest f4 x g4");
    assert_int_equal(wc_decision(&s), WC_DECIDE_PRIEST);
    wc_observation mine, theirs;
    wc_observe(&s, 0, &mine);
    wc_observe(&s, 1, &theirs);
    assert_int_equal(mine.pending.kind, WC_FRAME_PRIEST);
    assert_int_equal(mine.pending.arg, WC_FOOTMAN);
    assert_int_equal(mine.hand[WC_FOOTMAN], 1);
    assert_int_equal(theirs.pending.kind, WC_FRAME_PRIEST);
    assert_int_equal(theirs.pending.unit, WC_WARRIOR_PRIEST);
    assert_int_equal(theirs.pending.hex, wct_hex("f4"));
    assert_int_equal(theirs.pending.arg, WC_HIDDEN);
    assert_int_equal(theirs.hand_count[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deploy_only_to_empty_controlled_location),
        cmocka_unit_test(test_no_deploy_when_controlled_locations_occupied),
        cmocka_unit_test(test_one_unit_of_a_type_on_the_board),
        cmocka_unit_test(test_destroyed_unit_redeploys_and_its_marker_stays),
        cmocka_unit_test(test_bolster_has_no_height_limit),
        cmocka_unit_test(test_move_to_adjacent_empty_hex_only),
        cmocka_unit_test(test_surrounded_unit_cannot_move),
        cmocka_unit_test(test_control_neutral_location),
        cmocka_unit_test(test_cannot_control_own_location),
        cmocka_unit_test(test_control_captures_opponent_start_location),
        cmocka_unit_test(test_last_marker_wins),
        cmocka_unit_test(test_fifth_marker_does_not_win),
        cmocka_unit_test(test_attack_removes_one_coin_to_the_box),
        cmocka_unit_test(test_initiative_changes_hands_once_per_round),
        cmocka_unit_test(test_recruit_with_any_coin_from_supply),
        cmocka_unit_test(test_recruit_other_unit_than_the_coin),
        cmocka_unit_test(test_pass_is_always_legal),
        cmocka_unit_test(test_royal_coin_only_face_down),
        cmocka_unit_test(test_turns_alternate_then_the_other_continues_alone),
        cmocka_unit_test(test_round_draws_three_each),
        cmocka_unit_test(test_bag_refills_from_whole_discard_pile),
        cmocka_unit_test(test_not_enough_coins_draws_fewer),
        cmocka_unit_test(test_round_limit_ends_in_a_draw),
        cmocka_unit_test(test_public_action_hides_face_down_coin),
        cmocka_unit_test(test_observation_hides_opponent_coins),
        cmocka_unit_test(test_priests_drawn_coin_is_its_owners_to_see),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

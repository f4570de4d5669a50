/*
 * test_wc_teams.c - the four-player game's team rules (rulebook, "Four-
 * player set up" to "Drafting in the four-player game"; units.md, "Four
 * players"), each from a hand-made position. Seats 0 and 2 are side A,
 * 1 and 3 side B; turns go 0, 1, 2, 3 clockwise.
 */
#include "wct.h"

/* Either teammate may deploy into an empty team location. */
static void test_teammate_deploys_into_a_team_location(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    wct_put(&s, "e2", "archer", 1);          /* seat 0 holds one team location */
    wct_give(&s, 2, WC_HAND, "footman");
    wct_turn(&s, 2);
    wct_expect(&s, "deploy", "deploy footman h1; deploy footman b5");
    wct_play(&s, "deploy footman b5");
    assert_int_equal(wct_unit_at(&s, "b5"), WC_FOOTMAN);
    /* Side B's locations are not seat 2's to deploy on. */
    assert_false(wct_is_legal(&s, "deploy footman d7"));
}

/* A teammate's unit is friendly: the Marshall may grant it an attack, and
 * the attribute that follows is decided by the unit's owner. */
static void test_marshall_grants_an_attack_to_a_teammates_swordsman(void **state)
{
    wc_state s;
    wct_position4(&s, "marshall", "archer", "swordsman", "lancer");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f5", "swordsman", 1);       /* seat 2, seat 0's teammate */
    wct_put(&s, "f6", "archer", 1);          /* seat 1, the enemy */
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_expect(&s, "tactic marshall", "tactic marshall f4 f5 x f6");
    wct_play(&s, "tactic marshall f4 f5 x f6");
    assert_int_equal(wct_unit_at(&s, "f6"), WC_NONE);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "archer"), 1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_SWORDSMAN);
    assert_int_equal(wc_to_move(&s), 2);
    wct_play(&s, "move swordsman f5-f6");
    assert_int_equal(wct_unit_at(&s, "f6"), WC_SWORDSMAN);
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
}

/* The Ensign moves a teammate's unit, never an enemy's; a teammate's
 * Berserker so moved then offers its owner another maneuver. */
static void test_ensign_moves_a_teammates_berserker(void **state)
{
    wc_state s;
    wct_position4(&s, "ensign", "cavalry", "berserker", "lancer");
    wct_put(&s, "f4", "ensign", 1);
    wct_put(&s, "f3", "berserker", 2);       /* seat 2 */
    wct_put(&s, "e5", "cavalry", 1);         /* seat 1: within 2, not friendly */
    wct_give(&s, 0, WC_HAND, "ensign");
    wct_give(&s, 1, WC_HAND, "cavalry");     /* the round goes on after */
    wct_expect(&s, "tactic ensign", "tactic ensign f4 f3-g3; tactic ensign f4 f3-e3; "
                                    "tactic ensign f4 f3-f2; tactic ensign f4 f3-g2; "
                                    "tactic ensign f4 f3-e4");
    wct_play(&s, "tactic ensign f4 f3-g3");
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    assert_int_equal(wc_to_move(&s), 2);
    wct_play(&s, "move berserker g3-h3");
    assert_int_equal(wct_coins_at(&s, "h3"), 1);
    assert_int_equal(wct_zone(&s, 2, WC_DISCARD_UP, "berserker"), 1);
}

/* Teammates never attack each other: a teammate is not a target. */
static void test_no_attack_on_a_teammate(void **state)
{
    wc_state s;
    wct_position4(&s, "swordsman", "cavalry", "footman", "lancer");
    wct_put(&s, "f4", "swordsman", 1);
    wct_put(&s, "f5", "footman", 1);         /* seat 2 */
    wct_put(&s, "f3", "cavalry", 1);         /* seat 1 */
    wct_give(&s, 0, WC_HAND, "swordsman");
    wct_expect(&s, "attack", "attack swordsman f4 x f3");
}

/* No claiming the initiative from a teammate; an opponent may. */
static void test_no_claiming_the_initiative_from_a_teammate(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    assert_int_equal(s.initiative, 0);
    wct_give(&s, 2, WC_HAND, "footman");
    wct_turn(&s, 2);
    wct_expect(&s, "claim", "");
    wct_give(&s, 1, WC_HAND, "cavalry");
    wct_turn(&s, 1);
    wct_expect(&s, "claim", "claim cavalry");
    wct_play(&s, "claim cavalry");
    assert_int_equal(s.initiative, 1);
    /* Once per round: seat 0 may not take it back. */
    wct_give(&s, 0, WC_HAND, "archer");
    wct_turn(&s, 0);
    wct_expect(&s, "claim", "");
}

/* No recruiting for a teammate: only from one's own supply. */
static void test_no_recruiting_for_a_teammate(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    wct_give(&s, 0, WC_HAND, "archer");
    wct_expect(&s, "recruit", "recruit archer archer");
}

/* A teammate's Royal Guard is friendly, but its tactic is its owner's:
 * another seat's Royal Coin cannot move it. */
static void test_royal_coin_never_moves_a_teammates_royal_guard(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "royal_guard", "lancer");
    wct_put(&s, "f4", "royal_guard", 1);
    wct_give(&s, 0, WC_HAND, "royal");
    wct_give(&s, 2, WC_HAND, "royal");
    wct_expect(&s, "tactic", "");
    wct_turn(&s, 2);
    assert_true(wct_is_legal(&s, "tactic royal f4-f3"));
}

/* A team wins when it places its eighth marker, whichever teammate does. */
static void test_team_wins_on_its_last_marker(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    assert_int_equal(s.markers, 8);
    assert_int_equal(wc_popcount(s.control[0]), 3);   /* e2, h1, b5 */
    assert_int_equal(wc_popcount(s.control[1]), 3);   /* d7, g6, j3 */
    wct_control(&s, "c6", 0);
    wct_control(&s, "d4", 0);
    wct_control(&s, "e5", 0);
    wct_control(&s, "g3", 0);
    wct_put(&s, "h4", "footman", 1);
    wct_give(&s, 2, WC_HAND, "footman");
    wct_turn(&s, 2);
    wct_play(&s, "control footman h4");
    assert_true(wc_is_over(&s));
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.end_reason, WC_END_MARKERS);
}

/* Play goes clockwise from the initiative, and a seat with no coins left
 * is passed over; the holder of the initiative opens the next round. */
static void test_turns_go_clockwise_skipping_empty_hands(void **state)
{
    wc_state s;
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    s.initiative = 1;
    wct_turn(&s, 1);
    wct_give(&s, 1, WC_HAND, "cavalry");
    wct_give(&s, 3, WC_HAND, "lancer");
    wct_give(&s, 0, WC_HAND, "archer");
    wct_play(&s, "pass cavalry");
    assert_int_equal(wc_to_move(&s), 3);       /* seat 2 holds nothing */
    wct_play(&s, "pass lancer");
    assert_int_equal(wc_to_move(&s), 0);
    wct_play(&s, "pass archer");
    assert_int_equal(s.round, 2);
    assert_int_equal(wc_to_move(&s), 1);
}

/* The wings are in play with four players only. */
static void test_the_wings_are_four_player_hexes(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "cavalry");
    wct_put(&s, "c6", "archer", 1);
    wct_give(&s, 0, WC_HAND, "archer");
    wct_expect(&s, "move", "move archer c6-c7; move archer c6-c5; move archer c6-d6; "
                           "move archer c6-d5");
    wct_position4(&s, "archer", "cavalry", "footman", "lancer");
    wct_put(&s, "c6", "archer", 1);
    wct_give(&s, 0, WC_HAND, "archer");
    wct_expect(&s, "move", "move archer c6-c7; move archer c6-c5; move archer c6-d6; "
                           "move archer c6-d5; move archer c6-b6; move archer c6-b7");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teammate_deploys_into_a_team_location),
        cmocka_unit_test(test_marshall_grants_an_attack_to_a_teammates_swordsman),
        cmocka_unit_test(test_ensign_moves_a_teammates_berserker),
        cmocka_unit_test(test_no_attack_on_a_teammate),
        cmocka_unit_test(test_no_claiming_the_initiative_from_a_teammate),
        cmocka_unit_test(test_no_recruiting_for_a_teammate),
        cmocka_unit_test(test_royal_coin_never_moves_a_teammates_royal_guard),
        cmocka_unit_test(test_team_wins_on_its_last_marker),
        cmocka_unit_test(test_turns_go_clockwise_skipping_empty_hands),
        cmocka_unit_test(test_the_wings_are_four_player_hexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

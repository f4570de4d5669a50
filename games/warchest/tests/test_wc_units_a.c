/*
 * test_wc_units_a.c - the unit cards Archer, Berserker, Cavalry,
 * Crossbowman, Ensign, Footman, Knight and Lancer: each tactic, attribute
 * and restriction (units.md) and each FAQ ruling about them, as exact sets
 * of legal actions and the exact state after playing one. Also the chains
 * these cards start: an Ensign moving a Berserker, a Footman tactic with
 * two units, a Lancer or Cavalry with nothing to hit.
 *
 * Most positions are around the centre f4, whose neighbours are g4 e4 f5
 * f3 g3 e5; straight lines from it run f4-g4-h4-i4, f4-e4-d4-c4,
 * f4-f5-f6-f7, f4-f3-f2-f1, f4-g3-h2-i1 and f4-e5-d6-c7.
 */
#include "wct.h"

static void hands(wc_state *s, const char *h0, const char *h1)
{
    wct_give(s, 0, WC_HAND, h0);
    wct_give(s, 1, WC_HAND, h1);
}

/* ---- Archer ------------------------------------------------------------- */

/* Tactic: attack an enemy exactly 2 hexes away, in any direction, whatever
 * stands between. Restriction: no normal (adjacent) attack (FAQ). */
static void test_archer_shoots_two_away_never_adjacent(void **state)
{
    wc_state s;
    wct_position(&s, "archer knight", "cavalry lancer footman crossbowman");
    wct_put(&s, "f4", "archer", 1);
    wct_put(&s, "e4", "knight", 1);            /* a friend in between */
    wct_put(&s, "d4", "lancer", 1);            /* 2 away, straight */
    wct_put(&s, "e3", "cavalry", 2);           /* 2 away, not straight */
    wct_put(&s, "g4", "footman", 1);           /* adjacent */
    wct_put(&s, "h5", "crossbowman", 1);       /* 3 away */
    hands(&s, "archer", "royal");
    wct_expect(&s, "tactic", "tactic archer f4 x d4; tactic archer f4 x e3");
    wct_expect(&s, "attack", "");

    wct_play(&s, "tactic archer f4 x e3");
    assert_int_equal(wct_coins_at(&s, "e3"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "archer"), 1);
    assert_int_equal(wct_coins_at(&s, "f4"), 1);      /* the archer stays */
    assert_int_equal(wc_to_move(&s), 1);
}

/* A ranged attack from 2 hexes is not an adjacent attack: the Pikeman's
 * counter does not reach the Archer. */
static void test_archer_shot_takes_no_pikeman_counter(void **state)
{
    wc_state s;
    wct_position(&s, "archer", "pikeman");
    wct_put(&s, "f4", "archer", 1);
    wct_put(&s, "f2", "pikeman", 2);
    hands(&s, "archer", "royal");
    wct_play(&s, "tactic archer f4 x f2");
    assert_int_equal(wct_coins_at(&s, "f2"), 1);
    assert_int_equal(wct_coins_at(&s, "f4"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "archer"), 0);
}

/* ---- Berserker ---------------------------------------------------------- */

/* After a maneuver it may maneuver again, each time paying one coin from
 * its stack to the face-up discard; one coin from the hand pays for all
 * (FAQ); the last coin is never taken, so a 1-coin stack stops. */
static void test_berserker_maneuvers_again_paying_from_its_stack(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "cavalry");
    wct_put(&s, "f4", "berserker", 3);
    wct_put(&s, "g5", "cavalry", 2);
    hands(&s, "berserker", "royal");

    wct_play(&s, "move berserker f4-f5");
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    assert_int_equal(wc_to_move(&s), 0);
    assert_int_equal(wct_coins_at(&s, "f5"), 3);      /* nothing paid yet */
    wct_expect(&s, "", "move berserker f5-e5; move berserker f5-f6; "
                       "move berserker f5-f4; move berserker f5-g4; "
                       "move berserker f5-e6; attack berserker f5 x g5; stop");

    wct_play(&s, "attack berserker f5 x g5");
    assert_int_equal(wct_coins_at(&s, "f5"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "berserker"), 0);
    assert_int_equal(wct_coins_at(&s, "g5"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);

    wct_play(&s, "move berserker f5-e5");
    assert_int_equal(wct_coins_at(&s, "e5"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 3);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "berserker"), 0);
    /* One coin left: it cannot pay again, so the turn is over. */
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(&s), 1);
}

/* A single-coin Berserker gets no extra maneuver at all. */
static void test_single_coin_berserker_gets_no_extra_maneuver(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "cavalry");
    wct_put(&s, "f4", "berserker", 1);
    hands(&s, "berserker", "royal");
    wct_play(&s, "move berserker f4-f5");
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(&s), 1);
    assert_int_equal(wct_coins_at(&s, "f5"), 1);
}

/* The extra maneuver is optional: stopping keeps the stack. Control counts
 * as a maneuver, and the location now being its own, it is not offered
 * again. */
static void test_berserker_may_stop_after_control(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "cavalry");
    wct_put(&s, "e5", "berserker", 2);
    hands(&s, "berserker", "royal");
    wct_play(&s, "control berserker e5");
    assert_true((s.control[0] >> wct_hex("e5")) & 1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    wct_expect(&s, "control", "");
    wct_expect(&s, "stop", "stop");
    wct_play(&s, "stop");
    assert_int_equal(wct_coins_at(&s, "e5"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* The Knight rule looks at the Berserker's height after it pays: a 2-coin
 * Berserker may attack a Knight, but its extra maneuver is made at 1 coin. */
static void test_berserker_extra_attack_on_knight_counts_paid_height(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "knight");
    wct_put(&s, "f5", "berserker", 2);
    wct_put(&s, "g5", "knight", 3);
    hands(&s, "berserker", "royal");
    wct_expect(&s, "attack", "attack berserker f5 x g5");
    wct_play(&s, "attack berserker f5 x g5");
    assert_int_equal(wct_coins_at(&s, "g5"), 2);
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    wct_expect(&s, "attack", "");
    wct_expect(&s, "", "move berserker f5-e5; move berserker f5-f6; "
                       "move berserker f5-f4; move berserker f5-g4; "
                       "move berserker f5-e6; stop");

    /* With 3 coins the extra attack is made at 2: allowed. */
    wct_position(&s, "berserker", "knight");
    wct_put(&s, "f5", "berserker", 3);
    wct_put(&s, "g5", "knight", 3);
    hands(&s, "berserker", "royal");
    wct_play(&s, "attack berserker f5 x g5");
    wct_expect(&s, "attack", "attack berserker f5 x g5");
    wct_play(&s, "attack berserker f5 x g5");
    assert_int_equal(wct_coins_at(&s, "g5"), 1);
    assert_int_equal(wct_coins_at(&s, "f5"), 2);
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
}

/* With no maneuver left at its paid height (boxed in on f1, the Knight
 * beside it out of reach at 1 coin), the optional follow-up is skipped:
 * no decision with only "stop" in it. */
static void test_berserker_with_no_extra_maneuver_is_skipped(void **state)
{
    wc_state s;
    wct_position(&s, "berserker archer ensign", "knight");
    wct_put(&s, "f1", "berserker", 2);
    wct_put(&s, "g1", "archer", 1);
    wct_put(&s, "f2", "ensign", 1);
    wct_put(&s, "e2", "knight", 2);
    hands(&s, "berserker", "royal");
    wct_play(&s, "attack berserker f1 x e2");
    assert_int_equal(wct_coins_at(&s, "e2"), 1);
    assert_int_equal(wct_coins_at(&s, "f1"), 2);
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(&s), 1);
}

/* ---- Cavalry ------------------------------------------------------------ */

/* Tactic: move one hex, then attack an enemy adjacent to the new hex. */
static void test_cavalry_moves_then_attacks(void **state)
{
    wc_state s;
    wct_position(&s, "cavalry", "lancer archer");
    wct_put(&s, "f4", "cavalry", 1);
    wct_put(&s, "f2", "lancer", 1);
    wct_put(&s, "e5", "archer", 1);
    hands(&s, "cavalry", "royal");
    wct_expect(&s, "tactic", "tactic cavalry f4-e4 x e5; tactic cavalry f4-f5 x e5; "
                             "tactic cavalry f4-f3 x f2");
    wct_expect(&s, "attack", "attack cavalry f4 x e5");

    wct_play(&s, "tactic cavalry f4-f3 x f2");
    assert_int_equal(wct_unit_at(&s, "f4"), WC_NONE);
    assert_int_equal(wct_unit_at(&s, "f3"), WC_CAVALRY);
    assert_int_equal(wct_unit_at(&s, "f2"), WC_NONE);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "lancer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "cavalry"), 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* Legal only if the attack can be made: no enemy within reach (a friend
 * does not count), no tactic; ordinary moves remain. */
static void test_cavalry_without_target_has_no_tactic(void **state)
{
    wc_state s;
    wct_position(&s, "cavalry knight", "lancer");
    wct_put(&s, "f4", "cavalry", 2);
    wct_put(&s, "f2", "knight", 1);
    wct_put(&s, "h5", "lancer", 1);            /* 3 away */
    hands(&s, "cavalry", "royal");
    wct_expect(&s, "tactic", "");
    wct_expect(&s, "move", "move cavalry f4-g4; move cavalry f4-e4; move cavalry f4-f5; "
                           "move cavalry f4-f3; move cavalry f4-g3; move cavalry f4-e5");
}

/* ---- Crossbowman -------------------------------------------------------- */

/* Tactic: an enemy 2 hexes away in a straight line with the hex between
 * empty: not a friend, not an enemy there, never off the line. */
static void test_crossbowman_needs_straight_line_and_empty_middle(void **state)
{
    wc_state s;
    wct_position(&s, "crossbowman knight", "cavalry lancer archer footman");
    wct_put(&s, "f4", "crossbowman", 1);
    wct_put(&s, "d4", "cavalry", 1);           /* via empty e4: yes */
    wct_put(&s, "f3", "knight", 1);
    wct_put(&s, "f2", "lancer", 1);            /* via a friend: no */
    wct_put(&s, "g4", "footman", 1);
    wct_put(&s, "h4", "archer", 1);            /* via an enemy: no */
    wct_put(&s, "e3", "footman", 1);           /* not straight: no */
    hands(&s, "crossbowman", "royal");
    wct_expect(&s, "tactic", "tactic crossbowman f4 x d4");
    wct_play(&s, "tactic crossbowman f4 x d4");
    assert_int_equal(wct_unit_at(&s, "d4"), WC_NONE);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_unit_at(&s, "f4"), WC_CROSSBOWMAN);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "crossbowman"), 1);
}

/* FAQ: unlike the Archer it may make a normal attack on an adjacent unit. */
static void test_crossbowman_may_attack_adjacent(void **state)
{
    wc_state s;
    wct_position(&s, "crossbowman", "footman");
    wct_put(&s, "f4", "crossbowman", 1);
    wct_put(&s, "g4", "footman", 2);
    hands(&s, "crossbowman", "royal");
    wct_expect(&s, "attack", "attack crossbowman f4 x g4");
    wct_expect(&s, "tactic", "");
    wct_play(&s, "attack crossbowman f4 x g4");
    assert_int_equal(wct_coins_at(&s, "g4"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "footman"), 1);
}

/* ---- Ensign ------------------------------------------------------------- */

/* Tactic: another friendly unit within 2 makes a normal one-hex move that
 * ends within 2 of the Ensign (FAQ: not any hex within 2). Not an enemy,
 * not a friend 3 away. */
static void test_ensign_moves_friend_one_hex_ending_within_two(void **state)
{
    wc_state s;
    wct_position(&s, "ensign knight archer berserker", "cavalry");
    wct_put(&s, "f4", "ensign", 1);
    wct_put(&s, "h4", "knight", 2);
    wct_put(&s, "d6", "archer", 1);
    wct_put(&s, "f7", "berserker", 1);         /* 3 away */
    wct_put(&s, "g5", "cavalry", 1);           /* an enemy 2 away */
    hands(&s, "ensign", "royal");
    /* h4's neighbours i4 h5 i3 are 3 from f4, g5 is taken; d6's c6 d7 c7
     * are 3 from f4. */
    wct_expect(&s, "tactic", "tactic ensign f4 h4-g4; tactic ensign f4 h4-h3; "
                             "tactic ensign f4 d6-e6; tactic ensign f4 d6-d5; "
                             "tactic ensign f4 d6-e5");
    wct_play(&s, "tactic ensign f4 h4-h3");
    assert_int_equal(wct_unit_at(&s, "h4"), WC_NONE);
    assert_int_equal(wct_unit_at(&s, "h3"), WC_KNIGHT);
    assert_int_equal(wct_coins_at(&s, "h3"), 2);
    assert_int_equal(wct_unit_at(&s, "f4"), WC_ENSIGN);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "ensign"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 0);
    assert_int_equal(wc_to_move(&s), 1);
}

/* FAQ: the Berserker's attribute triggers on a move granted by the Ensign;
 * its extra maneuvers are its own, not bound to the Ensign's range. */
static void test_ensign_move_triggers_berserker(void **state)
{
    wc_state s;
    wct_position(&s, "ensign berserker", "cavalry");
    wct_put(&s, "f4", "ensign", 1);
    wct_put(&s, "h4", "berserker", 3);
    wct_put(&s, "g5", "cavalry", 1);
    hands(&s, "ensign", "royal");
    wct_play(&s, "tactic ensign f4 h4-g4");
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    assert_int_equal(wc_to_move(&s), 0);
    wct_expect(&s, "", "move berserker g4-h4; move berserker g4-g3; "
                       "move berserker g4-h3; move berserker g4-f5; "
                       "attack berserker g4 x g5; stop");
    wct_play(&s, "attack berserker g4 x g5");
    assert_int_equal(wct_unit_at(&s, "g5"), WC_NONE);
    assert_int_equal(wct_coins_at(&s, "g4"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "ensign"), 1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    wct_play(&s, "stop");
    assert_int_equal(wc_to_move(&s), 1);
    assert_int_equal(wct_coins_at(&s, "g4"), 2);
}

/* ---- Footman ------------------------------------------------------------ */

/* Attribute: two Footman units may be on the board; a Footman coin deploys
 * the second, and a bolster names the stack it goes on. Never a third. */
static void test_footman_second_unit_and_named_bolster(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "cavalry");
    wct_put(&s, "d4", "footman", 1);
    hands(&s, "footman footman", "royal");
    wct_expect(&s, "deploy", "deploy footman e2; deploy footman h1");
    wct_expect(&s, "bolster", "bolster footman d4");
    wct_play(&s, "deploy footman e2");
    assert_int_equal(wct_unit_at(&s, "e2"), WC_FOOTMAN);
    assert_int_equal(wct_unit_at(&s, "d4"), WC_FOOTMAN);

    wct_turn(&s, 0);
    wct_expect(&s, "deploy", "");              /* h1 is free, but two is all */
    wct_expect(&s, "bolster", "bolster footman d4; bolster footman e2");
    wct_play(&s, "bolster footman d4");
    assert_int_equal(wct_coins_at(&s, "d4"), 2);
    assert_int_equal(wct_coins_at(&s, "e2"), 1);
}

/* A Footman coin maneuvers either Footman (one of them). */
static void test_footman_coin_maneuvers_either_unit(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "cavalry");
    wct_put(&s, "d4", "footman", 1);
    wct_put(&s, "e5", "footman", 1);
    hands(&s, "footman", "royal");
    wct_expect(&s, "control", "control footman d4; control footman e5");
    wct_expect(&s, "tactic", "tactic footman");
    wct_play(&s, "control footman e5");
    assert_true((s.control[0] >> wct_hex("e5")) & 1);
    assert_false((s.control[0] >> wct_hex("d4")) & 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* Tactic: each Footman makes one maneuver, which may differ, in either
 * order (FAQ), all for one coin; no stopping part-way. */
static void test_footman_tactic_maneuvers_each_once_in_any_order(void **state)
{
    for (int order = 0; order < 2; order++) {
        wc_state s;
        wct_position(&s, "footman", "cavalry");
        wct_put(&s, "d4", "footman", 1);
        wct_put(&s, "f4", "footman", 1);
        wct_put(&s, "g4", "cavalry", 2);
        hands(&s, "footman", "royal");
        wct_play(&s, "tactic footman");
        assert_int_equal(wc_decision(&s), WC_DECIDE_FOOTMAN);
        assert_int_equal(wc_to_move(&s), 0);
        wct_expect(&s, "control", "control footman d4");
        wct_expect(&s, "attack", "attack footman f4 x g4");
        wct_expect(&s, "stop", "");
        if (order == 0) {
            wct_play(&s, "attack footman f4 x g4");
            assert_int_equal(wc_decision(&s), WC_DECIDE_FOOTMAN);
            wct_expect(&s, "", "move footman d4-e4; move footman d4-c4; "
                               "move footman d4-d5; move footman d4-d3; "
                               "move footman d4-e3; move footman d4-c5; "
                               "control footman d4");
            wct_play(&s, "control footman d4");
        } else {
            wct_play(&s, "control footman d4");
            assert_int_equal(wc_decision(&s), WC_DECIDE_FOOTMAN);
            wct_expect(&s, "", "move footman f4-e4; move footman f4-f5; "
                               "move footman f4-f3; move footman f4-g3; "
                               "move footman f4-e5; attack footman f4 x g4");
            wct_play(&s, "attack footman f4 x g4");
        }
        assert_true((s.control[0] >> wct_hex("d4")) & 1);
        assert_int_equal(wct_coins_at(&s, "g4"), 1);
        assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
        assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "footman"), 1);
        assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
        assert_int_equal(wc_to_move(&s), 1);
    }
}

/* With one Footman deployed, that one maneuvers and the turn ends. */
static void test_footman_tactic_with_one_unit(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "cavalry");
    wct_put(&s, "e5", "footman", 2);
    hands(&s, "footman", "royal");
    wct_play(&s, "tactic footman");
    wct_expect(&s, "", "move footman e5-f5; move footman e5-d5; move footman e5-e6; "
                       "move footman e5-e4; move footman e5-f4; move footman e5-d6; "
                       "control footman e5");
    wct_play(&s, "move footman e5-f4");
    assert_int_equal(wct_coins_at(&s, "f4"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "footman"), 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* A Footman with no maneuver is skipped, and the tactic is legal only if
 * some Footman can maneuver. f1 has three neighbours on the 2-player
 * board, here all friends, and is not a location. */
static void test_footman_without_maneuver_is_skipped(void **state)
{
    wc_state s;
    wct_position(&s, "footman knight archer ensign", "cavalry");
    wct_put(&s, "f1", "footman", 1);
    wct_put(&s, "g1", "knight", 1);
    wct_put(&s, "f2", "archer", 1);
    wct_put(&s, "e2", "ensign", 1);
    hands(&s, "footman", "royal");
    wct_expect(&s, "tactic", "");
    wct_expect(&s, "move footman", "");

    wct_put(&s, "d4", "footman", 1);
    wct_expect(&s, "tactic", "tactic footman");
    wct_play(&s, "tactic footman");
    wct_expect(&s, "", "move footman d4-e4; move footman d4-c4; move footman d4-d5; "
                       "move footman d4-d3; move footman d4-e3; move footman d4-c5; "
                       "control footman d4");
    wct_play(&s, "move footman d4-d5");
    assert_int_equal(wc_decision(&s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(&s), 1);
    assert_int_equal(wct_unit_at(&s, "f1"), WC_FOOTMAN);
}

/* ---- Knight ------------------------------------------------------------- */

/* Only a bolstered stack (2+ coins) may attack a Knight, tactic attacks
 * included: Cavalry (both ways), Archer, Crossbowman and Lancer alike. */
static void test_knight_needs_bolstered_attacker(void **state)
{
    for (int height = 1; height <= 2; height++) {
        wc_state s;
        wct_position(&s, "crossbowman archer cavalry lancer", "knight");
        wct_put(&s, "f4", "knight", 1);
        wct_put(&s, "e5", "cavalry", height);      /* adjacent */
        wct_put(&s, "h4", "crossbowman", height);  /* in line via g4 */
        wct_put(&s, "d4", "archer", height);       /* 2 away */
        wct_put(&s, "f2", "lancer", height);       /* charges via f3 */
        hands(&s, "crossbowman archer cavalry lancer", "royal");
        if (height == 1) {
            wct_expect(&s, "attack", "");
            wct_expect(&s, "tactic", "");
            continue;
        }
        wct_expect(&s, "attack", "attack cavalry e5 x f4");
        wct_expect(&s, "tactic", "tactic archer d4 x f4; tactic crossbowman h4 x f4; "
                                 "tactic cavalry e5-f5 x f4; tactic cavalry e5-e4 x f4; "
                                 "tactic lancer f2-f3 x f4");
        wct_play(&s, "tactic crossbowman h4 x f4");
        assert_int_equal(wct_unit_at(&s, "f4"), WC_NONE);
        assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "knight"), 1);
    }
}

/* The Knight attacks as any unit; the Pikeman's counter is not an attack,
 * so it hits an attacking Knight, even its last coin (FAQ). */
static void test_pikeman_counter_hits_attacking_knight(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "pikeman");
    wct_put(&s, "f4", "knight", 2);
    wct_put(&s, "g4", "pikeman", 2);
    hands(&s, "knight", "royal");
    wct_play(&s, "attack knight f4 x g4");
    assert_int_equal(wct_coins_at(&s, "g4"), 1);
    assert_int_equal(wct_coins_at(&s, "f4"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "knight"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "pikeman"), 1);

    wct_turn(&s, 0);
    wct_give(&s, 0, WC_HAND, "knight");
    wct_expect(&s, "attack", "attack knight f4 x g4");
    wct_play(&s, "attack knight f4 x g4");
    assert_int_equal(wct_unit_at(&s, "g4"), WC_NONE);
    assert_int_equal(wct_unit_at(&s, "f4"), WC_NONE);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "knight"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "knight"), 2);
}

/* ---- Lancer ------------------------------------------------------------- */

/* Tactic: 1 or 2 hexes in a straight line through empty hexes, then attack
 * the enemy next in that line. No move without the attack (FAQ), no attack
 * on an adjacent unit (FAQ), no passing through a friend. */
static void test_lancer_charges_in_a_straight_line(void **state)
{
    wc_state s;
    wct_position(&s, "lancer knight", "cavalry archer footman crossbowman");
    wct_put(&s, "f4", "lancer", 1);
    wct_put(&s, "i4", "cavalry", 1);           /* f4-g4-h4, then i4 */
    wct_put(&s, "d4", "archer", 1);            /* f4-e4, then d4 */
    wct_put(&s, "f5", "knight", 1);
    wct_put(&s, "f7", "footman", 1);           /* only through the knight */
    wct_put(&s, "f3", "crossbowman", 1);       /* adjacent */
    wct_put(&s, "g5", "footman", 1);           /* in no line from f4 */
    hands(&s, "lancer", "royal");
    wct_expect(&s, "tactic", "tactic lancer f4-h4 x i4; tactic lancer f4-e4 x d4");
    wct_expect(&s, "attack", "");

    wct_play(&s, "tactic lancer f4-h4 x i4");
    assert_int_equal(wct_unit_at(&s, "f4"), WC_NONE);
    assert_int_equal(wct_unit_at(&s, "h4"), WC_LANCER);
    assert_int_equal(wct_unit_at(&s, "i4"), WC_NONE);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "lancer"), 1);
    assert_int_equal(wc_to_move(&s), 1);
}

/* No enemy at the end of any line: no tactic at all. */
static void test_lancer_without_target_has_no_tactic(void **state)
{
    wc_state s;
    wct_position(&s, "lancer", "cavalry");
    wct_put(&s, "f4", "lancer", 2);
    wct_put(&s, "g5", "cavalry", 1);
    hands(&s, "lancer", "royal");
    wct_expect(&s, "tactic", "");
    wct_expect(&s, "attack", "");
}

/* FAQ: an unbolstered Lancer may not charge a Knight; a bolstered one may,
 * one or two hexes. */
static void test_unbolstered_lancer_cannot_charge_knight(void **state)
{
    for (int height = 1; height <= 2; height++) {
        wc_state s;
        wct_position(&s, "lancer", "knight");
        wct_put(&s, "f4", "lancer", height);
        wct_put(&s, "h4", "knight", 2);
        hands(&s, "lancer", "royal");
        wct_expect(&s, "tactic", height == 1 ? "" : "tactic lancer f4-g4 x h4");
    }
    wc_state s;
    wct_position(&s, "lancer", "knight");
    wct_put(&s, "f4", "lancer", 2);
    wct_put(&s, "i4", "knight", 2);
    hands(&s, "lancer", "royal");
    wct_expect(&s, "tactic", "tactic lancer f4-h4 x i4");
    wct_play(&s, "tactic lancer f4-h4 x i4");
    assert_int_equal(wct_coins_at(&s, "i4"), 1);
    assert_int_equal(wct_coins_at(&s, "h4"), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archer_shoots_two_away_never_adjacent),
        cmocka_unit_test(test_archer_shot_takes_no_pikeman_counter),
        cmocka_unit_test(test_berserker_maneuvers_again_paying_from_its_stack),
        cmocka_unit_test(test_single_coin_berserker_gets_no_extra_maneuver),
        cmocka_unit_test(test_berserker_may_stop_after_control),
        cmocka_unit_test(test_berserker_extra_attack_on_knight_counts_paid_height),
        cmocka_unit_test(test_berserker_with_no_extra_maneuver_is_skipped),
        cmocka_unit_test(test_cavalry_moves_then_attacks),
        cmocka_unit_test(test_cavalry_without_target_has_no_tactic),
        cmocka_unit_test(test_crossbowman_needs_straight_line_and_empty_middle),
        cmocka_unit_test(test_crossbowman_may_attack_adjacent),
        cmocka_unit_test(test_ensign_moves_friend_one_hex_ending_within_two),
        cmocka_unit_test(test_ensign_move_triggers_berserker),
        cmocka_unit_test(test_footman_second_unit_and_named_bolster),
        cmocka_unit_test(test_footman_coin_maneuvers_either_unit),
        cmocka_unit_test(test_footman_tactic_maneuvers_each_once_in_any_order),
        cmocka_unit_test(test_footman_tactic_with_one_unit),
        cmocka_unit_test(test_footman_without_maneuver_is_skipped),
        cmocka_unit_test(test_knight_needs_bolstered_attacker),
        cmocka_unit_test(test_pikeman_counter_hits_attacking_knight),
        cmocka_unit_test(test_lancer_charges_in_a_straight_line),
        cmocka_unit_test(test_lancer_without_target_has_no_tactic),
        cmocka_unit_test(test_unbolstered_lancer_cannot_charge_knight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

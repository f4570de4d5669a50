/*
 * test_wc_units_b.c - the second half of the unit cards: Light Cavalry,
 * Marshall, Mercenary, Pikeman, Royal Guard (both printings), Scout,
 * Swordsman and Warrior Priest. One hand-made position per tactic,
 * attribute and restriction (units.md), plus each rulebook FAQ ruling
 * about these units, asserting the exact legal set and the exact state
 * after the play.
 *
 * Positions are 2-player unless named otherwise. Seat 0 acts; seat 1
 * holds a coin so that the turn passes to it and no new round is drawn.
 */
#include "wct.h"

static void expect_stack(const wc_state *s, const char *hex, const char *unit, int coins)
{
    if (coins == 0) {
        assert_int_equal(wct_unit_at(s, hex), WC_NONE);
        assert_int_equal(wct_coins_at(s, hex), 0);
        return;
    }
    assert_int_equal(wct_unit_at(s, hex), wc_coin_by_name(unit));
    assert_int_equal(wct_coins_at(s, hex), coins);
}

static void expect_turn_passed(const wc_state *s, int seat)
{
    assert_int_equal(s->nframes, 0);
    assert_int_equal(wc_decision(s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(s), seat);
}

/* ---- Light Cavalry ------------------------------------------------------ */

/* LC c4; a friend on d3 and an enemy on d4 close two of its three exits. */
static void light_cavalry_in_the_corner(wc_state *s)
{
    wct_position(s, "light_cavalry swordsman", "archer");
    wct_put(s, "c4", "light_cavalry", 1);
    wct_put(s, "d3", "swordsman", 1);
    wct_put(s, "d4", "archer", 1);
    wct_give(s, 0, WC_HAND, "light_cavalry");
    wct_give(s, 1, WC_HAND, "royal");
}

/* Tactic: exactly 2 hexes, each step into an empty hex. Of c4's five hexes
 * at distance 2 only c6 and d5 are reached through an empty one (c5). */
static void test_light_cavalry_tactic_moves_two_hexes_through_empty_ones(void **state)
{
    wc_state s;
    light_cavalry_in_the_corner(&s);
    wct_expect(&s, "tactic light_cavalry", "tactic light_cavalry c4-c6; tactic light_cavalry c4-d5");
    wct_play(&s, "tactic light_cavalry c4-c6");
    expect_stack(&s, "c4", NULL, 0);
    expect_stack(&s, "c6", "light_cavalry", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "light_cavalry"), 1);
    expect_turn_passed(&s, 1);
}

/* In the open: every hex at distance 2 except f2 and f6, whose only ways
 * in pass the enemy on f3 or the friend on f5. A two-step path ending next
 * door (f4-e4-e5) is no tactic: that is the normal one-hex move. */
static void test_light_cavalry_tactic_ends_two_hexes_away(void **state)
{
    wc_state s;
    wct_position(&s, "light_cavalry swordsman", "archer");
    wct_put(&s, "f4", "light_cavalry", 1);
    wct_put(&s, "f5", "swordsman", 1);
    wct_put(&s, "f3", "archer", 1);
    wct_give(&s, 0, WC_HAND, "light_cavalry");
    wct_expect(&s, "tactic light_cavalry",
               "tactic light_cavalry f4-d4; tactic light_cavalry f4-d5; "
               "tactic light_cavalry f4-d6; tactic light_cavalry f4-e3; "
               "tactic light_cavalry f4-e6; tactic light_cavalry f4-g2; "
               "tactic light_cavalry f4-g5; tactic light_cavalry f4-h2; "
               "tactic light_cavalry f4-h3; tactic light_cavalry f4-h4");
}

/* FAQ: "Can the Light Cavalry move just one space? Yes." */
static void test_light_cavalry_may_still_move_one_hex(void **state)
{
    wc_state s;
    light_cavalry_in_the_corner(&s);
    wct_expect(&s, "move light_cavalry", "move light_cavalry c4-c5");
    wct_play(&s, "move light_cavalry c4-c5");
    expect_stack(&s, "c5", "light_cavalry", 1);
    expect_turn_passed(&s, 1);
}

/* ---- Marshall ----------------------------------------------------------- */

/* Tactic: another friendly unit within 2 hexes makes a normal attack. The
 * Footman (f2) qualifies; the Swordsman (c5) is 3 hexes away; the Marshall
 * itself is no "other" unit though it touches the Cavalry on f3. */
static void test_marshall_grants_a_normal_attack_to_a_friend_within_two(void **state)
{
    wc_state s;
    wct_position(&s, "marshall footman swordsman", "cavalry scout knight crossbowman");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "footman", 1);
    wct_put(&s, "c5", "swordsman", 1);
    wct_put(&s, "f3", "cavalry", 1);
    wct_put(&s, "e3", "scout", 1);
    wct_put(&s, "g1", "knight", 1);     /* the 1-coin Footman may not */
    wct_put(&s, "c6", "crossbowman", 1);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "tactic marshall",
               "tactic marshall f4 f2 x f3; tactic marshall f4 f2 x e3");
    wct_play(&s, "tactic marshall f4 f2 x e3");
    expect_stack(&s, "e3", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "scout"), 1);
    expect_stack(&s, "f2", "footman", 1);       /* the ally stays put */
    expect_stack(&s, "f4", "marshall", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "marshall"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "footman"), 0);
    expect_turn_passed(&s, 1);
}

/* The Knight rule counts the attacking ally's stack, not the Marshall's. */
static void marshall_beside_footman(wc_state *s, int footman)
{
    wct_position(s, "marshall footman", "knight");
    wct_put(s, "f4", "marshall", 3);
    wct_put(s, "f2", "footman", footman);
    wct_put(s, "g1", "knight", 1);
    wct_give(s, 0, WC_HAND, "marshall");
}

static void test_marshall_grant_uses_the_allys_height_against_a_knight(void **state)
{
    wc_state s;
    marshall_beside_footman(&s, 1);
    wct_expect(&s, "tactic marshall", "");
    marshall_beside_footman(&s, 2);
    wct_expect(&s, "tactic marshall", "tactic marshall f4 f2 x g1");
}

/* FAQ: the Marshall cannot give an attack to Archers or Lancers. */
static void test_marshall_cannot_grant_to_archer_or_lancer(void **state)
{
    wc_state s;
    wct_position(&s, "marshall archer lancer footman", "cavalry scout crossbowman");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "archer", 2);
    wct_put(&s, "e4", "lancer", 2);
    wct_put(&s, "g4", "footman", 1);
    wct_put(&s, "g2", "cavalry", 1);        /* next to the Archer */
    wct_put(&s, "d4", "scout", 1);          /* next to the Lancer */
    wct_put(&s, "h4", "crossbowman", 1);    /* next to the Footman */
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_expect(&s, "tactic marshall", "tactic marshall f4 g4 x h4");
}

/* FAQ: the Berserker's attribute triggers after a Marshall-granted attack:
 * its extra attack is paid by a coin of its stack, not from the hand. */
static void test_marshall_granted_attack_triggers_the_berserker(void **state)
{
    wc_state s;
    wct_position(&s, "marshall berserker", "cavalry");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "berserker", 2);
    wct_put(&s, "g2", "cavalry", 2);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "tactic marshall f4 f2 x g2");
    assert_int_equal(wc_decision(&s), WC_DECIDE_BERSERKER);
    assert_int_equal(wc_to_move(&s), 0);
    expect_stack(&s, "f2", "berserker", 2);
    wct_expect(&s, "attack", "attack berserker f2 x g2");
    wct_play(&s, "attack berserker f2 x g2");
    expect_stack(&s, "g2", NULL, 0);
    expect_stack(&s, "f2", "berserker", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 1);
    expect_turn_passed(&s, 1);      /* one coin left: no further offer */
}

/* ---- Mercenary ---------------------------------------------------------- */

/* Mercenary on d4 (a neutral location), an enemy Cavalry on e4. */
static void mercenary_on_d4(wc_state *s)
{
    wct_position(s, "mercenary archer", "cavalry");
    wct_put(s, "d4", "mercenary", 1);
    wct_put(s, "e4", "cavalry", 1);
    wct_give(s, 0, WC_HAND, "archer");
    wct_give(s, 1, WC_HAND, "royal");
}

/* Attribute: after recruiting a Mercenary coin with the Mercenary on the
 * board, it may make one maneuver at once, free. FAQ: a maneuver only,
 * never a deploy, bolster or recruit. */
static void test_recruiting_a_mercenary_coin_grants_one_free_maneuver(void **state)
{
    wc_state s;
    mercenary_on_d4(&s);
    wct_play(&s, "recruit archer mercenary");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "mercenary"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "mercenary"), 3);
    assert_int_equal(wc_decision(&s), WC_DECIDE_MERCENARY);
    assert_int_equal(wc_to_move(&s), 0);
    wct_expect(&s, "", "move mercenary d4-c4; move mercenary d4-d5; move mercenary d4-d3; "
                       "move mercenary d4-e3; move mercenary d4-c5; control mercenary d4; "
                       "attack mercenary d4 x e4; stop");
    wct_play(&s, "attack mercenary d4 x e4");
    expect_stack(&s, "e4", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "mercenary"), 1);  /* no fee */
    expect_turn_passed(&s, 1);
}

static void test_mercenary_maneuver_may_be_declined(void **state)
{
    wc_state s;
    mercenary_on_d4(&s);
    wct_play(&s, "recruit archer mercenary");
    wct_play(&s, "stop");
    expect_stack(&s, "d4", "mercenary", 1);
    expect_stack(&s, "e4", "cavalry", 1);
    expect_turn_passed(&s, 1);
}

/* FAQ: with the Mercenary not on the board the attribute does nothing; in
 * particular it cannot deploy the Mercenary. */
static void test_mercenary_not_on_board_recruit_gives_nothing(void **state)
{
    wc_state s;
    wct_position(&s, "mercenary archer", "cavalry");
    wct_give(&s, 0, WC_HAND, "archer");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "recruit archer mercenary");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "mercenary"), 1);
    assert_int_equal(s.unit_hexes[WC_MERCENARY], 0);
    expect_turn_passed(&s, 1);
}

/* Only a Mercenary coin triggers it. */
static void test_recruiting_another_unit_does_not_trigger_the_mercenary(void **state)
{
    wc_state s;
    mercenary_on_d4(&s);
    wct_play(&s, "recruit archer archer");
    expect_turn_passed(&s, 1);
}

/* A Mercenary hemmed in by friends, off any location, has no maneuver:
 * the follow-up would only offer "stop", so it is skipped. */
static void test_mercenary_with_no_maneuver_is_skipped(void **state)
{
    wc_state s;
    wct_position(&s, "mercenary archer footman lancer", "cavalry");
    wct_put(&s, "c4", "mercenary", 1);
    wct_put(&s, "d4", "archer", 1);
    wct_put(&s, "c5", "footman", 1);
    wct_put(&s, "d3", "lancer", 1);
    wct_give(&s, 0, WC_HAND, "royal");
    wct_give(&s, 1, WC_HAND, "cavalry");
    wct_play(&s, "recruit royal mercenary");
    expect_turn_passed(&s, 1);
}

/* ---- Pikeman ------------------------------------------------------------ */

/* Attribute: an adjacent attacker loses a coin too; it leaves the game. */
static void test_pikeman_removes_a_coin_from_an_adjacent_attacker(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "pikeman");
    wct_put(&s, "f4", "footman", 2);
    wct_put(&s, "f5", "pikeman", 2);
    wct_give(&s, 0, WC_HAND, "footman");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack footman f4 x f5");
    expect_stack(&s, "f5", "pikeman", 1);
    expect_stack(&s, "f4", "footman", 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "pikeman"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "footman"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "footman"), 1);
    expect_turn_passed(&s, 1);
}

/* FAQ: the attribute happens at the same time as the attack, whatever the
 * outcome: a lone Pikeman and a lone attacker are both destroyed. */
static void test_lone_pikeman_and_lone_attacker_are_both_destroyed(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "pikeman");
    wct_put(&s, "f4", "footman", 1);
    wct_put(&s, "f5", "pikeman", 1);
    wct_give(&s, 0, WC_HAND, "footman");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack footman f4 x f5");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "f5", NULL, 0);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "footman"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "pikeman"), 1);
    expect_turn_passed(&s, 1);
}

/* Ranged attacks from 2 hexes (Archer, Crossbowman tactic) do not trigger
 * it; the Crossbowman's normal adjacent attack does. */
static void test_pikeman_ignores_ranged_attacks(void **state)
{
    wc_state s;
    wct_position(&s, "archer crossbowman", "pikeman lancer");
    wct_put(&s, "f4", "pikeman", 4);
    wct_put(&s, "f2", "archer", 1);
    wct_put(&s, "d4", "crossbowman", 1);    /* e4 between, empty */
    wct_give(&s, 0, WC_HAND, "archer crossbowman crossbowman crossbowman");
    wct_give(&s, 1, WC_HAND, "royal lancer lancer");
    wct_play(&s, "tactic archer f2 x f4");
    expect_stack(&s, "f2", "archer", 1);
    wct_play(&s, "pass royal");
    wct_play(&s, "tactic crossbowman d4 x f4");
    expect_stack(&s, "d4", "crossbowman", 1);
    expect_stack(&s, "f4", "pikeman", 2);
    wct_play(&s, "pass lancer");
    wct_play(&s, "move crossbowman d4-e4");
    wct_play(&s, "pass lancer");
    wct_play(&s, "attack crossbowman e4 x f4");     /* adjacent now */
    expect_stack(&s, "e4", NULL, 0);
    expect_stack(&s, "f4", "pikeman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "archer"), 0);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "crossbowman"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "pikeman"), 3);
}

/* Cavalry and Lancer tactics and a Marshall-granted attack strike from the
 * next hex: each attacker loses a coin. */
static void test_pikeman_hits_tactic_and_granted_adjacent_attackers(void **state)
{
    wc_state s;
    wct_position(&s, "cavalry lancer marshall footman", "pikeman archer");
    wct_put(&s, "f4", "pikeman", 4);
    wct_put(&s, "d4", "cavalry", 2);
    wct_put(&s, "f2", "lancer", 2);
    wct_put(&s, "g4", "footman", 2);
    wct_put(&s, "h5", "marshall", 1);
    wct_give(&s, 0, WC_HAND, "cavalry lancer marshall");
    wct_give(&s, 1, WC_HAND, "royal archer");
    wct_play(&s, "tactic cavalry d4-e4 x f4");
    expect_stack(&s, "e4", "cavalry", 1);
    expect_stack(&s, "f4", "pikeman", 3);
    wct_play(&s, "pass royal");
    wct_play(&s, "tactic lancer f2-f3 x f4");
    expect_stack(&s, "f3", "lancer", 1);
    expect_stack(&s, "f4", "pikeman", 2);
    wct_play(&s, "pass archer");
    wct_play(&s, "tactic marshall h5 g4 x f4");
    expect_stack(&s, "g4", "footman", 1);
    expect_stack(&s, "h5", "marshall", 1);      /* the Marshall did not attack */
    expect_stack(&s, "f4", "pikeman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "cavalry"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "lancer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "footman"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "marshall"), 0);
}

/* ---- Royal Guard -------------------------------------------------------- */

/* 2018 tactic: the Royal Coin, discarded face up, moves the Royal Guard
 * one hex. The Royal Guard's own coin has no tactic. */
static void test_royal_coin_pays_for_the_royal_guard_tactic(void **state)
{
    wc_state s;
    wct_position(&s, "royal_guard footman", "archer");
    wct_put(&s, "f4", "royal_guard", 1);
    wct_put(&s, "f5", "footman", 1);
    wct_put(&s, "g4", "archer", 1);
    wct_give(&s, 0, WC_HAND, "royal royal_guard");
    wct_give(&s, 1, WC_HAND, "archer");
    wct_expect(&s, "tactic royal ",
               "tactic royal f4-e4; tactic royal f4-f3; tactic royal f4-g3; tactic royal f4-e5");
    wct_expect(&s, "tactic royal_guard", "");
    wct_play(&s, "tactic royal f4-f3");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "f3", "royal_guard", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "royal"), 1);    /* face up */
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "royal"), 0);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "royal_guard"), 1);
    expect_turn_passed(&s, 1);
}

/* The tactic is the Guard's owner's: another seat's Royal Coin pays for
 * face-down actions only, however near that seat's units stand. */
static void test_royal_coin_never_moves_the_other_seats_royal_guard(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "royal_guard archer");
    wct_put(&s, "f4", "footman", 1);
    wct_put(&s, "f5", "royal_guard", 1);
    wct_give(&s, 0, WC_HAND, "royal");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "tactic", "");
    wct_expect(&s, "", "recruit royal footman; pass royal");   /* it holds the initiative */
    wct_turn(&s, 1);
    wct_expect(&s, "tactic", "tactic royal f5-e5; tactic royal f5-f6; tactic royal f5-g4; "
                             "tactic royal f5-g5; tactic royal f5-e6");
}

/* Royal Guard on f2; friends on g1 and g2; e2, h1 (starts) and g3 are
 * side 0's, d4 is side 1's. */
static void royal_guard_on_f2(wc_state *s, int printing)
{
    wct_position(s, "royal_guard footman scout", "archer");
    s->opt.royal_guard = (uint8_t)printing;
    wct_put(s, "f2", "royal_guard", 1);
    wct_put(s, "g2", "footman", 1);
    wct_put(s, "g1", "scout", 1);
    wct_control(s, "g3", 0);
    wct_control(s, "d4", 1);
    wct_give(s, 0, WC_HAND, "royal");
    wct_give(s, 1, WC_HAND, "archer");
}

static void test_royal_guard_2018_moves_one_hex_anywhere(void **state)
{
    wc_state s;
    royal_guard_on_f2(&s, WC_GUARD_2018);
    wct_expect(&s, "tactic", "tactic royal f2-e2; tactic royal f2-f3; "
                             "tactic royal f2-f1; tactic royal f2-e3");
}

/* Revised printing: up to 2 hexes through empty ones, ending on a location
 * the side controls: e2 (1 hex) and g3 (via f3). h1 is walled off by the
 * friends, d4 is the enemy's, f3 and e3 are no controlled locations. */
static void test_royal_guard_revised_ends_on_a_controlled_location(void **state)
{
    wc_state s;
    royal_guard_on_f2(&s, WC_GUARD_REVISED);
    wct_expect(&s, "tactic", "tactic royal f2-e2; tactic royal f2-g3");
    wct_play(&s, "tactic royal f2-g3");
    expect_stack(&s, "f2", NULL, 0);
    expect_stack(&s, "g3", "royal_guard", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "royal"), 1);
    expect_turn_passed(&s, 1);
}

/* Attribute: the owner may pay a Royal Guard coin from supply instead of
 * the unit; that coin leaves the game. It is the defender's decision. */
static void test_royal_guard_owner_may_pay_the_attack_from_supply(void **state)
{
    wc_state s;
    wct_position(&s, "footman", "royal_guard");
    wct_put(&s, "f4", "footman", 1);
    wct_put(&s, "f5", "royal_guard", 1);
    wct_give(&s, 0, WC_HAND, "footman");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack footman f4 x f5");
    assert_int_equal(wc_decision(&s), WC_DECIDE_GUARD);
    assert_int_equal(wc_to_move(&s), 1);
    wct_expect(&s, "", "guard supply; guard unit");
    wct_play(&s, "guard supply");
    expect_stack(&s, "f5", "royal_guard", 1);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "royal_guard"), 3);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "royal_guard"), 1);
    expect_turn_passed(&s, 1);
}

/* ---- Scout -------------------------------------------------------------- */

/* Attribute: besides empty controlled locations, the Scout deploys onto
 * any empty hex next to a friendly unit, never next to an enemy only. */
static void test_scout_deploys_next_to_any_friendly_unit(void **state)
{
    wc_state s;
    wct_position(&s, "scout footman", "archer");
    wct_put(&s, "f4", "footman", 1);
    wct_put(&s, "h3", "archer", 1);
    wct_give(&s, 0, WC_HAND, "scout");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "deploy", "deploy scout e2; deploy scout h1; deploy scout g4; "
                             "deploy scout e4; deploy scout f5; deploy scout f3; "
                             "deploy scout g3; deploy scout e5");
    wct_play(&s, "deploy scout f5");
    expect_stack(&s, "f5", "scout", 1);
    expect_turn_passed(&s, 1);
}

/* Still only one Scout on the board: with one deployed, only a bolster. */
static void test_only_one_scout_on_the_board(void **state)
{
    wc_state s;
    wct_position(&s, "scout footman", "archer");
    wct_put(&s, "f4", "footman", 1);
    wct_put(&s, "f5", "scout", 1);
    wct_give(&s, 0, WC_HAND, "scout");
    wct_expect(&s, "deploy", "");
    wct_expect(&s, "bolster", "bolster scout f5");
}

/* 4 players: a teammate's unit is friendly (units.md, Four players). */
static void test_scout_deploys_next_to_a_teammates_unit(void **state)
{
    wc_state s;
    wct_position4(&s, "scout", "archer", "footman", "cavalry");
    wct_put(&s, "f4", "footman", 1);        /* seat 2, seat 0's teammate */
    wct_put(&s, "h3", "archer", 1);
    wct_give(&s, 0, WC_HAND, "scout");
    wct_expect(&s, "deploy", "deploy scout e2; deploy scout h1; deploy scout b5; "
                             "deploy scout g4; deploy scout e4; deploy scout f5; "
                             "deploy scout f3; deploy scout g3; deploy scout e5");
}

/* ---- Swordsman ---------------------------------------------------------- */

/* Swordsman f4 beside an enemy Archer (g4, `archer` coins); a friendly
 * Footman on e5. */
static void swordsman_on_f4(wc_state *s, int archer)
{
    wct_position(s, "swordsman footman", "archer pikeman");
    wct_put(s, "f4", "swordsman", 1);
    wct_put(s, "e5", "footman", 1);
    wct_put(s, "g4", "archer", archer);
    wct_give(s, 0, WC_HAND, "swordsman");
    wct_give(s, 1, WC_HAND, "royal");
}

/* Attribute: after attacking, the Swordsman may move one hex, free; the
 * hex of a destroyed target is free to enter. */
static void test_swordsman_may_move_one_hex_after_attacking(void **state)
{
    wc_state s;
    swordsman_on_f4(&s, 1);
    wct_play(&s, "attack swordsman f4 x g4");
    expect_stack(&s, "g4", NULL, 0);
    assert_int_equal(wc_decision(&s), WC_DECIDE_SWORDSMAN);
    assert_int_equal(wc_to_move(&s), 0);
    wct_expect(&s, "", "move swordsman f4-g4; move swordsman f4-e4; move swordsman f4-f5; "
                       "move swordsman f4-f3; move swordsman f4-g3; stop");
    wct_play(&s, "move swordsman f4-g4");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "g4", "swordsman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "swordsman"), 1);  /* one coin */
    expect_turn_passed(&s, 1);
}

static void test_swordsman_move_may_be_declined(void **state)
{
    wc_state s;
    swordsman_on_f4(&s, 2);
    wct_play(&s, "attack swordsman f4 x g4");
    expect_stack(&s, "g4", "archer", 1);
    wct_play(&s, "stop");
    expect_stack(&s, "f4", "swordsman", 1);
    expect_turn_passed(&s, 1);
}

/* Only an attack triggers it: not a move, not a control. */
static void test_swordsman_moves_only_after_an_attack(void **state)
{
    wc_state s;
    swordsman_on_f4(&s, 1);
    wct_play(&s, "move swordsman f4-e4");
    expect_turn_passed(&s, 1);

    wct_position(&s, "swordsman", "archer");
    wct_put(&s, "d4", "swordsman", 1);
    wct_give(&s, 0, WC_HAND, "swordsman");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "control swordsman d4");
    assert_true(s.control[0] & ((wc_mask)1 << wct_hex("d4")));
    expect_turn_passed(&s, 1);
}

/* Engine ruling: a unit that has left the board has no attributes. A lone
 * Swordsman killed by the Pikeman's counter does not move. */
static void test_swordsman_killed_by_pikeman_does_not_move(void **state)
{
    wc_state s;
    swordsman_on_f4(&s, 1);
    wct_put(&s, "f5", "pikeman", 2);
    wct_play(&s, "attack swordsman f4 x f5");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "f5", "pikeman", 1);
    expect_turn_passed(&s, 1);
}

/* With every neighbour occupied the step would only offer "stop": skipped. */
static void test_boxed_in_swordsman_gets_no_offer(void **state)
{
    wc_state s;
    wct_position(&s, "swordsman footman", "archer cavalry pikeman lancer");
    wct_put(&s, "f4", "swordsman", 1);
    wct_put(&s, "g4", "archer", 2);
    wct_put(&s, "e4", "footman", 1);
    wct_put(&s, "e5", "footman", 1);        /* the second Footman unit */
    wct_put(&s, "f5", "cavalry", 1);
    wct_put(&s, "f3", "pikeman", 1);
    wct_put(&s, "g3", "lancer", 1);
    wct_give(&s, 0, WC_HAND, "swordsman");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack swordsman f4 x g4");
    expect_stack(&s, "g4", "archer", 1);
    expect_turn_passed(&s, 1);
}

/* ---- Warrior Priest ----------------------------------------------------- */

/* Priest on `hex`; its owner's bag holds exactly `bag` (the Royal Coin is
 * put face down in the discard). */
static void priest_on(wc_state *s, const char *hex, const char *bag)
{
    wct_position(s, "warrior_priest footman archer", "cavalry pikeman");
    wct_put(s, hex, "warrior_priest", 1);
    wct_give(s, 0, WC_DISCARD_DOWN, "royal");
    wct_give(s, 0, WC_BAG, bag);
    wct_give(s, 0, WC_HAND, "warrior_priest");
    wct_give(s, 1, WC_HAND, "royal");
}

/* Attribute: after attacking, draw one coin and use it at once for any
 * action. FAQ: it must be used, and passing is allowed. Every play of the
 * drawn Footman coin is offered, and nothing else. */
static void test_warrior_priest_draws_after_attacking_and_offers_every_play(void **state)
{
    wc_state s;
    priest_on(&s, "f4", "footman");
    wct_put(&s, "e5", "footman", 1);
    wct_put(&s, "g4", "cavalry", 2);
    wct_play(&s, "attack warrior_priest f4 x g4");
    expect_stack(&s, "g4", "cavalry", 1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_PRIEST);
    assert_int_equal(wc_to_move(&s), 0);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "footman"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_BAG, "footman"), 0);
    wct_expect(&s, "", "deploy footman e2; deploy footman h1; bolster footman e5; "
                       "move footman e5-f5; move footman e5-d5; move footman e5-e6; "
                       "move footman e5-e4; move footman e5-d6; control footman e5; "
                       "tactic footman; recruit footman warrior_priest; "
                       "recruit footman footman; recruit footman archer; pass footman");
    wct_play(&s, "pass footman");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "footman"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "footman"), 0);
    expect_turn_passed(&s, 1);
}

/* After a control too; the drawn coin may be deployed. */
static void test_warrior_priest_draws_after_control(void **state)
{
    wc_state s;
    priest_on(&s, "d4", "archer");
    wct_play(&s, "control warrior_priest d4");
    assert_true(s.control[0] & ((wc_mask)1 << wct_hex("d4")));
    assert_int_equal(wc_decision(&s), WC_DECIDE_PRIEST);
    wct_expect(&s, "deploy", "deploy archer e2; deploy archer h1");
    wct_play(&s, "deploy archer h1");
    expect_stack(&s, "h1", "archer", 1);
    expect_turn_passed(&s, 1);
}

/* A move is neither attack nor control: no draw. */
static void test_warrior_priest_does_not_draw_after_moving(void **state)
{
    wc_state s;
    priest_on(&s, "f4", "archer");
    wct_play(&s, "move warrior_priest f4-f3");
    assert_int_equal(wct_zone(&s, 0, WC_BAG, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 0);
    expect_turn_passed(&s, 1);
}

/* Engine ruling: a lone Priest killed by the Pikeman's counter draws none. */
static void test_warrior_priest_killed_by_pikeman_does_not_draw(void **state)
{
    wc_state s;
    priest_on(&s, "f4", "archer");
    wct_put(&s, "g4", "pikeman", 2);
    wct_play(&s, "attack warrior_priest f4 x g4");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "g4", "pikeman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_BAG, "archer"), 1);
    expect_turn_passed(&s, 1);
}

/* Engine ruling: a control that wins the game draws nothing. */
static void test_warrior_priest_winning_control_draws_nothing(void **state)
{
    wc_state s;
    priest_on(&s, "d4", "archer");
    wct_control(&s, "c6", 0);
    wct_control(&s, "e5", 0);
    wct_control(&s, "g3", 0);           /* 5 of 6 markers placed */
    wct_play(&s, "control warrior_priest d4");
    assert_true(wc_is_over(&s));
    assert_int_equal(s.winner, 0);
    assert_int_equal(s.end_reason, WC_END_MARKERS);
    assert_int_equal(wc_to_move(&s), -1);
    assert_int_equal(wct_zone(&s, 0, WC_BAG, "archer"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "archer"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_light_cavalry_tactic_moves_two_hexes_through_empty_ones),
        cmocka_unit_test(test_light_cavalry_tactic_ends_two_hexes_away),
        cmocka_unit_test(test_light_cavalry_may_still_move_one_hex),
        cmocka_unit_test(test_marshall_grants_a_normal_attack_to_a_friend_within_two),
        cmocka_unit_test(test_marshall_grant_uses_the_allys_height_against_a_knight),
        cmocka_unit_test(test_marshall_cannot_grant_to_archer_or_lancer),
        cmocka_unit_test(test_marshall_granted_attack_triggers_the_berserker),
        cmocka_unit_test(test_recruiting_a_mercenary_coin_grants_one_free_maneuver),
        cmocka_unit_test(test_mercenary_maneuver_may_be_declined),
        cmocka_unit_test(test_mercenary_not_on_board_recruit_gives_nothing),
        cmocka_unit_test(test_recruiting_another_unit_does_not_trigger_the_mercenary),
        cmocka_unit_test(test_mercenary_with_no_maneuver_is_skipped),
        cmocka_unit_test(test_pikeman_removes_a_coin_from_an_adjacent_attacker),
        cmocka_unit_test(test_lone_pikeman_and_lone_attacker_are_both_destroyed),
        cmocka_unit_test(test_pikeman_ignores_ranged_attacks),
        cmocka_unit_test(test_pikeman_hits_tactic_and_granted_adjacent_attackers),
        cmocka_unit_test(test_royal_coin_pays_for_the_royal_guard_tactic),
        cmocka_unit_test(test_royal_coin_never_moves_the_other_seats_royal_guard),
        cmocka_unit_test(test_royal_guard_2018_moves_one_hex_anywhere),
        cmocka_unit_test(test_royal_guard_revised_ends_on_a_controlled_location),
        cmocka_unit_test(test_royal_guard_owner_may_pay_the_attack_from_supply),
        cmocka_unit_test(test_scout_deploys_next_to_any_friendly_unit),
        cmocka_unit_test(test_only_one_scout_on_the_board),
        cmocka_unit_test(test_scout_deploys_next_to_a_teammates_unit),
        cmocka_unit_test(test_swordsman_may_move_one_hex_after_attacking),
        cmocka_unit_test(test_swordsman_move_may_be_declined),
        cmocka_unit_test(test_swordsman_moves_only_after_an_attack),
        cmocka_unit_test(test_swordsman_killed_by_pikeman_does_not_move),
        cmocka_unit_test(test_boxed_in_swordsman_gets_no_offer),
        cmocka_unit_test(test_warrior_priest_draws_after_attacking_and_offers_every_play),
        cmocka_unit_test(test_warrior_priest_draws_after_control),
        cmocka_unit_test(test_warrior_priest_does_not_draw_after_moving),
        cmocka_unit_test(test_warrior_priest_killed_by_pikeman_does_not_draw),
        cmocka_unit_test(test_warrior_priest_winning_control_draws_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

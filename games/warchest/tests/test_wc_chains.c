/*
 * test_wc_chains.c - turns where one play sets off others: granted attacks
 * that trigger the acting unit's attribute, the Pikeman's counter against
 * a Knight and a Royal Guard, the Royal Guard's mid-turn choice by the
 * defender, the Warrior Priest's draw from an empty bag, Berserker chains,
 * and follow-ups nested several deep. Each step checks who decides next
 * (wc_to_move, wc_decision) and where every coin went.
 *
 * Positions are 2-player unless named otherwise; seat 0 acts and seat 1
 * holds a coin, so the turn passes to it without a new round being drawn.
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

static void expect_decision(const wc_state *s, int decision, int seat)
{
    assert_int_equal(wc_decision(s), decision);
    assert_int_equal(wc_to_move(s), seat);
}

static int zone_total(const wc_state *s, int seat, int zone)
{
    int n = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        n += s->coins[seat][zone][c];
    return n;
}

/* The one coin in a seat's hand (fails unless there is exactly one). */
static int only_hand_coin(const wc_state *s, int seat)
{
    assert_int_equal(zone_total(s, seat, WC_HAND), 1);
    for (int c = 0; c < WC_NCOINS; c++)
        if (s->coins[seat][WC_HAND][c])
            return c;
    return -1;
}

/* ---- Marshall-granted attacks and the attacker's attribute -------------- */

/* FAQ: the Swordsman's attribute triggers after a Marshall-granted attack.
 * The step is free: no Swordsman coin is spent. */
static void test_marshall_grant_lets_the_swordsman_step_after(void **state)
{
    wc_state s;
    wct_position(&s, "marshall swordsman", "archer");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "swordsman", 1);
    wct_put(&s, "g2", "archer", 1);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "archer");
    wct_play(&s, "tactic marshall f4 f2 x g2");
    expect_stack(&s, "g2", NULL, 0);
    expect_decision(&s, WC_DECIDE_SWORDSMAN, 0);
    wct_expect(&s, "", "move swordsman f2-g2; move swordsman f2-e2; move swordsman f2-f3; "
                       "move swordsman f2-f1; move swordsman f2-g1; move swordsman f2-e3; stop");
    wct_play(&s, "move swordsman f2-g2");
    expect_stack(&s, "f2", NULL, 0);
    expect_stack(&s, "g2", "swordsman", 1);
    expect_stack(&s, "f4", "marshall", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "marshall"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "swordsman"), 0);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* FAQ: the Warrior Priest's attribute triggers after a Marshall-granted
 * attack. The drawn coin here is a Priest coin; using it to attack again
 * draws again, refilling the empty bag from the whole discard pile. */
static void test_marshall_grant_makes_the_priest_draw_and_decide(void **state)
{
    wc_state s;
    wct_position(&s, "marshall warrior_priest", "archer");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "warrior_priest", 1);
    wct_put(&s, "g2", "archer", 2);
    wct_give(&s, 0, WC_DISCARD_DOWN, "royal");
    wct_give(&s, 0, WC_BAG, "warrior_priest");
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "archer");
    wct_play(&s, "tactic marshall f4 f2 x g2");
    expect_stack(&s, "g2", "archer", 1);
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    assert_int_equal(s.frames[s.nframes - 1].arg, WC_WARRIOR_PRIEST);
    assert_int_equal(only_hand_coin(&s, 0), WC_WARRIOR_PRIEST);
    wct_expect(&s, "", "bolster warrior_priest f2; move warrior_priest f2-e2; "
                       "move warrior_priest f2-f3; move warrior_priest f2-f1; "
                       "move warrior_priest f2-g1; move warrior_priest f2-e3; "
                       "attack warrior_priest f2 x g2; recruit warrior_priest marshall; "
                       "recruit warrior_priest warrior_priest; pass warrior_priest");
    wct_play(&s, "attack warrior_priest f2 x g2");
    expect_stack(&s, "g2", NULL, 0);
    /* Bag empty: the discard pile (Marshall and Priest face up, Royal face
     * down) became the bag, and one of its three coins was drawn. */
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    int drawn = only_hand_coin(&s, 0);
    assert_int_equal(s.frames[s.nframes - 1].arg, drawn);
    assert_int_equal(zone_total(&s, 0, WC_BAG), 2);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_UP), 0);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_DOWN), 0);
    assert_int_equal(s.coins[0][WC_BAG][WC_MARSHALL] + s.coins[0][WC_HAND][WC_MARSHALL], 1);
    assert_int_equal(s.coins[0][WC_BAG][WC_ROYAL] + s.coins[0][WC_HAND][WC_ROYAL], 1);
    wc_action pass = { WC_ACT_PASS, (uint8_t)drawn, WC_NONE, WC_NONE, WC_NONE,
                       WC_NONE, WC_NONE, 0 };
    assert_true(wc_is_legal(&s, &pass));
    wc_apply(&s, &pass);
    assert_int_equal(s.coins[0][WC_DISCARD_DOWN][drawn], 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* 4 players: a Marshall grants the attack to a teammate's Priest, whose
 * owner draws from their own bag and decides, in the middle of seat 0's
 * turn. */
static void test_teammates_priest_draws_from_its_owners_bag(void **state)
{
    wc_state s;
    wct_position4(&s, "marshall", "cavalry", "warrior_priest", "archer");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "warrior_priest", 1);     /* seat 2 */
    wct_put(&s, "g2", "cavalry", 2);            /* seat 1 */
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "tactic marshall f4 f2 x g2");
    expect_decision(&s, WC_DECIDE_PRIEST, 2);
    assert_int_equal(only_hand_coin(&s, 2), WC_ROYAL);   /* its bag's only coin */
    /* Seat 0 (its side) holds the initiative: no claim. */
    wct_expect(&s, "", "recruit royal warrior_priest; pass royal");
    wct_play(&s, "pass royal");
    assert_int_equal(wct_zone(&s, 2, WC_DISCARD_DOWN, "royal"), 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* Rulings: with bag and discard pile both empty the Priest draws nothing
 * and the turn goes on. Only a granted attack can get there: the Priest's
 * own coin would be in the discard. */
static void test_priest_with_empty_bag_and_discard_draws_nothing(void **state)
{
    wc_state s;
    wct_position4(&s, "marshall", "cavalry", "warrior_priest", "archer");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "warrior_priest", 1);
    wct_put(&s, "g2", "cavalry", 2);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_give(&s, 2, WC_HAND, "royal");          /* seat 2: bag and discard empty */
    wct_play(&s, "tactic marshall f4 f2 x g2");
    expect_stack(&s, "g2", "cavalry", 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
    assert_int_equal(zone_total(&s, 2, WC_HAND), 1);
    assert_int_equal(zone_total(&s, 2, WC_BAG), 0);
}

/* ---- The Priest's draw -------------------------------------------------- */

/* Rulebook, Draw Coins: an empty bag is refilled with the whole discard
 * pile, face up and face down alike, before the draw. */
static void test_priest_refills_an_empty_bag_from_the_whole_discard(void **state)
{
    wc_state s;
    wct_position(&s, "warrior_priest", "cavalry");
    wct_put(&s, "f4", "warrior_priest", 1);
    wct_put(&s, "g4", "cavalry", 2);
    wct_give(&s, 0, WC_DISCARD_DOWN, "royal");
    wct_give(&s, 0, WC_HAND, "warrior_priest");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack warrior_priest f4 x g4");
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    int drawn = only_hand_coin(&s, 0);
    assert_true(drawn == WC_WARRIOR_PRIEST || drawn == WC_ROYAL);
    assert_int_equal(s.frames[s.nframes - 1].arg, drawn);
    assert_int_equal(zone_total(&s, 0, WC_BAG), 1);
    assert_int_equal(s.coins[0][WC_BAG][drawn], 0);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_UP), 0);
    assert_int_equal(zone_total(&s, 0, WC_DISCARD_DOWN), 0);
}

/* The drawn coin may be the Priest's own: each attack draws again until
 * a coin is put to another use. */
static void test_priest_chains_attacks_with_its_own_drawn_coins(void **state)
{
    wc_state s;
    wct_position(&s, "warrior_priest", "cavalry");
    wct_put(&s, "f4", "warrior_priest", 1);
    wct_put(&s, "g4", "cavalry", 3);
    wct_give(&s, 0, WC_HAND, "warrior_priest royal");
    wct_give(&s, 0, WC_BAG, "warrior_priest");
    wct_give(&s, 1, WC_HAND, "cavalry");
    wct_play(&s, "attack warrior_priest f4 x g4");
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    assert_int_equal(s.frames[s.nframes - 1].arg, WC_WARRIOR_PRIEST);
    wct_play(&s, "attack warrior_priest f4 x g4");
    /* The bag was empty again: both Priest coins came back from the
     * discard pile, and one was drawn. */
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    assert_int_equal(s.frames[s.nframes - 1].arg, WC_WARRIOR_PRIEST);
    assert_int_equal(wct_zone(&s, 0, WC_BAG, "warrior_priest"), 1);
    wct_play(&s, "attack warrior_priest f4 x g4");
    expect_stack(&s, "g4", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "cavalry"), 3);
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    wct_expect(&s, "attack", "");
    wct_play(&s, "pass warrior_priest");
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "warrior_priest"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "warrior_priest"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_HAND, "royal"), 1);  /* untouched */
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* The drawn Royal Coin recruits a Mercenary coin: the Mercenary's own
 * follow-up nests inside the Priest's. */
static void test_priest_drawn_coin_recruits_a_mercenary_which_maneuvers(void **state)
{
    wc_state s;
    wct_position(&s, "warrior_priest mercenary", "cavalry");
    wct_put(&s, "f4", "warrior_priest", 1);
    wct_put(&s, "d4", "mercenary", 1);
    wct_put(&s, "e4", "cavalry", 2);            /* beside both */
    wct_give(&s, 0, WC_HAND, "warrior_priest"); /* the bag holds the Royal Coin */
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack warrior_priest f4 x e4");
    expect_decision(&s, WC_DECIDE_PRIEST, 0);
    wct_expect(&s, "", "recruit royal warrior_priest; recruit royal mercenary; pass royal");
    wct_play(&s, "recruit royal mercenary");
    expect_decision(&s, WC_DECIDE_MERCENARY, 0);
    wct_expect(&s, "attack", "attack mercenary d4 x e4");
    wct_play(&s, "attack mercenary d4 x e4");
    expect_stack(&s, "e4", NULL, 0);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_DOWN, "royal"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "mercenary"), 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "warrior_priest"), 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* ---- Pikeman against a Knight and a Royal Guard ------------------------- */

/* The Knight rule limits who attacks a Knight, not what a Knight attacks:
 * a lone Knight may attack the Pikeman. The Pikeman's counter is not an
 * attack, so it hits the Knight, destroying it. */
static void test_lone_knight_attacking_a_pikeman_is_destroyed(void **state)
{
    wc_state s;
    wct_position(&s, "knight", "pikeman");
    wct_put(&s, "f4", "knight", 1);
    wct_put(&s, "f5", "pikeman", 2);
    wct_give(&s, 0, WC_HAND, "knight");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "attack", "attack knight f4 x f5");
    wct_play(&s, "attack knight f4 x f5");
    expect_stack(&s, "f4", NULL, 0);
    expect_stack(&s, "f5", "pikeman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "knight"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "pikeman"), 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* A Marshall grants the bolstered Knight its attack: the counter still
 * takes a Knight coin. */
static void test_pikeman_counter_hits_a_knight_granted_an_attack(void **state)
{
    wc_state s;
    wct_position(&s, "knight marshall", "pikeman");
    wct_put(&s, "f4", "knight", 2);
    wct_put(&s, "f2", "marshall", 1);
    wct_put(&s, "f5", "pikeman", 1);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "tactic marshall f2 f4 x f5");
    expect_stack(&s, "f5", NULL, 0);
    expect_stack(&s, "f4", "knight", 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "knight"), 1);
}

/* The counter is not an attack, so the attacking Royal Guard's supply
 * choice does not apply: the coin comes off the unit, no decision. */
static void test_pikeman_counter_on_royal_guard_skips_the_supply_choice(void **state)
{
    wc_state s;
    wct_position(&s, "royal_guard", "pikeman");
    wct_put(&s, "f4", "royal_guard", 2);
    wct_put(&s, "f5", "pikeman", 2);
    wct_give(&s, 0, WC_HAND, "royal_guard");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "attack royal_guard f4 x f5");
    expect_stack(&s, "f4", "royal_guard", 1);
    expect_stack(&s, "f5", "pikeman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_SUPPLY, "royal_guard"), 2);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "royal_guard"), 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* ---- The Royal Guard's supply choice ------------------------------------ */

/* Swordsman f4 attacks the Royal Guard (one coin) on f5. */
static void swordsman_attacks_royal_guard(wc_state *s, int in_supply)
{
    wct_position(s, "swordsman", "royal_guard");
    wct_put(s, "f4", "swordsman", 1);
    wct_put(s, "f5", "royal_guard", 1);
    /* 4 in supply; the rest counted as lost earlier. */
    assert_int_equal(wc_move_coins(s, 1, WC_ROYAL_GUARD, WC_SUPPLY, WC_REMOVED,
                                   4 - in_supply), 0);
    wct_give(s, 0, WC_HAND, "swordsman");
    wct_give(s, 1, WC_HAND, "royal");
    wct_play(s, "attack swordsman f4 x f5");
}

/* Supply empty: the coin comes off the unit at once, no decision. */
static void test_royal_guard_with_empty_supply_loses_a_unit_coin_at_once(void **state)
{
    wc_state s;
    swordsman_attacks_royal_guard(&s, 0);
    expect_stack(&s, "f5", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "royal_guard"), 5);
    expect_decision(&s, WC_DECIDE_SWORDSMAN, 0);
}

/* Supply available: the defender decides mid-turn; paying from supply
 * keeps the unit, then the attacker's follow-up resumes. */
static void test_royal_guard_defender_pays_from_supply_then_attacker_resumes(void **state)
{
    wc_state s;
    swordsman_attacks_royal_guard(&s, 2);
    expect_decision(&s, WC_DECIDE_GUARD, 1);
    assert_int_equal(s.turn, 0);                /* still seat 0's turn */
    wct_expect(&s, "", "guard supply; guard unit");
    wct_play(&s, "guard supply");
    expect_stack(&s, "f5", "royal_guard", 1);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "royal_guard"), 1);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "royal_guard"), 3);
    expect_decision(&s, WC_DECIDE_SWORDSMAN, 0);
    wct_expect(&s, "move swordsman f4-f5", "");  /* still occupied */
    wct_play(&s, "stop");
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* ... or from the unit, which leaves the board; the Swordsman may take
 * its hex. */
static void test_royal_guard_defender_pays_from_unit_then_attacker_resumes(void **state)
{
    wc_state s;
    swordsman_attacks_royal_guard(&s, 2);
    expect_decision(&s, WC_DECIDE_GUARD, 1);
    wct_play(&s, "guard unit");
    expect_stack(&s, "f5", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "royal_guard"), 2);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "royal_guard"), 3);
    expect_decision(&s, WC_DECIDE_SWORDSMAN, 0);
    wct_play(&s, "move swordsman f4-f5");
    expect_stack(&s, "f5", "swordsman", 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* ---- Berserker chains --------------------------------------------------- */

/* Each extra maneuver costs one stack coin, face up to the discard; the
 * last coin may never be paid, so a 3-coin Berserker acts 3 times. */
static void test_berserker_chains_until_one_coin_is_left(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "cavalry");
    wct_put(&s, "f4", "berserker", 3);
    wct_give(&s, 0, WC_HAND, "berserker");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "move berserker f4-f3");
    expect_decision(&s, WC_DECIDE_BERSERKER, 0);
    expect_stack(&s, "f3", "berserker", 3);
    wct_expect(&s, "", "move berserker f3-g3; move berserker f3-e3; move berserker f3-f4; "
                       "move berserker f3-f2; move berserker f3-g2; move berserker f3-e4; stop");
    wct_play(&s, "move berserker f3-f2");
    expect_stack(&s, "f2", "berserker", 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 2);
    expect_decision(&s, WC_DECIDE_BERSERKER, 0);
    wct_play(&s, "move berserker f2-f1");
    expect_stack(&s, "f1", "berserker", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 3);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

/* Ruling: the Knight rule uses the Berserker's height after paying. Two
 * coins may attack a Knight from the hand, but not as an extra maneuver. */
static void test_berserker_extra_attack_on_a_knight_counts_height_after_paying(void **state)
{
    wc_state s;
    wct_position(&s, "berserker", "knight");
    wct_put(&s, "f4", "berserker", 2);
    wct_put(&s, "g4", "knight", 2);
    wct_give(&s, 0, WC_HAND, "berserker");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_expect(&s, "attack", "attack berserker f4 x g4");
    wct_play(&s, "attack berserker f4 x g4");
    expect_stack(&s, "g4", "knight", 1);
    expect_decision(&s, WC_DECIDE_BERSERKER, 0);
    wct_expect(&s, "attack", "");
    wct_expect(&s, "stop", "stop");
}

/* ---- Nested follow-ups -------------------------------------------------- */

/* Marshall -> Berserker attacks the Royal Guard -> the defender chooses ->
 * the Berserker goes again -> the defender again -> ... The deciding seat
 * alternates inside one turn of seat 0's. */
static void test_marshall_berserker_royal_guard_nesting(void **state)
{
    wc_state s;
    wct_position(&s, "marshall berserker", "royal_guard");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "berserker", 3);
    wct_put(&s, "g2", "royal_guard", 2);        /* 3 in supply */
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");

    wct_play(&s, "tactic marshall f4 f2 x g2");
    expect_decision(&s, WC_DECIDE_GUARD, 1);
    wct_play(&s, "guard supply");
    expect_stack(&s, "g2", "royal_guard", 2);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "royal_guard"), 2);

    expect_decision(&s, WC_DECIDE_BERSERKER, 0);    /* granted: attribute */
    expect_stack(&s, "f2", "berserker", 3);
    wct_play(&s, "attack berserker f2 x g2");
    expect_stack(&s, "f2", "berserker", 2);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 1);

    expect_decision(&s, WC_DECIDE_GUARD, 1);
    wct_play(&s, "guard unit");
    expect_stack(&s, "g2", "royal_guard", 1);
    assert_int_equal(wct_zone(&s, 1, WC_SUPPLY, "royal_guard"), 2);

    expect_decision(&s, WC_DECIDE_BERSERKER, 0);
    wct_play(&s, "attack berserker f2 x g2");
    expect_stack(&s, "f2", "berserker", 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "berserker"), 2);

    expect_decision(&s, WC_DECIDE_GUARD, 1);
    wct_play(&s, "guard unit");
    expect_stack(&s, "g2", NULL, 0);
    assert_int_equal(wct_zone(&s, 1, WC_REMOVED, "royal_guard"), 3);

    /* One Berserker coin left: no offer; the turn passes. */
    expect_decision(&s, WC_DECIDE_TURN, 1);
    assert_int_equal(s.turn, 1);
    assert_int_equal(wct_zone(&s, 0, WC_DISCARD_UP, "marshall"), 1);
}

/* A 2-coin Swordsman survives the Pikeman's counter and still steps; the
 * Marshall's grant reaches it. */
static void test_granted_swordsman_survives_pikeman_and_steps(void **state)
{
    wc_state s;
    wct_position(&s, "marshall swordsman", "pikeman");
    wct_put(&s, "f4", "marshall", 1);
    wct_put(&s, "f2", "swordsman", 2);
    wct_put(&s, "f3", "pikeman", 1);
    wct_give(&s, 0, WC_HAND, "marshall");
    wct_give(&s, 1, WC_HAND, "royal");
    wct_play(&s, "tactic marshall f4 f2 x f3");
    expect_stack(&s, "f3", NULL, 0);
    expect_stack(&s, "f2", "swordsman", 1);
    assert_int_equal(wct_zone(&s, 0, WC_REMOVED, "swordsman"), 1);
    expect_decision(&s, WC_DECIDE_SWORDSMAN, 0);
    wct_play(&s, "move swordsman f2-f3");
    expect_stack(&s, "f3", "swordsman", 1);
    expect_decision(&s, WC_DECIDE_TURN, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marshall_grant_lets_the_swordsman_step_after),
        cmocka_unit_test(test_marshall_grant_makes_the_priest_draw_and_decide),
        cmocka_unit_test(test_teammates_priest_draws_from_its_owners_bag),
        cmocka_unit_test(test_priest_with_empty_bag_and_discard_draws_nothing),
        cmocka_unit_test(test_priest_refills_an_empty_bag_from_the_whole_discard),
        cmocka_unit_test(test_priest_chains_attacks_with_its_own_drawn_coins),
        cmocka_unit_test(test_priest_drawn_coin_recruits_a_mercenary_which_maneuvers),
        cmocka_unit_test(test_lone_knight_attacking_a_pikeman_is_destroyed),
        cmocka_unit_test(test_pikeman_counter_hits_a_knight_granted_an_attack),
        cmocka_unit_test(test_pikeman_counter_on_royal_guard_skips_the_supply_choice),
        cmocka_unit_test(test_royal_guard_with_empty_supply_loses_a_unit_coin_at_once),
        cmocka_unit_test(test_royal_guard_defender_pays_from_supply_then_attacker_resumes),
        cmocka_unit_test(test_royal_guard_defender_pays_from_unit_then_attacker_resumes),
        cmocka_unit_test(test_berserker_chains_until_one_coin_is_left),
        cmocka_unit_test(test_berserker_extra_attack_on_a_knight_counts_height_after_paying),
        cmocka_unit_test(test_marshall_berserker_royal_guard_nesting),
        cmocka_unit_test(test_granted_swordsman_survives_pikeman_and_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

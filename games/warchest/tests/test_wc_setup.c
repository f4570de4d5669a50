/*
 * test_wc_setup.c - the start of a game: dealt units (rulebook, Set Up),
 * the draft (Advanced Set Up; units.md, Draft), the first game and the
 * three famous battles exactly as the rulebook lists them, options that
 * are refused and why, the round limit's draw, and determinism: the same
 * options and seed give the same state, byte for byte.
 */
#include <string.h>
#include "wct.h"

#define BIT(h) ((wc_mask)1 << (h))

static wc_action legal[WC_MAX_ACTIONS];

static int zone_total(const wc_state *s, int seat, int zone)
{
    int n = 0;
    for (int c = 0; c < WC_NCOINS; c++)
        n += s->coins[seat][zone][c];
    return n;
}

static int units_of(const wc_state *s, int seat)
{
    int n = 0;
    for (int u = 0; u < WC_NUNITS; u++)
        n += s->unit_owner[u] == seat;
    return n;
}

static wc_mask hexes(const char *a, const char *b, const char *c)
{
    return BIT(wct_hex(a)) | BIT(wct_hex(b)) | (c ? BIT(wct_hex(c)) : 0);
}

/* What every game looks like once the units are known and round 1 has
 * been drawn: per owned unit 2 coins went in the bag with the Royal Coin,
 * the rest to supply; each seat then drew 3; start markers placed; the
 * initiative holder acts first. */
static void expect_round_one(const wc_state *s, int per_seat)
{
    assert_null(wc_check(s));
    assert_int_equal(s->phase, WC_PHASE_PLAY);
    assert_int_equal(s->round, 1);
    assert_int_equal(wc_decision(s), WC_DECIDE_TURN);
    assert_int_equal(wc_to_move(s), s->initiative);
    assert_int_equal(s->turn, s->initiative);
    assert_int_equal(s->claimed, 0);
    assert_int_equal(s->occupied, 0);
    if (s->nseats == 2) {
        assert_int_equal(s->markers, 6);
        assert_true(s->control[0] == hexes("e2", "h1", NULL));
        assert_true(s->control[1] == hexes("d7", "g6", NULL));
    } else {
        assert_int_equal(s->markers, 8);
        assert_true(s->control[0] == hexes("e2", "h1", "b5"));
        assert_true(s->control[1] == hexes("d7", "g6", "j3"));
    }
    int owned = 0;
    for (int seat = 0; seat < s->nseats; seat++) {
        assert_int_equal(units_of(s, seat), per_seat);
        owned += per_seat;
        assert_int_equal(zone_total(s, seat, WC_HAND), 3);
        assert_int_equal(zone_total(s, seat, WC_BAG), 2 * per_seat + 1 - 3);
        assert_int_equal(zone_total(s, seat, WC_DISCARD_UP), 0);
        assert_int_equal(zone_total(s, seat, WC_DISCARD_DOWN), 0);
        assert_int_equal(zone_total(s, seat, WC_REMOVED), 0);
        assert_int_equal(s->coins[seat][WC_BAG][WC_ROYAL] + s->coins[seat][WC_HAND][WC_ROYAL], 1);
        for (int u = 0; u < WC_NUNITS; u++) {
            const uint8_t (*z)[WC_NCOINS] = s->coins[seat];
            if (s->unit_owner[u] == seat) {
                assert_int_equal(z[WC_BAG][u] + z[WC_HAND][u], 2);
                assert_int_equal(z[WC_SUPPLY][u], wc_unit_coin_total(u) - 2);
            } else {
                for (int zone = 0; zone < WC_NZONES; zone++)
                    assert_int_equal(z[zone][u], 0);
            }
        }
    }
    int unowned = 0;
    for (int u = 0; u < WC_NUNITS; u++)
        unowned += s->unit_owner[u] == WC_NONE;
    assert_int_equal(unowned, WC_NUNITS - owned);
}

/* ---- Dealt -------------------------------------------------------------- */

/* Rulebook: deal 4 cards to each player; 2 coins of each into the bag with
 * the Royal Coin (9), the rest to supply; flip for the initiative. */
static void test_dealt_gives_four_units_each_and_draws_three(void **state)
{
    wc_options o;
    wc_options_default(&o);
    int first[2] = { 0, 0 }, deals_differ = 0;
    wc_state s, s1;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        assert_null(wc_init(&s, &o, seed));
        expect_round_one(&s, 4);
        first[s.initiative]++;
        if (seed == 1)
            s1 = s;
        else if (memcmp(s.unit_owner, s1.unit_owner, sizeof s.unit_owner) != 0)
            deals_differ = 1;
    }
    assert_true(first[0] > 0 && first[1] > 0);      /* a coin flip */
    assert_true(deals_differ);
}

/* Four players: 3 units each, 7 coins in each bag; team markers. */
static void test_dealt_four_players_gives_three_units_each(void **state)
{
    wc_options o;
    wc_options_default(&o);
    o.players = 4;
    int first[4] = { 0 };
    for (uint64_t seed = 1; seed <= 80; seed++) {
        wc_state s;
        assert_null(wc_init(&s, &o, seed));
        assert_int_equal(s.nseats, 4);
        expect_round_one(&s, 3);
        first[s.initiative]++;
    }
    assert_true(first[0] && first[1] && first[2] && first[3]);
}

/* ---- Draft -------------------------------------------------------------- */

/* Plays a whole draft, checking each pick: the seat `order` names (from
 * s->draft_first) decides; it may take exactly the cards still on the
 * table; the card becomes its unit and leaves the pool. */
static void run_draft(wc_state *s, const uint8_t *order, int picks, int choose)
{
    uint16_t pool = s->draft_pool;
    assert_int_equal(__builtin_popcount(pool), picks);
    for (int u = 0; u < WC_NUNITS; u++)
        assert_int_equal(s->unit_owner[u], WC_NONE);
    for (int k = 0; k < picks; k++) {
        int seat = (s->draft_first + order[k]) % s->nseats;
        assert_int_equal(s->phase, WC_PHASE_DRAFT);
        assert_int_equal(wc_decision(s), WC_DECIDE_DRAFT);
        assert_int_equal(wc_to_move(s), seat);
        int n = wc_legal_actions(s, legal);
        assert_int_equal(n, picks - k);
        uint16_t offered = 0;
        for (int i = 0; i < n; i++) {
            assert_int_equal(legal[i].kind, WC_ACT_PICK);
            offered |= (uint16_t)(1u << legal[i].unit);
        }
        assert_int_equal(offered, s->draft_pool);
        wc_action a = legal[(choose + k) % n];
        wc_apply(s, &a);
        assert_null(wc_check(s));
        assert_int_equal(s->unit_owner[a.unit], seat);
        assert_false(s->draft_pool & (1u << a.unit));
    }
    for (int u = 0; u < WC_NUNITS; u++)
        assert_int_equal(s->unit_owner[u] != WC_NONE, (pool >> u) & 1);
}

/* units.md, Draft: 8 cards; A B B A A B B A; the seat that picked second
 * starts with the initiative. Both seats get to draft first over seeds. */
static void test_draft_two_players_picks_abbaabba_second_picker_starts(void **state)
{
    static const uint8_t order[8] = { 0, 1, 1, 0, 0, 1, 1, 0 };
    wc_options o;
    wc_options_default(&o);
    o.setup = WC_SETUP_DRAFT;
    int first[2] = { 0, 0 };
    for (uint64_t seed = 1; seed <= 40; seed++) {
        wc_state s;
        assert_null(wc_init(&s, &o, seed));
        assert_null(wc_check(&s));
        first[s.draft_first]++;
        run_draft(&s, order, 8, (int)seed);
        assert_int_equal(s.initiative, 1 - s.draft_first);
        expect_round_one(&s, 4);
    }
    assert_true(first[0] > 0 && first[1] > 0);
}

/* units.md, Draft: 12 cards; 1 2 3 4 4 3 2 1 2 3 4 1 clockwise from the
 * first drafter; 3 units each. */
static void test_draft_four_players_snakes_round_the_table(void **state)
{
    static const uint8_t order[12] = { 0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0 };
    wc_options o;
    wc_options_default(&o);
    o.players = 4;
    o.setup = WC_SETUP_DRAFT;
    int first[4] = { 0 };
    for (uint64_t seed = 1; seed <= 40; seed++) {
        wc_state s;
        assert_null(wc_init(&s, &o, seed));
        first[s.draft_first]++;
        run_draft(&s, order, 12, (int)seed);
        expect_round_one(&s, 3);
    }
    assert_true(first[0] && first[1] && first[2] && first[3]);
}

/* ---- Fixed set-ups ------------------------------------------------------ */

struct battle {
    const char *name, *units[2];
    int initiative;     /* WC_NONE: the rulebook says nothing, so a flip */
};

/* Rulebook: "For your first game" (player A starts with the initiative)
 * and "Set Ups Inspired by Famous Battles", each side in the order listed. */
static const struct battle battles[] = {
    { "first-game", { "swordsman pikeman crossbowman light_cavalry",
                      "archer cavalry lancer scout" }, 0 },
    { "gaugamela", { "knight light_cavalry pikeman marshall",
                     "cavalry footman mercenary royal_guard" }, WC_NONE },
    { "bannockburn", { "archer cavalry lancer footman",
                       "light_cavalry pikeman warrior_priest swordsman" }, WC_NONE },
    { "crecy", { "archer ensign knight royal_guard",
                 "cavalry crossbowman lancer scout" }, WC_NONE },
};

/* The set of units named by a space-separated list, as a bit mask. */
static unsigned unit_set(const char *list)
{
    unsigned m = 0;
    char word[32];
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, " ");
        memcpy(word, p, len);
        word[len] = 0;
        int u = wc_coin_by_name(word);
        assert_true(u >= 0 && u < WC_NUNITS);
        m |= 1u << u;
        p += len + (p[len] == ' ');
    }
    return m;
}

static void test_presets_match_the_rulebook(void **state)
{
    for (size_t b = 0; b < sizeof battles / sizeof battles[0]; b++) {
        wc_options o;
        wc_options_default(&o);
        assert_int_equal(wc_options_preset(&o, battles[b].name), 0);
        assert_null(wc_options_invalid(&o));
        assert_int_equal(o.players, 2);
        assert_int_equal(o.setup, WC_SETUP_FIXED);
        assert_int_equal(o.initiative, battles[b].initiative);
        int starts[2] = { 0, 0 };
        for (uint64_t seed = 1; seed <= 40; seed++) {
            wc_state s;
            assert_null(wc_init(&s, &o, seed));
            expect_round_one(&s, 4);
            for (int seat = 0; seat < 2; seat++) {
                unsigned got = 0;
                for (int u = 0; u < WC_NUNITS; u++)
                    if (s.unit_owner[u] == seat)
                        got |= 1u << u;
                assert_int_equal(got, unit_set(battles[b].units[seat]));
            }
            starts[s.initiative]++;
        }
        if (battles[b].initiative == WC_NONE)
            assert_true(starts[0] > 0 && starts[1] > 0);
        else
            assert_int_equal(starts[battles[b].initiative], 40);
    }
}

static void test_unknown_preset_is_refused(void **state)
{
    wc_options o;
    wc_options_default(&o);
    assert_int_equal(wc_options_preset(&o, "hastings"), -1);
    assert_int_equal(wc_options_preset(&o, ""), -1);
    assert_int_equal(o.setup, WC_SETUP_DEALT);      /* left as it was */
}

/* ---- Invalid options ---------------------------------------------------- */

/* Each bad option is refused with a message naming the problem, and
 * wc_init refuses it with the same message. */
static void expect_refused(const wc_options *o, const char *about)
{
    const char *why = wc_options_invalid(o);
    assert_non_null(why);
    if (!strstr(why, about))
        fail_msg("'%s' does not mention '%s'", why, about);
    wc_state s;
    const char *init = wc_init(&s, o, 1);
    assert_non_null(init);
    assert_string_equal(init, why);
}

static void fixed(wc_options *o, const char *u0, const char *u1)
{
    wc_options_default(o);
    o->setup = WC_SETUP_FIXED;
    const char *lists[2] = { u0, u1 };
    for (int seat = 0; seat < 2; seat++) {
        int i = 0;
        char word[32];
        for (const char *p = lists[seat]; *p && i < 4; i++) {
            size_t len = strcspn(p, " ");
            memcpy(word, p, len);
            word[len] = 0;
            o->units[seat][i] = (uint8_t)wc_coin_by_name(word);
            p += len + (p[len] == ' ');
        }
    }
}

static void test_invalid_options_are_refused_with_a_reason(void **state)
{
    wc_options o;
    wc_options_default(&o);
    assert_null(wc_options_invalid(&o));
    o.players = 3;
    expect_refused(&o, "players");
    o.players = 0;
    expect_refused(&o, "players");

    wc_options_default(&o);
    o.setup = WC_SETUP_FIXED + 1;
    expect_refused(&o, "set-up");

    wc_options_default(&o);
    o.royal_guard = WC_GUARD_REVISED + 1;
    expect_refused(&o, "Royal Guard");

    fixed(&o, "archer knight scout footman", "cavalry lancer marshall ensign");
    assert_null(wc_options_invalid(&o));
    o.initiative = 2;                               /* no such seat */
    expect_refused(&o, "initiative");

    fixed(&o, "archer knight scout", "cavalry lancer marshall ensign");
    expect_refused(&o, "4 units");
    fixed(&o, "archer knight scout footman", "cavalry lancer marshall archer");
    expect_refused(&o, "two seats");
    fixed(&o, "archer knight scout footman", "cavalry lancer marshall royal");
    expect_refused(&o, "unknown unit");

    /* Four players take 3 units each, not 4. */
    wc_options_preset(&o, "crecy");
    o.players = 4;
    o.units[2][0] = WC_BERSERKER, o.units[2][1] = WC_FOOTMAN, o.units[2][2] = WC_MARSHALL;
    o.units[3][0] = WC_SWORDSMAN, o.units[3][1] = WC_PIKEMAN, o.units[3][2] = WC_MERCENARY;
    expect_refused(&o, "3 units");
    o.units[0][3] = o.units[1][3] = WC_NONE;
    assert_null(wc_options_invalid(&o));
}

/* ---- Round limit -------------------------------------------------------- */

/* Plays "pass" with every coin until the game ends or `rounds` are over. */
static void pass_until(wc_state *s, int rounds)
{
    while (!wc_is_over(s) && s->round <= rounds) {
        int n = wc_legal_actions(s, legal), i = 0;
        while (i < n && legal[i].kind != WC_ACT_PASS)
            i++;
        assert_true(i < n);                         /* pass is always legal */
        wc_apply(s, &legal[i]);
        assert_null(wc_check(s));
    }
}

/* units.md: after the configured number of rounds the game is a draw,
 * and the record says why. */
static void test_round_limit_ends_the_game_in_a_draw(void **state)
{
    wc_options o;
    wc_options_default(&o);
    assert_int_equal(o.round_limit, 100);
    o.round_limit = 3;
    wc_state s;
    assert_null(wc_init(&s, &o, 5));
    pass_until(&s, 2);
    assert_false(wc_is_over(&s));
    assert_int_equal(s.round, 3);
    pass_until(&s, 3);
    assert_true(wc_is_over(&s));
    assert_int_equal(s.round, 3);
    assert_int_equal(s.end_reason, WC_END_ROUND_LIMIT);
    assert_int_equal(s.winner, WC_NONE);
    assert_int_equal(wc_to_move(&s), -1);
    assert_int_equal(wc_decision(&s), WC_DECIDE_NONE);
    assert_int_equal(wc_legal_actions(&s, legal), 0);
}

/* A limit of 0 means none. */
static void test_round_limit_zero_means_no_limit(void **state)
{
    wc_options o;
    wc_options_default(&o);
    o.round_limit = 0;
    assert_null(wc_options_invalid(&o));
    wc_state s;
    assert_null(wc_init(&s, &o, 5));
    pass_until(&s, 150);
    assert_false(wc_is_over(&s));
    assert_int_equal(s.round, 151);
}

/* ---- Determinism -------------------------------------------------------- */

/* Same options and seed: the same state byte for byte, the same hash, and
 * still so after the same actions. Another seed: another game. */
static void test_same_seed_gives_the_same_state(void **state)
{
    wc_options opts[4];
    wc_options_default(&opts[0]);
    wc_options_default(&opts[1]);
    opts[1].setup = WC_SETUP_DRAFT;
    wc_options_default(&opts[2]);
    wc_options_preset(&opts[2], "gaugamela");
    wc_options_default(&opts[3]);
    opts[3].players = 4;
    for (int i = 0; i < 4; i++) {
        wc_state a, b, c;
        assert_null(wc_init(&a, &opts[i], 1234));
        assert_null(wc_init(&b, &opts[i], 1234));
        assert_null(wc_init(&c, &opts[i], 1235));
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(wc_hash(&a) == wc_hash(&b));
        assert_true(wc_hash(&a) != wc_hash(&c));
        for (int k = 0; k < 40 && !wc_is_over(&a); k++) {
            int n = wc_legal_actions(&a, legal);
            wc_action act = legal[(k * 7) % n];
            assert_true(wc_is_legal(&b, &act));
            wc_apply(&a, &act);
            wc_apply(&b, &act);
        }
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(wc_hash(&a) == wc_hash(&b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dealt_gives_four_units_each_and_draws_three),
        cmocka_unit_test(test_dealt_four_players_gives_three_units_each),
        cmocka_unit_test(test_draft_two_players_picks_abbaabba_second_picker_starts),
        cmocka_unit_test(test_draft_four_players_snakes_round_the_table),
        cmocka_unit_test(test_presets_match_the_rulebook),
        cmocka_unit_test(test_unknown_preset_is_refused),
        cmocka_unit_test(test_invalid_options_are_refused_with_a_reason),
        cmocka_unit_test(test_round_limit_ends_the_game_in_a_draw),
        cmocka_unit_test(test_round_limit_zero_means_no_limit),
        cmocka_unit_test(test_same_seed_gives_the_same_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

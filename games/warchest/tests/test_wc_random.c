/*
 * test_wc_random.c - the game harness's checks (games/tests/), then War
 * Chest's properties over many random games: invariants after every
 * action, termination, determinism, notation round trips for every
 * legal action met, that everything a legal action names is its mover's
 * to use, and hidden information for every seat at every kind of decision.
 *
 *   test_wc_random [--long]
 *
 * The plain run plays 1,000 2-player games, a quarter as many drafted
 * with the revised Royal Guard, and half as many 4-player games dealt and
 * again drafted; --long (or ARENA_TEST_LONG=1, as `scripts/test.sh --long`
 * sets) plays ten times as many. WC_TEST_GAMES overrides the 2-player
 * count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game_harness.h"
#include "wc_game.h"
#include "wct.h"
#include "wc_rng.h"

static int base_games = 1000;

static int games_wanted(int fallback)
{
    const char *env = getenv("WC_TEST_GAMES");
    int n = env ? atoi(env) : 0;
    return n > 0 ? n : fallback;
}

/* First, what every game must pass (games/tests/game_harness.h), through
 * game.h: War Chest's own properties follow, through the engine's API.
 * 10 games at each seat count, scaled by WC_TEST_GAMES as the rest is. */
static void test_the_game_harness(void **state)
{
    game_harness_check(&game_warchest, (games_wanted(1000) + 99) / 100);
}

static wc_action legal[WC_MAX_ACTIONS];

static void check_notation(const wc_action *all, int n)
{
    char text[64], again[64];
    for (int i = 0; i < n; i++) {
        wc_action back;
        wc_action_format(&all[i], text, sizeof text);
        if (wc_action_parse(text, &back) < 0)
            fail_msg("'%s' does not parse", text);
        if (!wc_action_equal(&back, &all[i]))
            fail_msg("'%s' parses to another action", text);
        wc_action_format(&back, again, sizeof again);
        assert_string_equal(text, again);
        for (int j = 0; j < i; j++)
            if (wc_action_equal(&all[i], &all[j]))
                fail_msg("'%s' listed twice", text);
    }
}

#define REQUIRE(cond, a, why)                                                      \
    do {                                                                         \
        if (!(cond)) {                                                           \
            char text_[64];                                                      \
            wc_action_format(a, text_, sizeof text_);                            \
            fail_msg("seat %d may play '%s', but %s", seat, text_, why);         \
        }                                                                        \
    } while (0)

static int owner_at(const wc_state *s, int hex)
{
    return s->hex_unit[hex] == WC_NONE ? WC_NONE : s->unit_owner[s->hex_unit[hex]];
}

/* Everything a legal action names is its mover's to use: the coin it pays
 * is in the mover's hand and is its own (the Royal Coin, or a coin of one
 * of its units), or it is the Warrior Priest's drawn coin; the unit that
 * acts is the mover's, and the one the coin names; an ally it moves or
 * lends an attack to is on the mover's side (a teammate's, with 4
 * players); a target is the other side's; a destination is an empty hex in
 * play; a recruit comes from the mover's own supply; a Royal Guard choice
 * is made by the attacked Guard's owner. */
static void check_owner(const wc_state *s, const wc_action *all, int n)
{
    int seat = wc_to_move(s), side = wc_side_of(s, seat);
    const wc_frame *top = s->nframes ? &s->frames[s->nframes - 1] : NULL;
    int coin_play = !top || top->kind == WC_FRAME_PRIEST;
    assert_true(!top || top->seat == seat);
    for (int i = 0; i < n; i++) {
        const wc_action *a = &all[i];
        if (s->phase == WC_PHASE_DRAFT) {
            REQUIRE(a->kind == WC_ACT_PICK && a->unit < WC_NUNITS &&
                    (s->draft_pool & (1u << a->unit)), a, "it is no card on the table");
            continue;
        }
        int acting = WC_NONE;          /* the unit the coin makes act */
        if (coin_play) {
            REQUIRE(a->coin < WC_NCOINS, a, "it pays no coin");
            REQUIRE(s->coins[seat][WC_HAND][a->coin] > 0, a, "the coin is not in its hand");
            REQUIRE(a->coin == WC_ROYAL || s->unit_owner[a->coin] == seat, a,
                    "the coin is another seat's");
            REQUIRE(!top || a->coin == top->arg, a, "the Priest drew another coin");
            acting = a->coin == WC_ROYAL ? WC_ROYAL_GUARD : a->coin;
        } else if (top->kind != WC_FRAME_GUARD) {
            acting = top->unit;
        }
        if (a->at != WC_NONE) {
            REQUIRE(owner_at(s, a->at) == seat, a, "the unit that acts is not its own");
            REQUIRE(s->hex_unit[a->at] == acting, a, "the unit that acts is not the coin's");
            REQUIRE(coin_play || a->at == top->hex ||
                    (top->kind == WC_FRAME_FOOTMAN && a->at == top->arg),
                    a, "the unit that acts is not the pending one");
        }
        if (a->from != WC_NONE)
            REQUIRE(owner_at(s, a->from) != WC_NONE &&
                    wc_side_of(s, owner_at(s, a->from)) == side, a, "the ally is the enemy's");
        if (a->target != WC_NONE)
            REQUIRE(owner_at(s, a->target) != WC_NONE &&
                    wc_side_of(s, owner_at(s, a->target)) != side, a, "the target is a friend");
        if (a->to != WC_NONE)
            REQUIRE(a->to < WC_NHEX && (s->area & ~s->occupied & ((wc_mask)1 << a->to)), a,
                    "the destination is no empty hex in play");
        if (a->kind == WC_ACT_RECRUIT)
            REQUIRE(a->unit < WC_NUNITS && s->unit_owner[a->unit] == seat &&
                    s->coins[seat][WC_SUPPLY][a->unit] > 0, a, "the recruit is not its supply's");
        if (a->kind == WC_ACT_GUARD_SUPPLY || a->kind == WC_ACT_GUARD_UNIT)
            REQUIRE(top && top->kind == WC_FRAME_GUARD &&
                    s->hex_unit[top->hex] == WC_ROYAL_GUARD && owner_at(s, top->hex) == seat,
                    a, "the attacked Royal Guard is not its own");
    }
}

/* A seat sees its own hidden coins, the Priest's coin included. */
static void check_own_view(const wc_state *s, int seat, const wc_observation *o)
{
    assert_memory_equal(o->hand, s->coins[seat][WC_HAND], WC_NCOINS);
    assert_memory_equal(o->bag, s->coins[seat][WC_BAG], WC_NCOINS);
    assert_memory_equal(o->discard_down, s->coins[seat][WC_DISCARD_DOWN], WC_NCOINS);
    if (s->nframes && s->frames[s->nframes - 1].kind == WC_FRAME_PRIEST) {
        const wc_frame *top = &s->frames[s->nframes - 1];
        if (top->seat == seat && o->pending.arg != top->arg)
            fail_msg("seat %d does not see the coin its Priest drew", seat);
        if (top->seat != seat && o->pending.arg != WC_HIDDEN)
            fail_msg("seat %d sees the coin seat %d's Priest drew", seat, top->seat);
    }
}

/* Decisions met, by kind (WC_DECIDE_*), where hidden information was checked. */
static long hidden_checked[WC_DECIDE_FOOTMAN + 1];

/* For each seat B: B's hidden coins (hand, bag, face-down discards, a coin
 * held in a pending step) dealt afresh, and every future draw changed,
 * leave every other seat's observation byte for byte the same. */
static void check_hidden(const wc_state *s, wc_rng *g)
{
    for (int seat = 0; seat < s->nseats; seat++) {
        wc_observation own;
        wc_observe(s, seat, &own);
        check_own_view(s, seat, &own);
    }
    for (int other = 0; other < s->nseats; other++) {
        wc_state changed = *s;
        wc_scramble_hidden(&changed, other, g);
        changed.rng.state ^= 0x9e3779b97f4a7c15ULL;   /* future draws too */
        for (int seat = 0; seat < s->nseats; seat++) {
            if (seat == other)
                continue;
            wc_observation a, b;
            wc_observe(s, seat, &a);
            wc_observe(&changed, seat, &b);
            /* wc_observe zeroes the whole struct, padding included. */
            if (memcmp(&a, &b, sizeof a) != 0) // NOLINT(bugprone-suspicious-memory-comparison)
                fail_msg("seat %d's view changes with seat %d's hidden coins", seat, other);
        }
    }
    hidden_checked[wc_decision(s)]++;
}

struct mix { int players, setup, guard, games; };

static void run_games(const struct mix *m, uint64_t first_seed)
{
    wc_options o;
    wc_options_default(&o);
    o.players = (uint8_t)m->players;
    o.setup = (uint8_t)m->setup;
    o.royal_guard = (uint8_t)m->guard;
    static wc_action log[1 << 14];
    wc_rng hidden_rng;
    wc_rng_seed(&hidden_rng, first_seed, 99);
    for (int g = 0; g < m->games; g++) {
        uint64_t seed = first_seed + (uint64_t)g;
        wc_state s;
        wc_rng chooser;
        wc_rng_seed(&chooser, seed, 3);
        assert_null(wc_init(&s, &o, seed));
        assert_null(wc_check(&s));
        int n = 0;
        uint64_t mid_hash = 0;
        while (!wc_is_over(&s)) {
            int k = wc_legal_actions(&s, legal);
            assert_true(k > 0 && k <= WC_MAX_ACTIONS);
            check_notation(legal, k);
            check_owner(&s, legal, k);
            if (g < 300 || n % 16 == 0 || wc_decision(&s) != WC_DECIDE_TURN)
                check_hidden(&s, &hidden_rng);
            wc_action a = legal[wc_rng_below(&chooser, (uint32_t)k)];
            wc_apply(&s, &a);
            const char *why = wc_check(&s);
            if (why) {
                char text[64];
                wc_action_format(&a, text, sizeof text);
                fail_msg("seed %llu, action %d '%s': %s", (unsigned long long)seed, n, text, why);
            }
            assert_true(n < (int)(sizeof log / sizeof log[0]));
            log[n++] = a;
            if (n == 100)
                mid_hash = wc_hash(&s);
            assert_true(s.round <= o.round_limit);   /* so it terminates */
        }
        assert_int_equal(wc_legal_actions(&s, legal), 0);
        assert_int_equal(wc_to_move(&s), -1);
        assert_true(s.end_reason == WC_END_MARKERS || s.end_reason == WC_END_ROUND_LIMIT);
        if (s.end_reason == WC_END_MARKERS)
            assert_int_equal(wc_popcount(s.control[s.winner]), s.markers);
        else
            assert_int_equal(s.winner, WC_NONE);

        /* The same seed and actions give the same game. */
        wc_state r;
        wc_init(&r, &o, seed);
        for (int i = 0; i < n; i++) {
            assert_true(wc_is_legal(&r, &log[i]));
            wc_apply(&r, &log[i]);
            if (i + 1 == 100)
                assert_true(wc_hash(&r) == mid_hash);
        }
        assert_true(wc_hash(&r) == wc_hash(&s));
        assert_memory_equal(&r.coins, &s.coins, sizeof r.coins);
    }
}

static int decisions_unchecked(void)
{
    int missing = 0;
    for (int d = WC_DECIDE_DRAFT; d <= WC_DECIDE_FOOTMAN; d++)
        missing += hidden_checked[d] == 0;
    return missing;
}

static void test_two_player_dealt(void **state)
{
    struct mix m = { 2, WC_SETUP_DEALT, WC_GUARD_2018, games_wanted(base_games) };
    run_games(&m, 1);
}

static void test_two_player_draft_revised_guard(void **state)
{
    struct mix m = { 2, WC_SETUP_DRAFT, WC_GUARD_REVISED, games_wanted(base_games) / 4 };
    run_games(&m, 100001);
}

static void test_four_player(void **state)
{
    struct mix m = { 4, WC_SETUP_DEALT, WC_GUARD_2018, games_wanted(base_games) / 2 };
    run_games(&m, 200001);
    m.setup = WC_SETUP_DRAFT;
    run_games(&m, 300001);
}

/* The properties above covered every kind of decision, coins held in
 * pending steps included: the games played so far (fewer under valgrind)
 * are topped up, drafted 4-player games being the richest, until each
 * kind was met, within a bound. */
static void test_every_kind_of_decision_checked(void **state)
{
    struct mix m = { 4, WC_SETUP_DRAFT, WC_GUARD_2018, 10 };
    for (uint64_t seed = 400001; decisions_unchecked() && seed < 402001; seed += 10)
        run_games(&m, seed);
    for (int d = WC_DECIDE_DRAFT; d <= WC_DECIDE_FOOTMAN; d++)
        if (!hidden_checked[d])
            fail_msg("no '%s' decision met in 2,000 more games", wc_decision_name(d));
}

/* Someone wins sometimes: random play is not all draws. */
static void test_random_games_are_decided(void **state)
{
    wc_options o;
    wc_options_default(&o);
    int wins[3] = { 0, 0, 0 };
    for (uint64_t seed = 1; seed <= 400; seed++) {
        wc_state s;
        wc_rng chooser;
        wc_rng_seed(&chooser, seed, 3);
        wc_init(&s, &o, seed);
        while (!wc_is_over(&s)) {
            int k = wc_legal_actions(&s, legal);
            wc_apply(&s, &legal[wc_rng_below(&chooser, (uint32_t)k)]);
        }
        wins[s.winner == WC_NONE ? 2 : s.winner]++;
    }
    assert_true(wins[0] > 0 && wins[1] > 0 && wins[2] > 0);
}

/* Same seed: same deal, same hash; other seed: another deal. */
static void test_seed_determines_the_deal(void **state)
{
    wc_options o;
    wc_options_default(&o);
    wc_state a, b, c;
    wc_init(&a, &o, 42);
    wc_init(&b, &o, 42);
    wc_init(&c, &o, 43);
    assert_true(wc_hash(&a) == wc_hash(&b));
    assert_memory_equal(a.unit_owner, b.unit_owner, sizeof a.unit_owner);
    assert_true(wc_hash(&a) != wc_hash(&c));
    /* A plain struct copy is a full, independent game. */
    wc_state copy = a;
    int k = wc_legal_actions(&copy, legal);
    wc_apply(&copy, &legal[k - 1]);
    assert_true(wc_hash(&copy) != wc_hash(&a));
    assert_true(wc_hash(&a) == wc_hash(&b));
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--long") != 0) {
            fprintf(stderr, "usage: test_wc_random [--long]\n");
            return 2;
        }
        base_games = 10000;
    }
    const char *longer = getenv("ARENA_TEST_LONG");
    if (longer && strcmp(longer, "1") == 0)
        base_games = 10000;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_game_harness),
        cmocka_unit_test(test_seed_determines_the_deal),
        cmocka_unit_test(test_random_games_are_decided),
        cmocka_unit_test(test_two_player_dealt),
        cmocka_unit_test(test_two_player_draft_revised_guard),
        cmocka_unit_test(test_four_player),
        cmocka_unit_test(test_every_kind_of_decision_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_wc_random.c - properties over many random games: invariants after
 * every action, termination, determinism, notation round trips for every
 * legal action met, and hidden information for every seat.
 *
 * WC_TEST_GAMES overrides the number of games (default 10000 for 2
 * players, 10000 for 4 players half dealt and half drafted, and a quarter
 * of that with the draft and the revised Royal Guard).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wct.h"
#include "wc_rng.h"

static int games_wanted(int fallback)
{
    const char *env = getenv("WC_TEST_GAMES");
    int n = env ? atoi(env) : 0;
    return n > 0 ? n : fallback;
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

static void check_hidden(const wc_state *s, wc_rng *g)
{
    for (int other = 0; other < s->nseats; other++) {
        wc_state changed = *s;
        wct_scramble_hidden(&changed, other, g);
        changed.rng.state ^= 0x9e3779b97f4a7c15ULL;   /* future draws too */
        for (int seat = 0; seat < s->nseats; seat++) {
            if (seat == other)
                continue;
            wc_observation a, b;
            wc_observe(s, seat, &a);
            wc_observe(&changed, seat, &b);
            if (memcmp(&a, &b, sizeof a) != 0)
                fail_msg("seat %d's view changes with seat %d's hidden coins", seat, other);
        }
    }
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
            if (g < 300 || n % 16 == 0)
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

static void test_two_player_dealt(void **state)
{
    struct mix m = { 2, WC_SETUP_DEALT, WC_GUARD_2018, games_wanted(10000) };
    run_games(&m, 1);
}

static void test_two_player_draft_revised_guard(void **state)
{
    struct mix m = { 2, WC_SETUP_DRAFT, WC_GUARD_REVISED, games_wanted(10000) / 4 };
    run_games(&m, 100001);
}

static void test_four_player(void **state)
{
    struct mix m = { 4, WC_SETUP_DEALT, WC_GUARD_2018, games_wanted(10000) / 2 };
    run_games(&m, 200001);
    m.setup = WC_SETUP_DRAFT;
    run_games(&m, 300001);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_determines_the_deal),
        cmocka_unit_test(test_random_games_are_decided),
        cmocka_unit_test(test_two_player_dealt),
        cmocka_unit_test(test_two_player_draft_revised_guard),
        cmocka_unit_test(test_four_player),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

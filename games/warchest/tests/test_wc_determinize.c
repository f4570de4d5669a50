/*
 * test_wc_determinize.c - wc_determinize, the full state a searching bot
 * builds from one seat's observation: it must show that seat exactly what
 * it saw, offer the seat the same choices, keep every invariant, depend on
 * the seed alone, and deal the other seats' hidden coins at random (every
 * coin can land in the hand), not in a fixed order.
 *
 * WC_TEST_GAMES scales the number of random games (default 300).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wct.h"
#include "wc_rng.h"

static wc_action real_moves[WC_MAX_ACTIONS], det_moves[WC_MAX_ACTIONS];

static void check_view(const wc_state *s, int seat, uint64_t seed)
{
    wc_observation o, again;
    wc_observe(s, seat, &o);
    wc_state d, twin;
    wc_determinize(&o, seed, &d);
    const char *broken = wc_check(&d);
    if (broken)
        fail_msg("determinized state breaks an invariant: %s", broken);
    wc_observe(&d, seat, &again);
    /* wc_observe zeroes the whole struct, padding included. */
    if (memcmp(&o, &again, sizeof o) != 0) // NOLINT(bugprone-suspicious-memory-comparison)
        fail_msg("seat %d sees another game in its determinization", seat);
    wc_determinize(&o, seed, &twin);
    assert_int_equal(wc_hash(&d), wc_hash(&twin));
    if (wc_to_move(s) != seat)
        return;
    int n = wc_legal_actions(s, real_moves), m = wc_legal_actions(&d, det_moves);
    assert_int_equal(n, m);
    for (int i = 0; i < n; i++)
        if (!wc_is_legal(&d, &real_moves[i]))
            fail_msg("a legal action of the mover is not legal in its determinization");
}

static void run(int players, int games)
{
    wc_options opt;
    wc_options_default(&opt);
    opt.players = (uint8_t)players;
    for (int g = 0; g < games; g++) {
        wc_state s;
        wc_rng chooser;
        wc_rng_seed(&chooser, (uint64_t)g, 5);
        assert_null(wc_init(&s, &opt, 1000 + (uint64_t)g));
        for (int step = 0; !wc_is_over(&s); step++) {
            if (step % 7 == 0)
                for (int seat = 0; seat < s.nseats; seat++)
                    check_view(&s, seat, (uint64_t)step * 31 + (uint64_t)seat);
            int n = wc_legal_actions(&s, real_moves);
            wc_apply(&s, &real_moves[wc_rng_below(&chooser, (uint32_t)n)]);
        }
    }
}

static int games_wanted(void)
{
    const char *env = getenv("WC_TEST_GAMES");
    int n = env ? atoi(env) : 0;
    return n > 0 && n < 300 ? n : 300;
}

static void consistent_2p(void **state) { (void)state; run(2, games_wanted()); }
static void consistent_4p(void **state) { (void)state; run(4, games_wanted() / 2); }

/* Seat 1 holds 3 coins in hand, 3 in its bag and 2 face down: 3 archers,
 * 4 knights and its Royal Coin. Over many seeds every kind of
 * coin reaches the hand, about as often as a fair deal would put it there. */
static void deals_at_random(void **state)
{
    (void)state;
    wc_state s;
    wct_position(&s, "swordsman pikeman", "archer knight");
    wct_give(&s, 1, WC_HAND, "archer archer knight");
    wct_give(&s, 1, WC_BAG, "knight knight");          /* the Royal Coin is there too */
    wct_give(&s, 1, WC_DISCARD_DOWN, "archer knight");
    wc_observation o;
    wc_observe(&s, 0, &o);
    int in_hand[WC_NCOINS] = { 0 }, trials = 3000;
    uint64_t first = 0;
    int differ = 0;
    for (int t = 0; t < trials; t++) {
        wc_state d;
        wc_determinize(&o, (uint64_t)t, &d);
        assert_int_equal(d.coins[1][WC_HAND][WC_ARCHER] + d.coins[1][WC_HAND][WC_KNIGHT] +
                         d.coins[1][WC_HAND][WC_ROYAL], 3);
        for (int c = 0; c < WC_NCOINS; c++)
            in_hand[c] += d.coins[1][WC_HAND][c];
        uint64_t h = wc_hash(&d);
        if (t == 0)
            first = h;
        differ += h != first;
    }
    assert_true(differ > trials / 2);
    /* A fair deal puts 3 of the 8 hidden coins in hand: on average 9/8
     * archers, 12/8 knights and 3/8 Royal Coins. */
    double archer = (double)in_hand[WC_ARCHER] / trials;
    double knight = (double)in_hand[WC_KNIGHT] / trials;
    double royal = (double)in_hand[WC_ROYAL] / trials;
    assert_true(archer > 1.05 && archer < 1.2);
    assert_true(knight > 1.42 && knight < 1.58);
    assert_true(royal > 0.33 && royal < 0.42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deals_at_random),
        cmocka_unit_test(consistent_2p),
        cmocka_unit_test(consistent_4p),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

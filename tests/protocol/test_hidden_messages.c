/*
 * test_hidden_messages.c - what the referee sends a seat is built from that
 * seat's information alone.
 *
 * Over many random games, at every decision: for each pair of seats A and
 * B, B's hidden coins (hand, bag, face-down discards, a coin held in a
 * pending step) are dealt afresh with the same counts and the generator is
 * changed, and if B played the last action face down, it played another
 * coin; every message the referee would send A now (its observation, its
 * request when A decides, the update for the last action) must be
 * byte-identical. WC_TEST_GAMES scales the number of games.
 */
#include <stdlib.h>
#include <string.h>
#include "ref_msg.h"
#include "wc_game.h"
#include "wct.h"
#include "wc.h"
#include "wc_rng.h"

static const game_api *g = &game_warchest;

static void scramble(wc_state *s, int seat, wc_rng *rng)
{
    wc_scramble_hidden(s, seat, rng);
    s->rng.state ^= wc_rng_next(rng);       /* and every future draw */
}

/* The same play with another coin if it was played face down (a claim,
 * a recruit, a pass: the rulebook's, not public_view's say, which is what
 * is under test); else the action itself. */
static game_action other_coin(game_action action, wc_rng *rng)
{
    wc_action a;
    memcpy(&a, &action, sizeof a);
    if (a.kind != WC_ACT_CLAIM && a.kind != WC_ACT_RECRUIT && a.kind != WC_ACT_PASS)
        return action;
    a.coin = (uint8_t)((a.coin + 1 + wc_rng_below(rng, WC_NCOINS - 1)) % WC_NCOINS);
    memcpy(&action, &a, sizeof a);
    return action;
}

/* Everything seat `a` would be sent now, concatenated. */
static void messages_for(const wc_state *s, int a, int have_last, game_action last,
                         int last_actor, msgpack_sbuffer *out)
{
    static game_action legal[GAME_MAX_ACTIONS];
    msgpack_packer pk;
    out->size = 0;
    msgpack_packer_init(&pk, out, msgpack_sbuffer_write);
    g->pack_observation(&pk, s, a);
    if (g->to_move(s) == a) {
        int n = g->legal(s, legal);
        ref_msg_request(out, g, s, a, 7, legal, n, (ref_clock){ 1000, 5000 });
    }
    if (have_last)
        ref_msg_update(out, g, 7, last_actor, "turn", last, a);
}

static void run(int players, int setup, int games, uint64_t first_seed)
{
    game_options *options = game_options_new(g);
    char err[256];
    assert_int_equal(game_options_set(options, "players", players == 4 ? "4" : "2", err,
                                      sizeof err), 0);
    assert_int_equal(game_options_set(options, "setup", setup == WC_SETUP_DRAFT ? "draft" : "dealt",
                                      err, sizeof err), 0);
    static game_action legal[GAME_MAX_ACTIONS];
    msgpack_sbuffer mine, theirs;
    msgpack_sbuffer_init(&mine);
    msgpack_sbuffer_init(&theirs);
    wc_rng rng;
    wc_rng_seed(&rng, first_seed, 17);
    long compared = 0;
    for (int game = 0; game < games; game++) {
        wc_state s;
        assert_null(g->init(&s, options, first_seed + (uint64_t)game));
        game_action last = 0;
        int have_last = 0, last_actor = 0;
        while (g->to_move(&s) >= 0) {
            for (int b = 0; b < s.nseats; b++) {
                wc_state other = s;
                scramble(&other, b, &rng);
                game_action other_last = b == last_actor ? other_coin(last, &rng) : last;
                for (int a = 0; a < s.nseats; a++) {
                    if (a == b)
                        continue;
                    messages_for(&s, a, have_last, last, last_actor, &mine);
                    messages_for(&other, a, have_last, other_last, last_actor, &theirs);
                    if (mine.size != theirs.size || memcmp(mine.data, theirs.data, mine.size))
                        fail_msg("game %d: seat %d's messages depend on seat %d's hidden coins",
                                 game, a, b);
                    compared++;
                }
            }
            int n = g->legal(&s, legal);
            last_actor = g->to_move(&s);
            last = legal[wc_rng_below(&rng, (uint32_t)n)];
            have_last = 1;
            g->apply(&s, last);
        }
    }
    assert_true(compared > games);
    msgpack_sbuffer_destroy(&mine);
    msgpack_sbuffer_destroy(&theirs);
    game_options_free(options);
}

static int games(int fallback)
{
    const char *env = getenv("WC_TEST_GAMES");
    int n = env ? atoi(env) / 10 : 0;
    return n > 0 ? n : fallback;
}

static void test_two_players_dealt(void **state) { run(2, WC_SETUP_DEALT, games(300), 1); }
static void test_two_players_draft(void **state) { run(2, WC_SETUP_DRAFT, games(300) / 2, 5001); }
static void test_four_players(void **state) { run(4, WC_SETUP_DEALT, games(300) / 4, 9001); }

/* The check can fail: a message that carried the hidden hand would differ. */
static void test_the_check_sees_a_leak(void **state)
{
    game_options *options = game_options_new(g);
    wc_state s, other;
    g->init(&s, options, 3);
    wc_rng rng;
    wc_rng_seed(&rng, 3, 3);
    other = s;
    scramble(&other, 1, &rng);
    msgpack_sbuffer mine, theirs;
    msgpack_sbuffer_init(&mine);
    msgpack_sbuffer_init(&theirs);
    g->pack_observation(&(msgpack_packer){ &mine, msgpack_sbuffer_write }, &s, 1);
    g->pack_observation(&(msgpack_packer){ &theirs, msgpack_sbuffer_write }, &other, 1);
    /* Seat 1's own view does show its own coins, and they moved. */
    assert_true(mine.size != theirs.size || memcmp(mine.data, theirs.data, mine.size) != 0 ||
                memcmp(s.coins[1], other.coins[1], sizeof s.coins[1]) == 0);
    msgpack_sbuffer_destroy(&mine);
    msgpack_sbuffer_destroy(&theirs);
    game_options_free(options);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_check_sees_a_leak),
        cmocka_unit_test(test_two_players_dealt),
        cmocka_unit_test(test_two_players_draft),
        cmocka_unit_test(test_four_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

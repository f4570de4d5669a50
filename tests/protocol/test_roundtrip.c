/*
 * test_roundtrip.c - War Chest's codecs beside their inverses, over random
 * games. (Every game's notation, packed actions and observations are
 * checked by the game harness, games/tests/game_harness.c.)
 *
 * War Chest's C SDK layer decodes what the referee packs (wc_unpack.c
 * beside wc_pack.c): every legal action, as its mover and as the others
 * are told it, decodes back to itself, and every seat's observation
 * decodes back into exactly that seat's observation, at every decision
 * (observations are sent while the game is on) of random 2- and 4-player
 * games, dealt and drafted, for every seat. WC_TEST_GAMES scales the games.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wct.h"
#include "wc.h"
#include "mps.h"
#include "wc_game.h"
#include "wc_pack.h"
#include "wc_rng.h"

static const game_api *g = &game_warchest;

/* The names of the fields that differ, for a readable failure. */
static void explain(const wc_observation *want, const wc_observation *got, char *buf, size_t size)
{
#define FIELD(f)                                                                  \
    if (memcmp(&want->f, &got->f, sizeof want->f))                               \
        n += snprintf(buf + n, size - (size_t)n, " " #f);
    int n = 0;
    buf[0] = 0;
    FIELD(seat) FIELD(nseats) FIELD(phase) FIELD(decision) FIELD(to_move) FIELD(turn)
    FIELD(initiative) FIELD(claimed) FIELD(winner) FIELD(end_reason) FIELD(markers)
    FIELD(royal_guard) FIELD(round) FIELD(round_limit) FIELD(draft_pool) FIELD(unit_owner)
    FIELD(area) FIELD(locations) FIELD(control) FIELD(hex_unit) FIELD(hex_coins)
    FIELD(supply) FIELD(discard_up) FIELD(removed) FIELD(bag_count) FIELD(hand_count)
    FIELD(discard_down_count) FIELD(hand) FIELD(bag) FIELD(discard_down)
    FIELD(pending.kind) FIELD(pending.seat) FIELD(pending.unit) FIELD(pending.hex)
    FIELD(pending.arg)
#undef FIELD
}

static void check_observations(const wc_state *s, msgpack_sbuffer *sb)
{
    for (int seat = 0; seat < s->nseats; seat++) {
        wc_observation want, got;
        wc_observe(s, seat, &want);
        sb->size = 0;
        msgpack_packer pk;
        msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
        g->pack_observation(&pk, s, seat);
        if (wc_unpack_observation_bytes(sb->data, sb->size, &got) < 0)
            fail_msg("seat %d's observation does not decode", seat);
        /* wc_observe and the decoder zero the whole struct, padding included. */
        if (memcmp(&want, &got, sizeof want)) { // NOLINT(bugprone-suspicious-memory-comparison)
            char diff[512];
            explain(&want, &got, diff, sizeof diff);
            fail_msg("seat %d's observation decodes with other%s", seat, diff);
        }
    }
}

/* An action packed decodes back to itself: as its mover is told it, and as
 * the others are (face-down coins hidden); War Chest's through its own
 * decoder, every game's through the notation the map carries. */
static void check_action(const game_api *game, game_action action, msgpack_sbuffer *sb)
{
    game_action views[2] = { action, game->public_view(action) };
    for (int v = 0; v < 2; v++) {
        sb->size = 0;
        msgpack_packer pk;
        msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
        game->pack_action(&pk, views[v]);
        msgpack_unpacked u;
        assert_int_equal(mps_decode(sb->data, sb->size, &u), 0);
        char text[128], want[128];
        game_action again = 0;
        game->format(views[v], want, sizeof want);
        if (mps_get_str(&u.data, "text", text, sizeof text) < 0 || strcmp(text, want))
            fail_msg("%s: '%s' is packed with another text", game->name, want);
        /* A public view may hide what its notation needs ("bid ?"). */
        if ((v == 0 || game == &game_warchest) &&
            (game->parse(text, &again) < 0 || again != views[v]))
            fail_msg("%s: '%s' parses back to another action", game->name, text);
        if (game == &game_warchest) {
            wc_action back;
            assert_int_equal(wc_unpack_action(&u.data, &back), 0);
            again = 0;
            memcpy(&again, &back, sizeof back);
            if (again != views[v])
                fail_msg("'%s' decodes to another action", want);
        }
        msgpack_unpacked_destroy(&u);
    }
}

static int games(int fallback)
{
    const char *env = getenv("WC_TEST_GAMES");
    int n = env ? atoi(env) / 10 : 0;
    return n > 0 ? n : fallback;
}

static game_options *options_for(const game_api *game, const char *players, const char *setup)
{
    game_options *o = game_options_new(game);
    char err[256];
    assert_non_null(o);
    if (players && game_options_set(o, "players", players, err, sizeof err) < 0)
        fail_msg("%s: %s", game->name, err);
    if (setup && game_options_set(o, "setup", setup, err, sizeof err) < 0)
        fail_msg("%s: %s", game->name, err);
    return o;
}

static void run(const char *players, const char *setup, int ngames, uint64_t first_seed)
{
    game_options *options = options_for(g, players, setup);
    static game_action legal[GAME_MAX_ACTIONS];
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    wc_rng rng;
    wc_rng_seed(&rng, first_seed, 23);
    for (int game = 0; game < ngames; game++) {
        wc_state s;
        assert_null(g->init(&s, options, first_seed + (uint64_t)game));
        while (g->to_move(&s) >= 0) {
            check_observations(&s, &sb);
            int n = g->legal(&s, legal);
            for (int i = 0; i < n; i++)
                check_action(g, legal[i], &sb);
            g->apply(&s, legal[wc_rng_below(&rng, (uint32_t)n)]);
        }
    }
    msgpack_sbuffer_destroy(&sb);
    game_options_free(options);
}

static void test_two_players_dealt(void **state) { run("2", "dealt", games(100), 1); }
static void test_two_players_draft(void **state) { run("2", "draft", games(100) / 2, 7001); }
static void test_four_players(void **state) { run("4", "draft", games(100) / 2, 9001); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players_dealt),
        cmocka_unit_test(test_two_players_draft),
        cmocka_unit_test(test_four_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

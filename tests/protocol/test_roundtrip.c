/*
 * test_roundtrip.c - every codec beside its inverse, over random games.
 *
 * For every game of the registry, at each seat count it declares: every
 * legal action is packed into a map whose notation parses back to it (as
 * the others are told it, into the notation of its public view), and every
 * seat's observation packs into exactly one well-formed map, the same
 * bytes each time. For War Chest, whose C SDK layer decodes observations
 * (wc_unpack.c beside wc_pack.c), what the referee packs for a seat also
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

/* Each seat's observation is one well-formed map, the same bytes twice. */
static void check_packed_observations(const game_api *game, const void *state,
                                      msgpack_sbuffer *a, msgpack_sbuffer *b)
{
    for (int seat = 0; seat < game->seats(state); seat++) {
        msgpack_sbuffer *sb[2] = { a, b };
        for (int k = 0; k < 2; k++) {
            sb[k]->size = 0;
            msgpack_packer pk;
            msgpack_packer_init(&pk, sb[k], msgpack_sbuffer_write);
            game->pack_observation(&pk, state, seat);
        }
        msgpack_unpacked u;
        if (mps_decode(a->data, a->size, &u) < 0 || u.data.type != MSGPACK_OBJECT_MAP)
            fail_msg("%s: seat %d's observation is not one msgpack map", game->name, seat);
        msgpack_unpacked_destroy(&u);
        if (a->size != b->size || memcmp(a->data, b->data, a->size))
            fail_msg("%s: seat %d's observation packs differently twice", game->name, seat);
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

/* Every game of the registry, at every seat count it declares. */
static void test_every_game(void **state)
{
    static game_action legal[GAME_MAX_ACTIONS];
    msgpack_sbuffer a, b;
    msgpack_sbuffer_init(&a);
    msgpack_sbuffer_init(&b);
    wc_rng rng;
    wc_rng_seed(&rng, 5, 29);
    assert_true(game_count() >= 2);
    for (int k = 0; k < game_count(); k++) {
        const game_api *game = game_at(k);
        for (const int *seats = game->seat_counts; *seats; seats++) {
            char players[8];
            snprintf(players, sizeof players, "%d", *seats);
            game_options *options = options_for(game, players, NULL);
            void *st = malloc(game->state_size);
            assert_non_null(st);
            for (int n = 0; n < games(100) / 5 + 1; n++) {
                assert_null(game->init(st, options, 100 + (uint64_t)n));
                while (game->to_move(st) >= 0) {
                    check_packed_observations(game, st, &a, &b);
                    int nl = game->legal(st, legal);
                    assert_true(nl > 0);
                    for (int i = 0; i < nl; i++)
                        check_action(game, legal[i], &a);
                    game->apply(st, legal[wc_rng_below(&rng, (uint32_t)nl)]);
                }
            }
            free(st);
            game_options_free(options);
        }
    }
    msgpack_sbuffer_destroy(&a);
    msgpack_sbuffer_destroy(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players_dealt),
        cmocka_unit_test(test_two_players_draft),
        cmocka_unit_test(test_four_players),
        cmocka_unit_test(test_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

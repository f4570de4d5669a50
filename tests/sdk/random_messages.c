/*
 * random_messages.c - the referee's messages of random War Chest games, for
 * the Python and JavaScript SDKs' round trip (test_sdk_random_messages).
 *
 *   random_messages SEED GAMES FILE
 *
 * Plays GAMES random games from SEED (2 players dealt, 2 drafted and 4
 * drafted, in turn) and writes, at every decision, what the referee's own
 * code (ref_msg.c) sends there: the request to the seat to move (its
 * observation and legal actions), then the updates for the action played
 * (the actor's own and another seat's public view). Each message is a
 * 4-byte big-endian length and its bytes. The SDK tests decode every one
 * and check it field by field, as they do the hand-made shared fixtures
 * (tests/sdk/fixtures); random states give the values the fixtures cannot
 * all hold. The C SDK's decoder has its own such test (test_roundtrip).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kv.h"
#include "ref_msg.h"
#include "wc.h"
#include "wc_game.h"
#include "wc_rng.h"

static const game_api *g = &game_warchest;

static void die(const char *what)
{
    fprintf(stderr, "random_messages: %s\n", what);
    exit(1);
}

static void put(FILE *out, msgpack_sbuffer *sb)
{
    unsigned char len[4] = { (unsigned char)(sb->size >> 24), (unsigned char)(sb->size >> 16),
                             (unsigned char)(sb->size >> 8), (unsigned char)sb->size };
    if (fwrite(len, 1, 4, out) != 4 || fwrite(sb->data, 1, sb->size, out) != sb->size)
        die("cannot write");
    sb->size = 0;
}

static game_options *options_for(const char *players, const char *setup)
{
    game_options *o = game_options_new(g);
    char err[256];
    if (!o || game_options_set(o, "players", players, err, sizeof err) < 0 ||
        game_options_set(o, "setup", setup, err, sizeof err) < 0)
        die("cannot set the game's options");
    return o;
}

/* One game: every decision's request and its two updates. Returns the
 * number of messages written. */
static long play(FILE *out, const game_options *options, uint64_t seed, wc_rng *rng)
{
    static game_action legal[GAME_MAX_ACTIONS];
    char decision[64];
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    wc_state s;
    if (g->init(&s, options, seed))
        die("cannot start a game");
    long written = 0;
    uint32_t id = 1;
    for (int seat; (seat = g->to_move(&s)) >= 0; id++) {
        int n = g->legal(&s, legal);
        if (n < 1)
            die("a seat to move with no legal action");
        /* Clocks of every size, so a decoder cannot mix the two up. */
        ref_clock clock = { 1 + wc_rng_below(rng, 30000), wc_rng_below(rng, 600000) };
        ref_msg_request(&sb, g, &s, seat, id, legal, n, clock);
        put(out, &sb);
        game_action action = legal[wc_rng_below(rng, (uint32_t)n)];
        snprintf(decision, sizeof decision, "%s", g->decision_name(&s));
        ref_msg_update(&sb, g, id, seat, decision, action, seat);
        put(out, &sb);
        ref_msg_update(&sb, g, id, seat, decision, action, (seat + 1) % s.nseats);
        put(out, &sb);
        written += 3;
        g->apply(&s, action);
    }
    msgpack_sbuffer_destroy(&sb);
    return written;
}

int main(int argc, char **argv)
{
    uint64_t seed, ngames;
    if (argc != 4 || kv_u64(argv[1], &seed) < 0 || kv_u64(argv[2], &ngames) < 0 ||
        ngames > 10000) {
        fprintf(stderr, "usage: random_messages SEED GAMES FILE (GAMES up to 10000)\n");
        return 2;
    }
    FILE *out = fopen(argv[3], "wb");
    if (!out)
        die("cannot open the output file");
    static const char *const shapes[][2] = { { "2", "dealt" }, { "2", "draft" }, { "4", "draft" } };
    game_options *options[3];
    for (int k = 0; k < 3; k++)
        options[k] = options_for(shapes[k][0], shapes[k][1]);
    wc_rng rng;
    wc_rng_seed(&rng, seed, 41);
    long written = 0;
    for (uint64_t k = 0; k < ngames; k++)
        written += play(out, options[k % 3], seed + k, &rng);
    for (int k = 0; k < 3; k++)
        game_options_free(options[k]);
    if (fclose(out))
        die("cannot write");
    printf("random_messages: seed %" PRIu64 ", %" PRIu64 " games, %ld messages\n", seed, ngames,
           written);
    return 0;
}

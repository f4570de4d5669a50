/*
 * gs_game.c - Goofspiel behind the game interface (game.h): its
 * declaration and options, a bid as a 64-bit action, and what each seat is
 * sent, in the msgpack shapes sdk/PROTOCOL.md section 12 documents.
 *
 * What a seat sees is built here from the state and the seat alone, and
 * leaves out what that seat may not know: the prize deck's order, the
 * bids of the round in progress (its own aside) and, with reveal=winner,
 * every other seat's bids and hand. Equal views give equal bytes.
 */
#include <stdio.h>
#include <string.h>
#include <msgpack.h>
#include "game.h"
#include "gs.h"
#include "gs_game.h"
#include "mpw.h"

/* ---- the declaration ---------------------------------------------------- */

enum { OPT_PLAYERS, OPT_CARDS, OPT_PRIZES, OPT_TIE, OPT_REVEAL, NOPTIONS };

static const char *const prize_orders[] = { "random", "ascending", "descending", NULL };
static const char *const tie_rules[] = { "discard", "split", NULL };
static const char *const reveal_rules[] = { "bids", "winner", NULL };

static const game_option declared[NOPTIONS] = {
    [OPT_PLAYERS] = { "players", GAME_OPT_INT, "2", 2, GS_MAX_SEATS, NULL,
                      "seats, each bidding for itself", GAME_OPT_SHOWN, NULL },
    [OPT_CARDS] = { "cards", GAME_OPT_INT, "13", 1, GS_MAX_CARDS, NULL,
                    "cards in each hand and in the prize deck: rounds", GAME_OPT_SHOWN, NULL },
    [OPT_PRIZES] = { "prizes", GAME_OPT_CHOICE, "random", 0, 0, prize_orders,
                     "the prize deck: shuffled face down, or in order", GAME_OPT_SHOWN, NULL },
    [OPT_TIE] = { "tie", GAME_OPT_CHOICE, "discard", 0, 0, tie_rules,
                  "equal highest bids: the prize is lost, or shared", GAME_OPT_SHOWN, NULL },
    [OPT_REVEAL] = { "reveal", GAME_OPT_CHOICE, "bids", 0, 0, reveal_rules,
                     "after a round, every bid is shown, or only who won", GAME_OPT_SHOWN, NULL },
};

static const int seat_counts[] = { 2, 3, 4, 0 };

/* ---- the interface ------------------------------------------------------ */

static const char *init(void *state, const game_options *o, uint64_t seed)
{
    gs_options opt;
    gs_options_default(&opt);
    opt.players = (uint8_t)game_option_int(o, OPT_PLAYERS);
    opt.cards = (uint8_t)game_option_int(o, OPT_CARDS);
    opt.prizes = (uint8_t)game_option_int(o, OPT_PRIZES);
    opt.tie = (uint8_t)game_option_int(o, OPT_TIE);
    opt.reveal = (uint8_t)game_option_int(o, OPT_REVEAL);
    return gs_init(state, &opt, seed);
}

static int seats(const void *state) { return ((const gs_state *)state)->opt.players; }
static int team_of(const void *state, int seat) { return seat; }

static int to_move(const void *state)
{
    const gs_state *s = state;
    return gs_is_over(s) ? -1 : s->to_move;
}

static const char *decision_name(const void *state) { return "bid"; }

static int legal(const void *state, game_action *out)
{
    uint8_t cards[GS_MAX_CARDS];
    int n = gs_legal(state, cards);
    for (int i = 0; i < n; i++)
        out[i] = cards[i];
    return n;
}

static void apply(void *state, game_action a) { gs_apply(state, (int)a); }
static game_action public_view(game_action a) { return 0; }    /* "bid ?" */

/* A bid is shown to every seat once its round is settled, unless only
 * winners are (reveal=winner). A seat bids each card once. */
static int revealed(const void *state, int seat, int actor, game_action a)
{
    const gs_state *s = state;
    if (seat == actor)
        return 1;
    if (s->opt.reveal != GS_REVEAL_BIDS)
        return 0;
    for (int r = 0; r < s->round; r++)
        if (s->bid[r][actor] == a)
            return 1;
    return 0;
}
static int format(game_action a, char *buf, size_t size) { return gs_format((int)a, buf, size); }

static int parse(const char *text, game_action *out)
{
    int card;
    if (gs_parse(text, &card) < 0)
        return -1;
    *out = (game_action)card;
    return 0;
}

static void pack_action(msgpack_packer *pk, game_action a)
{
    char text[16];
    gs_format((int)a, text, sizeof text);
    msgpack_pack_map(pk, 2);
    mpw_str(pk, "text"); mpw_str(pk, text);
    mpw_str(pk, "card"); mpw_int_or_nil(pk, (int64_t)a, 0);
}

static void pack_cards(msgpack_packer *pk, uint32_t mask)
{
    msgpack_pack_array(pk, (size_t)__builtin_popcount(mask));
    for (int v = 1; v <= GS_MAX_CARDS; v++)
        if (mask & (1u << (v - 1)))
            msgpack_pack_int(pk, v);
}

/* Past rounds: prize, winner, and the bids this seat may see. */
static void pack_history(msgpack_packer *pk, const gs_state *s, int seat)
{
    msgpack_pack_array(pk, s->round);
    for (int r = 0; r < s->round; r++) {
        msgpack_pack_map(pk, 3);
        mpw_str(pk, "prize");  msgpack_pack_int(pk, s->prize[r]);
        mpw_str(pk, "winner"); mpw_int_or_nil(pk, s->winner[r], GS_NONE);
        mpw_str(pk, "bids");
        msgpack_pack_array(pk, s->opt.players);
        for (int p = 0; p < s->opt.players; p++)
            mpw_int_or_nil(pk, p == seat || s->opt.reveal == GS_REVEAL_BIDS ? s->bid[r][p] : 0, 0);
    }
}

static void pack_observation(msgpack_packer *pk, const void *state, int seat)
{
    const gs_state *s = state;
    int over = gs_is_over(s);
    uint32_t left = 0;                     /* prizes still face down, as a set */
    for (int r = s->round + 1; r < s->opt.cards; r++)
        left |= 1u << (s->prize[r] - 1);
    msgpack_pack_map(pk, 11);
    mpw_str(pk, "seat");    msgpack_pack_int(pk, seat);
    mpw_str(pk, "seats");   msgpack_pack_int(pk, s->opt.players);
    mpw_str(pk, "round");   msgpack_pack_int(pk, s->round + !over);
    mpw_str(pk, "rounds");  msgpack_pack_int(pk, s->opt.cards);
    mpw_str(pk, "to_move"); mpw_int_or_nil(pk, over ? -1 : s->to_move, -1);
    mpw_str(pk, "prize");   mpw_int_or_nil(pk, over ? 0 : s->prize[s->round], 0);
    mpw_str(pk, "prizes_left"); pack_cards(pk, left);
    mpw_str(pk, "hand");    pack_cards(pk, s->hand[seat]);
    mpw_str(pk, "bid");     mpw_int_or_nil(pk, over ? 0 : s->bid[s->round][seat], 0);
    mpw_str(pk, "points");
    msgpack_pack_array(pk, s->opt.players);
    for (int p = 0; p < s->opt.players; p++)
        msgpack_pack_double(pk, (double)s->points[p] / GS_UNIT);
    mpw_str(pk, "history"); pack_history(pk, s, seat);
}

static int result(const void *state, double score[GAME_MAX_SEATS], char *reason, size_t size,
                  char *detail, size_t detail_size)
{
    const gs_state *s = state;
    if (!gs_is_over(s))
        return 0;
    gs_scores(s, score);
    snprintf(reason, size, "points");
    size_t n = (size_t)snprintf(detail, detail_size, "points");
    for (int p = 0; p < s->opt.players && n < detail_size; p++)
        n += (size_t)snprintf(detail + n, detail_size - n, "%s%g", p ? "-" : " ",
                              (double)s->points[p] / GS_UNIT);
    return 1;
}

static uint64_t hash(const void *state) { return gs_hash(state); }

static int render(const void *state, char *buf, size_t size)
{
    const gs_state *s = state;
    size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, \
                                        __VA_ARGS__))
    if (gs_is_over(s))
        PUT("after %d rounds\n", s->opt.cards);
    else
        PUT("round %d of %d, prize %d\n", s->round + 1, s->opt.cards, s->prize[s->round]);
    for (int p = 0; p < s->opt.players; p++) {
        char bid[8] = "-";
        if (!gs_is_over(s) && s->bid[s->round][p])
            snprintf(bid, sizeof bid, "%d", s->bid[s->round][p]);
        PUT("  seat %d  %5.2f points  bid %-3s hand", p, (double)s->points[p] / GS_UNIT, bid);
        for (int v = 1; v <= s->opt.cards; v++)
            if (s->hand[p] & (1u << (v - 1)))
                PUT(" %d", v);
        PUT("\n");
    }
#undef PUT
    return (int)n;
}

static void write_json(struct jw *w, const void *state, int seat) { gs_write_json(w, state, seat); }

static void scramble_hidden(void *state, int seat, uint64_t seed)
{
    pcg32 rng;
    pcg32_seed(&rng, seed, 0x68696464656eULL);
    gs_scramble_hidden(state, seat, &rng);
}

const game_api game_goofspiel = {
    .name = "goofspiel",
    .description = "bid hidden cards for a face-down prize deck (OpenSpiel's goofspiel)",
    .seat_counts = seat_counts,
    .options = declared,
    .noptions = NOPTIONS,
    .state_size = sizeof(gs_state),
    .init = init,
    .seats = seats,
    .team_of = team_of,
    .to_move = to_move,
    .decision_name = decision_name,
    .legal = legal,
    .apply = apply,
    .public_view = public_view,
    .revealed = revealed,
    .format = format,
    .parse = parse,
    .pack_action = pack_action,
    .pack_observation = pack_observation,
    .result = result,
    .hash = hash,
    .render = render,
    .write_json = write_json,
    .scramble_hidden = scramble_hidden,
};

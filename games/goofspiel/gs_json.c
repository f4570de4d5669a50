/*
 * gs_json.c - a Goofspiel state as JSON for the web's replay viewer
 * (game_api.write_json; drawn by web/assets/games/goofspiel.js).
 *
 * Seat -1 is the whole truth: every hand, every bid, the prize deck's
 * order. A seat's view holds what that seat's observation holds
 * (pack_observation in gs_game.c): its own hand and bid, other seats'
 * hands as counts only, this round's other bids as "made" without the
 * card, past bids as the reveal option shows them, and the prizes still
 * face down as a set (their order is hidden from every seat).
 */
#include <assert.h>
#include "gs.h"
#include "gs_game.h"
#include "jw.h"

static void cards(jw *w, uint32_t mask)
{
    jw_arr(w);
    for (int v = 1; v <= GS_MAX_CARDS; v++)
        if (mask & (1u << (v - 1)))
            jw_int(w, v);
    jw_arr_end(w);
}

static int popcount(uint32_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* A card, or null for none (0). */
static void card_or_null(jw *w, int card)
{
    if (card)
        jw_int(w, card);
    else
        jw_null(w);
}

static void seat_json(jw *w, const gs_state *s, int p, int seat)
{
    int over = gs_is_over(s), sees = seat < 0 || seat == p;
    int bid = over ? 0 : s->bid[s->round][p];
    jw_obj(w);
    jw_key(w, "points");
    jw_num(w, (double)s->points[p] / GS_UNIT);
    jw_key(w, "hand");
    if (sees)
        cards(w, s->hand[p]);
    else
        jw_null(w);
    jw_key(w, "hand_count");
    jw_int(w, popcount(s->hand[p]));
    jw_key(w, "bid");                 /* this round's card, where this view may see it */
    card_or_null(w, sees ? bid : 0);
    jw_key(w, "has_bid");
    jw_bool(w, bid != 0);
    jw_obj_end(w);
}

static void history_json(jw *w, const gs_state *s, int seat)
{
    jw_arr(w);
    for (int r = 0; r < s->round; r++) {
        jw_obj(w);
        jw_key(w, "prize");
        jw_int(w, s->prize[r]);
        jw_key(w, "winner");
        if (s->winner[r] == GS_NONE)
            jw_null(w);
        else
            jw_int(w, s->winner[r]);
        jw_key(w, "bids");
        jw_arr(w);
        for (int p = 0; p < s->opt.players; p++)
            card_or_null(w, seat < 0 || p == seat || s->opt.reveal == GS_REVEAL_BIDS ? s->bid[r][p] : 0);
        jw_arr_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

void gs_write_json(jw *w, const gs_state *s, int seat)
{
    assert(seat >= -1 && seat < s->opt.players);
    int over = gs_is_over(s);
    uint32_t left = 0;
    for (int r = s->round + 1; r < s->opt.cards; r++)
        left |= 1u << (s->prize[r] - 1);
    jw_obj(w);
    jw_key(w, "players");
    jw_int(w, s->opt.players);
    jw_key(w, "round");               /* 1-based; rounds when over */
    jw_int(w, s->round + !over);
    jw_key(w, "rounds");
    jw_int(w, s->opt.cards);
    jw_key(w, "to_move");
    if (over)
        jw_null(w);
    else
        jw_int(w, s->to_move);
    jw_key(w, "prize");
    card_or_null(w, over ? 0 : s->prize[s->round]);
    jw_key(w, "prizes_left");         /* face down: a set for a seat, in order in full */
    if (seat < 0) {
        jw_arr(w);
        for (int r = s->round + 1; r < s->opt.cards; r++)
            jw_int(w, s->prize[r]);
        jw_arr_end(w);
    } else {
        cards(w, left);
    }
    jw_key(w, "reveal");
    jw_str(w, s->opt.reveal == GS_REVEAL_BIDS ? "bids" : "winner");
    jw_key(w, "seats");
    jw_arr(w);
    for (int p = 0; p < s->opt.players; p++)
        seat_json(w, s, p, seat);
    jw_arr_end(w);
    jw_key(w, "history");
    history_json(w, s, seat);
    jw_obj_end(w);
}

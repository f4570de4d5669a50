/*
 * wc_json.c - a War Chest state as JSON, for the web's board view
 * (web/assets/games/warchest.js draws it; web/API.md documents it).
 *
 * Everything is written from observations (wc_observe), so a seat's view
 * holds exactly what wc_observe lets that seat know: other seats' hand,
 * bag and face-down discards are counts only. The whole truth (seat -1)
 * is each seat's own observation of its hidden zones put side by side.
 */
#include "jw.h"
#include "wc_internal.h"
#include "wc_pack.h"

static void zone(jw *w, const char *key, const uint8_t *coins)
{
    jw_key(w, key);
    if (!coins) {
        jw_null(w);
        return;
    }
    jw_obj(w);
    for (int c = 0; c < WC_NCOINS; c++)
        if (coins[c]) {
            jw_key(w, wc_coin_name(c));
            jw_int(w, coins[c]);
        }
    jw_obj_end(w);
}

static int side_of_seat(const wc_observation *o, int seat)
{
    return o->nseats == 4 ? seat & 1 : seat;
}

/* Every hex of the board with its place; a field that would say "nothing
 * here" is left out (not a location, no control marker, no unit): a
 * replay sends a state per decision, and most hexes are empty. */
static void hexes(jw *w, const wc_observation *o)
{
    jw_key(w, "hexes");
    jw_arr(w);
    for (int h = 0; h < WC_NHEX; h++) {
        if (!(o->area & WC_BIT(h)))
            continue;
        jw_obj(w);
        jw_key(w, "hex");
        jw_str(w, wc_hex_names[h]);
        jw_key(w, "q");
        jw_int(w, wc_hex_q[h]);
        jw_key(w, "r");
        jw_int(w, wc_hex_r[h]);
        if (o->locations & WC_BIT(h)) {
            jw_key(w, "location");
            jw_bool(w, 1);
        }
        if ((o->control[0] | o->control[1]) & WC_BIT(h)) {
            jw_key(w, "control");
            jw_int(w, (o->control[0] & WC_BIT(h)) ? 0 : 1);
        }
        int u = o->hex_unit[h];
        if (u != WC_NONE) {
            jw_key(w, "unit");
            jw_str(w, wc_coin_name(u));
            jw_key(w, "coins");
            jw_int(w, o->hex_coins[h]);
            jw_key(w, "side");
            if (o->unit_owner[u] == WC_NONE)
                jw_null(w);
            else
                jw_int(w, side_of_seat(o, o->unit_owner[u]));
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* One seat's zones; `own` is that seat's observation when its hidden
 * zones may be shown, else NULL. */
static void seat_zones(jw *w, const wc_observation *o, int p, const wc_observation *own)
{
    jw_obj(w);
    jw_key(w, "seat");
    jw_int(w, p);
    jw_key(w, "side");
    jw_int(w, side_of_seat(o, p));
    jw_key(w, "units");
    jw_arr(w);
    for (int u = 0; u < WC_NUNITS; u++)
        if (o->unit_owner[u] == p)
            jw_str(w, wc_coin_name(u));
    jw_arr_end(w);
    zone(w, "supply", o->supply[p]);
    zone(w, "discard", o->discard_up[p]);
    zone(w, "removed", o->removed[p]);
    zone(w, "hand", own ? own->hand : NULL);
    zone(w, "bag", own ? own->bag : NULL);
    zone(w, "facedown", own ? own->discard_down : NULL);
    jw_key(w, "hand_count");
    jw_int(w, o->hand_count[p]);
    jw_key(w, "bag_count");
    jw_int(w, o->bag_count[p]);
    jw_key(w, "facedown_count");
    jw_int(w, o->discard_down_count[p]);
    jw_obj_end(w);
}

static void header(jw *w, const wc_observation *o, int view)
{
    static const char *const phases[] = { "draft", "play", "over" };
    jw_key(w, "view");
    jw_int(w, view);
    jw_key(w, "players");
    jw_int(w, o->nseats);
    jw_key(w, "phase");
    jw_str(w, phases[o->phase]);
    jw_key(w, "decision");
    jw_str(w, wc_decision_name(o->decision));
    jw_key(w, "round");
    jw_int(w, o->round);
    jw_key(w, "round_limit");
    jw_int(w, o->round_limit);
    jw_key(w, "to_move");
    if (o->to_move == WC_NONE)
        jw_null(w);
    else
        jw_int(w, o->to_move);
    jw_key(w, "initiative");
    jw_int(w, o->initiative);
    jw_key(w, "claimed");
    jw_bool(w, o->claimed);
    jw_key(w, "markers");
    jw_int(w, o->markers);
    jw_key(w, "winner");      /* side, or null: not over, or a draw */
    if (o->phase == WC_PHASE_OVER && o->winner != WC_NONE)
        jw_int(w, o->winner);
    else
        jw_null(w);
}

static void pending(jw *w, const wc_observation *o)
{
    jw_key(w, "pending");
    if (o->pending.kind == WC_NONE) {
        jw_null(w);
        return;
    }
    jw_obj(w);
    jw_key(w, "decision");
    jw_str(w, wc_decision_name(o->pending.kind + 2));   /* WC_DECIDE_* of a frame */
    jw_key(w, "seat");
    jw_int(w, o->pending.seat);
    jw_key(w, "unit");
    jw_str(w, o->pending.unit == WC_NONE ? NULL : wc_coin_name(o->pending.unit));
    jw_key(w, "hex");
    jw_str(w, o->pending.hex == WC_NONE ? NULL : wc_hex_name(o->pending.hex));
    jw_obj_end(w);
}

void wc_write_json(jw *w, const wc_state *s, int seat)
{
    assert(seat >= -1 && seat < s->nseats);
    wc_observation o, own;
    wc_observe(s, seat < 0 ? 0 : seat, &o);
    jw_obj(w);
    header(w, &o, seat);
    hexes(w, &o);
    jw_key(w, "seats");
    jw_arr(w);
    for (int p = 0; p < o.nseats; p++) {
        if (seat < 0)
            wc_observe(s, p, &own);
        seat_zones(w, &o, p, seat < 0 ? &own : p == seat ? &o : NULL);
    }
    jw_arr_end(w);
    jw_key(w, "draft_pool");
    jw_arr(w);
    for (int u = 0; u < WC_NUNITS; u++)
        if (o.draft_pool & (1u << u))
            jw_str(w, wc_coin_name(u));
    jw_arr_end(w);
    pending(w, &o);
    jw_obj_end(w);
}

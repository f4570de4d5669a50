/*
 * wc_apply.c - what happens: playing an action, resolving follow-ups, and
 * moving play on between turns and rounds.
 *
 * A coin play may leave work for later on the frame stack: an AFTER frame
 * checks the acting unit's attribute once its maneuver has fully resolved,
 * and decision frames wait for a seat's choice. advance() settles the stack
 * until a seat must decide or the turn is over. Nothing here allocates.
 */
#include <string.h>
#include "wc_internal.h"
#include "wc_rng.h"

static void push(wc_state *s, int kind, int seat, int unit, int hex, int arg)
{
    assert(s->nframes < WC_MAX_FRAMES);
    s->frames[s->nframes++] = (wc_frame){ (uint8_t)kind, (uint8_t)seat,
                                          (uint8_t)unit, (uint8_t)hex, (uint8_t)arg };
}

static void end_game(wc_state *s, int winner, int reason)
{
    s->phase = WC_PHASE_OVER;
    s->winner = (uint8_t)winner;
    s->end_reason = (uint8_t)reason;
    s->nframes = 0;
}

/* One coin from the bag into the hand; an empty bag is refilled from the
 * whole discard pile first. Returns the coin, or WC_NONE if none is left. */
static int draw_coin(wc_state *s, int seat)
{
    uint8_t (*z)[WC_NCOINS] = s->coins[seat];
    int total = wc_zone_total(s, seat, WC_BAG);
    if (total == 0) {
        for (int c = 0; c < WC_NCOINS; c++) {
            z[WC_BAG][c] = (uint8_t)(z[WC_DISCARD_UP][c] + z[WC_DISCARD_DOWN][c]);
            z[WC_DISCARD_UP][c] = z[WC_DISCARD_DOWN][c] = 0;
        }
        total = wc_zone_total(s, seat, WC_BAG);
        if (total == 0)
            return WC_NONE;
    }
    int r = (int)wc_rng_below(&s->rng, (uint32_t)total);
    for (int c = 0; c < WC_NCOINS; c++) {
        if (r < z[WC_BAG][c]) {
            z[WC_BAG][c]--;
            z[WC_HAND][c]++;
            return c;
        }
        r -= z[WC_BAG][c];
    }
    assert(!"bag total out of step");
    return WC_NONE;
}

void wc_start_round(wc_state *s)
{
    s->round++;
    s->claimed = 0;
    for (int seat = 0; seat < s->nseats; seat++)
        for (int k = 0; k < 3; k++)
            draw_coin(s, seat);
    s->turn = s->initiative;
    /* A Royal Coin never leaves play, so every seat holds at least it. */
    assert(wc_zone_total(s, s->turn, WC_HAND) > 0);
}

/* Called when the units are known: coins into bags, the first draw. */
void wc_begin_play(wc_state *s)
{
    wc_board_deal_coins(s, 0);
    s->phase = WC_PHASE_PLAY;
    s->round = 0;
    wc_start_round(s);
}

static void next_turn(wc_state *s)
{
    for (int i = 1; i <= s->nseats; i++) {
        int seat = (s->turn + i) % s->nseats;
        if (wc_zone_total(s, seat, WC_HAND) > 0) {
            s->turn = (uint8_t)seat;
            return;
        }
    }
    if (s->opt.round_limit && s->round >= s->opt.round_limit)
        end_game(s, WC_NONE, WC_END_ROUND_LIMIT);
    else
        wc_start_round(s);
}

static void take_control(wc_state *s, int hex, int side)
{
    s->control[side ^ 1] &= ~WC_BIT(hex);
    s->control[side] |= WC_BIT(hex);
    if (wc_popcount(s->control[side]) >= s->markers)
        end_game(s, side, WC_END_MARKERS);
}

/* One coin off the target, unless its owner may choose to pay from supply.
 * A Pikeman struck from an adjacent hex takes a coin off the attacker at
 * the same moment; that is not an attack, so it ignores the Knight rule. */
static void attack(wc_state *s, int attacker, int target, int adjacent)
{
    int defender = wc_owner_at(s, target), target_unit = s->hex_unit[target];
    if (target_unit == WC_ROYAL_GUARD && s->coins[defender][WC_SUPPLY][WC_ROYAL_GUARD])
        push(s, WC_FRAME_GUARD, defender, WC_ROYAL_GUARD, target, 0);
    else
        wc_board_take(s, target, WC_REMOVED);
    if (adjacent && target_unit == WC_PIKEMAN)
        wc_board_take(s, attacker, WC_REMOVED);
}

/* Move, control or attack by the unit at a->at. The AFTER frame goes on
 * the stack first so that any choice the maneuver raises resolves first. */
static void maneuver(wc_state *s, const wc_action *a)
{
    int at = a->at, unit = s->hex_unit[at];
    push(s, WC_FRAME_AFTER, wc_owner_at(s, at), unit,
         a->kind == WC_ACT_MOVE ? a->to : at, a->kind);
    switch (a->kind) {
    case WC_ACT_MOVE:    wc_board_move(s, at, a->to); break;
    case WC_ACT_CONTROL: take_control(s, at, wc_side_at(s, at)); break;
    case WC_ACT_ATTACK:  attack(s, at, a->target, 1); break;
    default:             assert(!"not a maneuver");
    }
}

static void tactic(wc_state *s, int seat, const wc_action *a)
{
    int unit = a->coin == WC_ROYAL ? WC_ROYAL_GUARD : a->coin;
    switch (unit) {
    case WC_ARCHER:
    case WC_CROSSBOWMAN:
        attack(s, a->at, a->target, 0);
        break;
    case WC_CAVALRY:
    case WC_LANCER:
        wc_board_move(s, a->at, a->to);
        attack(s, a->to, a->target, 1);
        break;
    case WC_LIGHT_CAVALRY:
    case WC_ROYAL_GUARD:
        wc_board_move(s, a->at, a->to);
        break;
    case WC_ENSIGN:     /* the ally's own move: its attribute may trigger */
        push(s, WC_FRAME_AFTER, wc_owner_at(s, a->from), s->hex_unit[a->from],
             a->to, WC_ACT_MOVE);
        wc_board_move(s, a->from, a->to);
        break;
    case WC_MARSHALL:
        push(s, WC_FRAME_AFTER, wc_owner_at(s, a->from), s->hex_unit[a->from],
             a->from, WC_ACT_ATTACK);
        attack(s, a->from, a->target, 1);
        break;
    case WC_FOOTMAN: {
        wc_mask m = s->unit_hexes[WC_FOOTMAN];
        int first = wc_first(m);
        m &= m - 1;
        push(s, WC_FRAME_FOOTMAN, seat, WC_FOOTMAN, first, m ? wc_first(m) : WC_NONE);
        break;
    }
    default:
        assert(!"unit has no tactic");
    }
}

static void play_coin(wc_state *s, int seat, const wc_action *a)
{
    uint8_t (*z)[WC_NCOINS] = s->coins[seat];
    int coin = a->coin;
    assert(coin < WC_NCOINS && z[WC_HAND][coin] > 0);
    z[WC_HAND][coin]--;
    switch (a->kind) {
    case WC_ACT_DEPLOY:
        wc_board_put(s, a->to, coin, 1);
        break;
    case WC_ACT_BOLSTER:
        s->hex_coins[a->at]++;
        break;
    case WC_ACT_MOVE:
    case WC_ACT_CONTROL:
    case WC_ACT_ATTACK:
        z[WC_DISCARD_UP][coin]++;
        maneuver(s, a);
        break;
    case WC_ACT_TACTIC:
        z[WC_DISCARD_UP][coin]++;
        tactic(s, seat, a);
        break;
    case WC_ACT_CLAIM:
        z[WC_DISCARD_DOWN][coin]++;
        s->initiative = (uint8_t)seat;
        s->claimed = 1;
        break;
    case WC_ACT_RECRUIT:
        z[WC_DISCARD_DOWN][coin]++;
        assert(z[WC_SUPPLY][a->unit] > 0);
        z[WC_SUPPLY][a->unit]--;
        z[WC_DISCARD_UP][a->unit]++;
        if (a->unit == WC_MERCENARY && s->unit_hexes[WC_MERCENARY])
            push(s, WC_FRAME_MERCENARY, seat, WC_MERCENARY,
                 wc_first(s->unit_hexes[WC_MERCENARY]), 0);
        break;
    case WC_ACT_PASS:
        z[WC_DISCARD_DOWN][coin]++;
        break;
    default:
        assert(!"not a coin play");
    }
}

/* A finished maneuver triggers its unit's attribute, if the unit is still
 * there: a unit that has left the board has no attributes. */
static void after_maneuver(wc_state *s, const wc_frame *f)
{
    if (!(s->unit_hexes[f->unit] & WC_BIT(f->hex)))
        return;
    switch (f->unit) {
    case WC_BERSERKER:
        if (s->hex_coins[f->hex] >= 2)
            push(s, WC_FRAME_BERSERKER, f->seat, f->unit, f->hex, 0);
        break;
    case WC_SWORDSMAN:
        if (f->arg == WC_ACT_ATTACK)
            push(s, WC_FRAME_SWORDSMAN, f->seat, f->unit, f->hex, 0);
        break;
    case WC_WARRIOR_PRIEST:
        if (f->arg == WC_ACT_ATTACK || f->arg == WC_ACT_CONTROL) {
            int coin = draw_coin(s, f->seat);
            if (coin != WC_NONE)
                push(s, WC_FRAME_PRIEST, f->seat, f->unit, f->hex, coin);
        }
        break;
    }
}

/* An optional follow-up with nothing to do but stop is skipped. */
static int frame_has_choice(const wc_state *s, const wc_frame *f)
{
    wc_action scratch[32];
    if (f->kind != WC_FRAME_GUARD && f->kind != WC_FRAME_PRIEST &&
        !(s->unit_hexes[f->unit] & WC_BIT(f->hex)))
        return 0;
    switch (f->kind) {
    case WC_FRAME_BERSERKER:
        return wc_gen_maneuvers(s, f->hex, WC_BERSERKER, s->hex_coins[f->hex] - 1,
                                scratch) > 0;
    case WC_FRAME_SWORDSMAN:
        return (wc_hex_adjacent[f->hex] & wc_empty(s)) != 0;
    case WC_FRAME_MERCENARY:
        return wc_gen_maneuvers(s, f->hex, WC_MERCENARY, s->hex_coins[f->hex],
                                scratch) > 0;
    case WC_FRAME_FOOTMAN:
        return wc_gen_maneuvers(s, f->hex, WC_FOOTMAN, s->hex_coins[f->hex], scratch) > 0 ||
               (f->arg != WC_NONE &&
                wc_gen_maneuvers(s, f->arg, WC_FOOTMAN, s->hex_coins[f->arg], scratch) > 0);
    default:
        return 1;
    }
}

static void advance(wc_state *s)
{
    while (s->phase == WC_PHASE_PLAY) {
        if (s->nframes == 0) {
            next_turn(s);
            return;
        }
        wc_frame top = s->frames[s->nframes - 1];
        if (top.kind != WC_FRAME_AFTER && frame_has_choice(s, &top))
            return;
        s->nframes--;
        if (top.kind == WC_FRAME_AFTER)
            after_maneuver(s, &top);
    }
}

/* 2 players: A B B A A B B A. 4 players: 1 2 3 4 4 3 2 1 2 3 4 1, counted
 * clockwise from the first drafter. */
static const uint8_t draft_order_2p[8] = { 0, 1, 1, 0, 0, 1, 1, 0 };
static const uint8_t draft_order_4p[12] = { 0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0 };

static int draft_seat(const wc_state *s)
{
    const uint8_t *order = s->nseats == 4 ? draft_order_4p : draft_order_2p;
    return (s->draft_first + order[s->draft_step]) % s->nseats;
}

static void pick(wc_state *s, const wc_action *a)
{
    assert(s->draft_pool & (1u << a->unit));
    s->unit_owner[a->unit] = (uint8_t)draft_seat(s);
    s->draft_pool &= (uint16_t)~(1u << a->unit);
    s->draft_step++;
    if (s->draft_pool == 0) {
        /* The player who picked second takes the initiative. */
        s->initiative = (uint8_t)((s->draft_first + 1) % s->nseats);
        wc_begin_play(s);
    }
}

void wc_apply(wc_state *s, const wc_action *a)
{
    if (s->phase == WC_PHASE_DRAFT) {
        pick(s, a);
        return;
    }
    assert(s->phase == WC_PHASE_PLAY);
    if (s->nframes == 0) {
        play_coin(s, s->turn, a);
        advance(s);
        return;
    }
    wc_frame f = s->frames[--s->nframes];
    switch (f.kind) {
    case WC_FRAME_GUARD:
        if (a->kind == WC_ACT_GUARD_SUPPLY)
            wc_move_coins(s, f.seat, WC_ROYAL_GUARD, WC_SUPPLY, WC_REMOVED, 1);
        else
            wc_board_take(s, f.hex, WC_REMOVED);
        break;
    case WC_FRAME_PRIEST:
        play_coin(s, f.seat, a);
        break;
    case WC_FRAME_BERSERKER:
        if (a->kind != WC_ACT_STOP) {
            wc_board_take(s, f.hex, WC_DISCARD_UP);  /* paid before it acts */
            maneuver(s, a);
        }
        break;
    case WC_FRAME_SWORDSMAN:
        if (a->kind != WC_ACT_STOP)
            wc_board_move(s, f.hex, a->to);
        break;
    case WC_FRAME_MERCENARY:
        if (a->kind != WC_ACT_STOP)
            maneuver(s, a);
        break;
    case WC_FRAME_FOOTMAN: {
        int other = a->at == f.hex ? f.arg : f.hex;
        if (other != WC_NONE)
            push(s, WC_FRAME_FOOTMAN, f.seat, WC_FOOTMAN, other, WC_NONE);
        maneuver(s, a);
        break;
    }
    default:
        assert(!"no decision pending");
    }
    advance(s);
}

int wc_is_over(const wc_state *s)
{
    return s->phase == WC_PHASE_OVER;
}

int wc_to_move(const wc_state *s)
{
    switch (s->phase) {
    case WC_PHASE_DRAFT: return draft_seat(s);
    case WC_PHASE_PLAY:  return s->nframes ? s->frames[s->nframes - 1].seat : s->turn;
    default:             return -1;
    }
}

int wc_decision(const wc_state *s)
{
    switch (s->phase) {
    case WC_PHASE_DRAFT: return WC_DECIDE_DRAFT;
    case WC_PHASE_PLAY:
        return s->nframes ? s->frames[s->nframes - 1].kind + 2 : WC_DECIDE_TURN;
    default:             return WC_DECIDE_NONE;
    }
}

/*
 * wc_movegen.c - what is legal: every choice open at the current decision.
 *
 * Each unit card's tactic and restrictions are written here as mask
 * arithmetic on the board. wc_apply.c trusts this file: an action it is
 * given has been generated here first.
 */
#include <string.h>
#include "wc_internal.h"

static inline int emit(wc_action *out, int n, int kind, int coin, int unit,
                       int at, int from, int to, int target)
{
    assert(n < WC_MAX_ACTIONS);
    out[n] = (wc_action){ (uint8_t)kind, (uint8_t)coin, (uint8_t)unit,
                          (uint8_t)at, (uint8_t)from, (uint8_t)to,
                          (uint8_t)target, 0 };
    return n + 1;
}

/* A Knight can be attacked only by a bolstered stack; the height that
 * counts is the attacker's at the moment of the attack. */
int wc_can_attack(const wc_state *s, int attacker_coins, int target)
{
    return s->hex_unit[target] != WC_KNIGHT || attacker_coins >= 2;
}

static int makes_normal_attacks(int unit)
{
    return unit != WC_ARCHER && unit != WC_LANCER;
}

int wc_can_claim(const wc_state *s, int seat)
{
    return !s->claimed && s->initiative != seat &&
           wc_side_of(s, s->initiative) != wc_side_of(s, seat);
}

/* Move, control and attack: the maneuvers every unit has. `coins` is the
 * stack height for the Knight rule (a Berserker pays before it acts). */
int wc_gen_maneuvers(const wc_state *s, int hex, int coin, int coins,
                     wc_action *out)
{
    int n = 0, unit = s->hex_unit[hex], side = wc_side_at(s, hex);
    for (wc_mask m = wc_hex_adjacent[hex] & wc_empty(s); m; m &= m - 1)
        n = emit(out, n, WC_ACT_MOVE, coin, WC_NONE, hex, WC_NONE, wc_first(m), WC_NONE);
    if ((s->locations & ~s->control[side]) & WC_BIT(hex))
        n = emit(out, n, WC_ACT_CONTROL, coin, WC_NONE, hex, WC_NONE, WC_NONE, WC_NONE);
    if (makes_normal_attacks(unit))
        for (wc_mask m = wc_hex_adjacent[hex] & s->side_units[side ^ 1]; m; m &= m - 1)
            if (wc_can_attack(s, coins, wc_first(m)))
                n = emit(out, n, WC_ACT_ATTACK, coin, WC_NONE, hex, WC_NONE,
                         WC_NONE, wc_first(m));
    return n;
}

static int gen_ranged(const wc_state *s, int hex, int unit, wc_action *out, int n)
{
    int side = wc_side_at(s, hex), coins = s->hex_coins[hex];
    wc_mask enemy = s->side_units[side ^ 1];
    if (unit == WC_ARCHER) {
        for (wc_mask m = wc_hex_ring2[hex] & enemy; m; m &= m - 1)
            if (wc_can_attack(s, coins, wc_first(m)))
                n = emit(out, n, WC_ACT_TACTIC, unit, WC_NONE, hex, WC_NONE,
                         WC_NONE, wc_first(m));
        return n;
    }
    for (int d = 0; d < 6; d++) {       /* Crossbowman: straight, clear */
        int mid = wc_step(s, hex, d);
        if (mid == WC_NONE || (s->occupied & WC_BIT(mid)))
            continue;
        int t = wc_step(s, mid, d);
        if (t != WC_NONE && (enemy & WC_BIT(t)) && wc_can_attack(s, coins, t))
            n = emit(out, n, WC_ACT_TACTIC, unit, WC_NONE, hex, WC_NONE, WC_NONE, t);
    }
    return n;
}

/* Lancer: one or two steps in a line, then the enemy next in that line. */
static int gen_lancer(const wc_state *s, int hex, wc_action *out, int n)
{
    int coins = s->hex_coins[hex];
    wc_mask enemy = s->side_units[wc_side_at(s, hex) ^ 1];
    for (int d = 0; d < 6; d++) {
        int to = hex;
        for (int steps = 1; steps <= 2; steps++) {
            to = wc_step(s, to, d);
            if (to == WC_NONE || (s->occupied & WC_BIT(to)))
                break;
            int t = wc_step(s, to, d);
            if (t != WC_NONE && (enemy & WC_BIT(t)) && wc_can_attack(s, coins, t))
                n = emit(out, n, WC_ACT_TACTIC, WC_LANCER, WC_NONE, hex, WC_NONE, to, t);
        }
    }
    return n;
}

/* Hexes a unit reaches in exactly two steps through an empty hex. */
static wc_mask two_steps(const wc_state *s, int hex)
{
    wc_mask empty = wc_empty(s), reach = 0;
    for (wc_mask m = wc_hex_adjacent[hex] & empty; m; m &= m - 1)
        reach |= wc_hex_adjacent[wc_first(m)] & empty;
    return reach;
}

static int gen_moves_to(wc_mask dest, int kind, int coin, int at, wc_action *out, int n)
{
    for (; dest; dest &= dest - 1)
        n = emit(out, n, kind, coin, WC_NONE, at, WC_NONE, wc_first(dest), WC_NONE);
    return n;
}

static int gen_royal_guard(const wc_state *s, int hex, wc_action *out, int n)
{
    wc_mask one = wc_hex_adjacent[hex] & wc_empty(s);
    if (s->opt.royal_guard == WC_GUARD_REVISED)
        one = (one | two_steps(s, hex)) & s->control[wc_side_at(s, hex)];
    return gen_moves_to(one, WC_ACT_TACTIC, WC_ROYAL, hex, out, n);
}

static int gen_tactic(const wc_state *s, int hex, wc_action *out, int n)
{
    int unit = s->hex_unit[hex], side = wc_side_at(s, hex);
    wc_mask near = wc_within2(hex), friends = s->side_units[side] & near;
    switch (unit) {
    case WC_ARCHER:
    case WC_CROSSBOWMAN:
        return gen_ranged(s, hex, unit, out, n);
    case WC_CAVALRY:
        for (wc_mask m = wc_hex_adjacent[hex] & wc_empty(s); m; m &= m - 1) {
            int to = wc_first(m);
            for (wc_mask e = wc_hex_adjacent[to] & s->side_units[side ^ 1]; e; e &= e - 1)
                if (wc_can_attack(s, s->hex_coins[hex], wc_first(e)))
                    n = emit(out, n, WC_ACT_TACTIC, unit, WC_NONE, hex, WC_NONE,
                             to, wc_first(e));
        }
        return n;
    case WC_LANCER:
        return gen_lancer(s, hex, out, n);
    case WC_LIGHT_CAVALRY:
        return gen_moves_to(two_steps(s, hex) & wc_hex_ring2[hex], WC_ACT_TACTIC,
                            unit, hex, out, n);
    case WC_ENSIGN:
        for (; friends; friends &= friends - 1) {
            int ally = wc_first(friends);
            for (wc_mask m = wc_hex_adjacent[ally] & wc_empty(s) & near; m; m &= m - 1)
                n = emit(out, n, WC_ACT_TACTIC, unit, WC_NONE, hex, ally,
                         wc_first(m), WC_NONE);
        }
        return n;
    case WC_MARSHALL:
        for (; friends; friends &= friends - 1) {
            int ally = wc_first(friends);
            if (!makes_normal_attacks(s->hex_unit[ally]))
                continue;
            for (wc_mask e = wc_hex_adjacent[ally] & s->side_units[side ^ 1]; e; e &= e - 1)
                if (wc_can_attack(s, s->hex_coins[ally], wc_first(e)))
                    n = emit(out, n, WC_ACT_TACTIC, unit, WC_NONE, hex, ally,
                             WC_NONE, wc_first(e));
        }
        return n;
    default:
        return n;
    }
}

/* Whether any Footman on the board has a maneuver: the tactic needs one. */
static int footmen_can_maneuver(const wc_state *s)
{
    wc_action scratch[32];
    for (wc_mask m = s->unit_hexes[WC_FOOTMAN]; m; m &= m - 1) {
        int h = wc_first(m);
        if (wc_gen_maneuvers(s, h, WC_FOOTMAN, s->hex_coins[h], scratch) > 0)
            return 1;
    }
    return 0;
}

static int gen_face_down(const wc_state *s, int seat, int coin, wc_action *out, int n)
{
    if (wc_can_claim(s, seat))
        n = emit(out, n, WC_ACT_CLAIM, coin, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE);
    for (int u = 0; u < WC_NUNITS; u++)
        if (s->coins[seat][WC_SUPPLY][u])
            n = emit(out, n, WC_ACT_RECRUIT, coin, u, WC_NONE, WC_NONE, WC_NONE, WC_NONE);
    return emit(out, n, WC_ACT_PASS, coin, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE);
}

/* Every way `seat` can play one `coin` from its hand. */
static int gen_coin(const wc_state *s, int seat, int coin, wc_action *out)
{
    int n = 0;
    if (coin == WC_ROYAL) {
        wc_mask guard = s->unit_hexes[WC_ROYAL_GUARD];
        if (guard && s->unit_owner[WC_ROYAL_GUARD] == seat)
            n = gen_royal_guard(s, wc_first(guard), out, n);
        return gen_face_down(s, seat, coin, out, n);
    }
    int side = wc_side_of(s, seat);
    wc_mask here = s->unit_hexes[coin];
    if (wc_popcount(here) < wc_unit_limit(coin)) {
        wc_mask dest = s->control[side] & wc_empty(s);
        if (coin == WC_SCOUT)
            for (wc_mask m = s->side_units[side]; m; m &= m - 1)
                dest |= wc_hex_adjacent[wc_first(m)] & wc_empty(s);
        for (; dest; dest &= dest - 1)
            n = emit(out, n, WC_ACT_DEPLOY, coin, WC_NONE, WC_NONE, WC_NONE,
                     wc_first(dest), WC_NONE);
    }
    for (wc_mask m = here; m; m &= m - 1)
        n = emit(out, n, WC_ACT_BOLSTER, coin, WC_NONE, wc_first(m), WC_NONE,
                 WC_NONE, WC_NONE);
    for (wc_mask m = here; m; m &= m - 1) {
        int h = wc_first(m);
        n += wc_gen_maneuvers(s, h, coin, s->hex_coins[h], out + n);
        n = gen_tactic(s, h, out, n);
    }
    if (coin == WC_FOOTMAN && footmen_can_maneuver(s))
        n = emit(out, n, WC_ACT_TACTIC, coin, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE);
    return gen_face_down(s, seat, coin, out, n);
}

static int gen_follow_up(const wc_state *s, const wc_frame *f, wc_action *out)
{
    int n = 0;
    switch (f->kind) {
    case WC_FRAME_GUARD:
        n = emit(out, n, WC_ACT_GUARD_SUPPLY, WC_NONE, WC_NONE, WC_NONE, WC_NONE,
                 WC_NONE, WC_NONE);
        return emit(out, n, WC_ACT_GUARD_UNIT, WC_NONE, WC_NONE, WC_NONE, WC_NONE,
                    WC_NONE, WC_NONE);
    case WC_FRAME_PRIEST:
        return gen_coin(s, f->seat, f->arg, out);
    case WC_FRAME_FOOTMAN:
        n = wc_gen_maneuvers(s, f->hex, WC_FOOTMAN, s->hex_coins[f->hex], out);
        if (f->arg != WC_NONE)
            n += wc_gen_maneuvers(s, f->arg, WC_FOOTMAN, s->hex_coins[f->arg], out + n);
        return n;
    case WC_FRAME_BERSERKER:
        n = wc_gen_maneuvers(s, f->hex, WC_BERSERKER, s->hex_coins[f->hex] - 1, out);
        break;
    case WC_FRAME_SWORDSMAN:
        n = gen_moves_to(wc_hex_adjacent[f->hex] & wc_empty(s), WC_ACT_MOVE,
                         WC_SWORDSMAN, f->hex, out, n);
        break;
    case WC_FRAME_MERCENARY:
        n = wc_gen_maneuvers(s, f->hex, WC_MERCENARY, s->hex_coins[f->hex], out);
        break;
    default:
        assert(!"not a decision frame");
    }
    return emit(out, n, WC_ACT_STOP, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE, WC_NONE);
}

int wc_legal_actions(const wc_state *s, wc_action *out)
{
    int n = 0;
    switch (s->phase) {
    case WC_PHASE_DRAFT:
        for (int u = 0; u < WC_NUNITS; u++)
            if (s->draft_pool & (1u << u))
                n = emit(out, n, WC_ACT_PICK, WC_NONE, u, WC_NONE, WC_NONE,
                         WC_NONE, WC_NONE);
        return n;
    case WC_PHASE_PLAY:
        if (s->nframes)
            return gen_follow_up(s, &s->frames[s->nframes - 1], out);
        for (int c = 0; c < WC_NCOINS; c++)
            if (s->coins[s->turn][WC_HAND][c])
                n += gen_coin(s, s->turn, c, out + n);
        return n;
    default:
        return 0;
    }
}

int wc_is_legal(const wc_state *s, const wc_action *a)
{
    wc_action all[WC_MAX_ACTIONS];
    int n = wc_legal_actions(s, all);
    for (int i = 0; i < n; i++)
        if (wc_action_equal(&all[i], a))
            return 1;
    return 0;
}
